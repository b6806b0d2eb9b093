import { Button, Popconfirm, Space, Typography } from 'antd';
import { CloseCircleOutlined, StopOutlined } from '@ant-design/icons';
import { phoneKey } from '@tiendita/contracts';
import { toast } from '../../../components/toast/toast-store';
import { serverMessageOr } from '../../../lib/api';
import { useStoreSettings } from '../../settings/api/get-store-settings';
import { useUpdateStoreSettings } from '../../settings/api/update-store-settings';
import { useBulkCancelOrders } from '../api/bulk-cancel-orders';
import type { OrderView } from '../api/types';

/**
 * Actions on the pending orders selected in the table (issue 26): cancel them all at once (their
 * stock comes back), and block their phone numbers from ordering online (Configuración › WhatsApp
 * lists the blocked numbers).
 */
export function BulkActionsBar({ selected, onDone }: { selected: OrderView[]; onDone: () => void }) {
  const cancel = useBulkCancelOrders();
  const settings = useStoreSettings();
  const updateSettings = useUpdateStoreSettings();
  if (selected.length === 0) return null;
  const phones = [...new Set(selected.map((o) => (o.customerPhone ? phoneKey(o.customerPhone) : null)).filter((k): k is string => k !== null))];

  const cancelAll = async () => {
    try {
      const { results, cancelled } = await cancel.mutateAsync(selected.map((o) => o.id));
      const failed = results.filter((r) => !r.ok);
      toast({
        title: `${cancelled} ${cancelled === 1 ? 'pedido cancelado' : 'pedidos cancelados'}`,
        description: failed.length ? `${failed.length} no se pudieron cancelar: ${failed[0].message ?? ''}` : 'Sus productos vuelven a estar disponibles.',
        variant: failed.length ? 'destructive' : undefined,
      });
      onDone();
    } catch (error) {
      toast({ title: 'No se pudieron cancelar los pedidos', description: serverMessageOr(error, 'Inténtalo de nuevo en unos momentos.'), variant: 'destructive' });
    }
  };

  const blockPhones = async () => {
    try {
      const current = settings.data?.blockedPhones ?? [];
      await updateSettings.mutateAsync({ blockedPhones: [...new Set([...current, ...phones])] });
      toast({ title: phones.length === 1 ? 'Número bloqueado' : 'Números bloqueados', description: 'No podrán hacer pedidos en línea en tu tienda. Puedes desbloquearlos en Configuración › WhatsApp.' });
    } catch (error) {
      toast({ title: 'No se pudieron bloquear los números', description: serverMessageOr(error, 'Inténtalo de nuevo en unos momentos.'), variant: 'destructive' });
    }
  };

  return (
    <div className="orders-bulk-bar" role="region" aria-label="Acciones con los pedidos seleccionados">
      <Typography.Text strong>
        {selected.length} {selected.length === 1 ? 'pedido pendiente seleccionado' : 'pedidos pendientes seleccionados'}
      </Typography.Text>
      <Space wrap>
        <Popconfirm title="¿Cancelar los pedidos seleccionados?" description="Sus productos vuelven a estar disponibles." okText="Sí, cancelar" cancelText="No" onConfirm={() => cancelAll()}>
          <Button danger icon={<CloseCircleOutlined />} loading={cancel.isPending}>
            Cancelar pedidos
          </Button>
        </Popconfirm>
        {phones.length > 0 && (
          <Popconfirm title={phones.length === 1 ? '¿Bloquear este número?' : `¿Bloquear ${phones.length} números?`} okText="Sí, bloquear" cancelText="No" onConfirm={() => blockPhones()}>
            <Button icon={<StopOutlined />} loading={updateSettings.isPending} disabled={!settings.data}>
              {phones.length === 1 ? 'Bloquear teléfono' : 'Bloquear teléfonos'}
            </Button>
          </Popconfirm>
        )}
      </Space>
    </div>
  );
}
