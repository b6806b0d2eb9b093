import { Button } from 'antd';
import { ORDER_NEXT_STATUS, ORDER_STATUS_LABELS } from '@tiendita/contracts';
import { serverMessageOr } from '../../../lib/api';
import { toast } from '../../../components/toast/toast-store';
import { useUpdateOrderStatus } from '../api/update-order-status';
import type { OrderView } from '../api/types';
import { OrderMessages } from '../lib/order-messages';
import { NEXT_STEP_ACTIONS } from '../lib/order-status';

/** The order's next forward step as one tap ('Confirmar', 'Preparar', …); nothing once the flow has ended. */
export function NextStepButton({ order, block = false }: { order: OrderView; block?: boolean }) {
  const update = useUpdateOrderStatus();
  const next = ORDER_NEXT_STATUS[order.status];
  const action = NEXT_STEP_ACTIONS[order.status];
  if (!next || !action) return null;
  // The promise, not mutate's callbacks: the refreshed list may drop this button before they would run.
  const go = () =>
    update.mutateAsync({ id: order.id, status: next }).then(
      () => toast({ title: OrderMessages.statusUpdated, description: `${order.code}: ${ORDER_STATUS_LABELS[next]}` }),
      (error: unknown) => toast({ title: 'Error', description: serverMessageOr(error, OrderMessages.statusFailed), variant: 'destructive' }),
    );
  return (
    <Button block={block} loading={update.isPending} onClick={go} aria-label={`${action}: pedido ${order.code} pasa a ${ORDER_STATUS_LABELS[next]}`}>
      {action}
    </Button>
  );
}
