import { Alert, Card, Steps } from 'antd';
import { ORDER_NOT_CANCELLABLE, ORDER_STATUS_FLOW, ORDER_STATUS_LABELS, type OrderStatus } from '@tiendita/contracts';

const STEP_HINTS: Partial<Record<OrderStatus, string>> = {
  pending: 'El pedido llegó por WhatsApp o la tienda.',
  confirmed: 'Confirmaste el pedido con el cliente.',
  preparing: 'Lo estás preparando.',
  ready: 'Listo para entregar o recoger.',
  out_for_delivery: 'Va en camino: el stock sale de la bodega.',
  delivered: 'El cliente lo recibió.',
  completed: 'Cerrado. Las ventas del POS empiezan aquí.',
};

/** 'Completado, Cancelado y Entregado': the statuses an order can no longer be cancelled from. */
function finalStatuses(): string {
  const names = ORDER_NOT_CANCELLABLE.map((s) => ORDER_STATUS_LABELS[s]);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} y ${names[names.length - 1]}` : names.join('');
}

/** The state flow tab: the forward steps, and where cancelling is allowed. */
export function StateFlow() {
  return (
    <Card>
      <Steps orientation="vertical" current={-1} items={ORDER_STATUS_FLOW.map((s) => ({ title: ORDER_STATUS_LABELS[s], content: STEP_HINTS[s] }))} />
      <Alert
        type="warning"
        showIcon
        title="Cancelar"
        description={`Un pedido se puede cancelar en cualquier estado excepto ${finalStatuses()}. Al cancelarlo, sus unidades vuelven al inventario y, si ya se pagó, se registra el reembolso. Cada cambio guarda una nota opcional en el historial.`}
      />
    </Card>
  );
}
