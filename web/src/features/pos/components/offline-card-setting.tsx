import { Form, Radio, Typography } from 'antd';
import { OFFLINE_CARD_PAYMENT_LABELS, OFFLINE_CARD_PAYMENT_OPTIONS } from '@tiendita/contracts';

/**
 * Configuración › Avanzado, 'Punto de venta sin conexión' (issue 28): what the POS does with a card
 * sale while offline. Refused, or taken as 'pago con tarjeta pendiente de confirmar' (the order waits
 * with its payment pending until the owner records it).
 */
export function OfflineCardSetting() {
  return (
    <section className="settings-offline-pos" aria-label="Punto de venta sin conexión" style={{ marginTop: 24 }}>
      <Typography.Title level={5}>Punto de venta sin conexión</Typography.Title>
      <Form.Item
        name="offlineCardPayments"
        label="Ventas con tarjeta cuando no hay internet"
        extra="Sin conexión no se puede comprobar el cobro de la tarjeta. Si las aceptas, cada venta queda con el pago pendiente en Pedidos hasta que registres el pago."
      >
        <Radio.Group options={OFFLINE_CARD_PAYMENT_OPTIONS.map((value) => ({ value, label: OFFLINE_CARD_PAYMENT_LABELS[value] }))} />
      </Form.Item>
    </section>
  );
}
