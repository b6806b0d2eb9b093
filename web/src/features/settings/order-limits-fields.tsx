import { Form, Input, InputNumber, Typography } from 'antd';
import { ORDER_LIMIT_BOUNDS } from '@tiendita/contracts';

/**
 * Configuración › WhatsApp: the limits of online orders (issue 26). How long an unconfirmed order
 * holds its stock, how many units a shopper may ask for, and the numbers the shop takes no orders from.
 */
export function OrderLimitsFields() {
  const b = ORDER_LIMIT_BOUNDS;
  return (
    <section className="settings-order-limits" aria-label="Límites de los pedidos en línea">
      <Typography.Title level={5}>Límites de los pedidos en línea</Typography.Title>
      <Form.Item
        name="orderHoldHours"
        label="Horas que un pedido sin confirmar aparta el producto"
        extra="Pasado ese tiempo sin que lo confirmes, el pedido se cancela y el producto vuelve a estar disponible."
      >
        <InputNumber min={b.orderHoldHours.min} max={b.orderHoldHours.max} precision={0} suffix="horas" style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="orderMaxUnitsPerLine" label="Máximo de unidades de un producto por pedido">
        <InputNumber min={b.orderMaxUnitsPerLine.min} max={b.orderMaxUnitsPerLine.max} precision={0} style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="orderMaxUnitsPerOrder" label="Máximo de unidades por pedido">
        <InputNumber min={b.orderMaxUnitsPerOrder.min} max={b.orderMaxUnitsPerOrder.max} precision={0} style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="blockedPhones" label="Números bloqueados" extra="Uno por línea. Estos números no podrán hacer pedidos en línea en tu tienda.">
        <Input.TextArea rows={3} placeholder="Ejemplo: 5555 1234" inputMode="tel" style={{ maxWidth: 360 }} />
      </Form.Item>
    </section>
  );
}
