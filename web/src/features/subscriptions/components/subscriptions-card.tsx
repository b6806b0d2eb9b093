import { useState } from 'react';
import { Button, Card, Table, Tag } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { SubscriptionView } from '@tiendita/contracts';
import { toast } from '../../../components/toast/toast-store';
import { formatDateTime } from '../../../lib/format';
import { exportSubscriptions } from '../api/export-subscriptions';
import { useSubscriptions } from '../api/get-subscriptions';

const PAGE_SIZE = 10;

/** The store's subscribers (active first, newest first) and the CSV export of spec 000 §2. */
export function SubscriptionsCard() {
  const [page, setPage] = useState(1);
  const list = useSubscriptions(page, PAGE_SIZE);
  const [exporting, setExporting] = useState(false);

  const download = async () => {
    setExporting(true);
    try {
      await exportSubscriptions();
    } catch {
      toast({ title: 'Error', description: 'No se pudo exportar la lista de suscriptores.', variant: 'destructive' });
    } finally {
      setExporting(false);
    }
  };

  return (
    <Card
      className="subscriptions-card"
      title={`Suscriptores${list.data ? ` (${list.data.active === 1 ? '1 activo' : `${list.data.active} activos`})` : ''}`}
      extra={
        <Button icon={<DownloadOutlined />} onClick={() => void download()} loading={exporting} disabled={!list.data || list.data.active === 0}>
          Exportar CSV
        </Button>
      }
    >
      <Table<SubscriptionView>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.data?.subscriptions ?? []}
        locale={{ emptyText: 'Aún no tienes suscriptores. Tus clientes pueden suscribirse desde tu tienda.' }}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onChange: setPage, hideOnSinglePage: true }}
        scroll={{ x: true }}
        columns={[
          { title: 'Nombre', dataIndex: 'name', render: (v: string | null) => v ?? '—' },
          { title: 'Email', dataIndex: 'email' },
          { title: 'Teléfono', dataIndex: 'phone', render: (v: string | null) => v ?? '—' },
          { title: 'Proveedor', dataIndex: 'provider' },
          { title: 'Fecha de suscripción', dataIndex: 'subscribedAt', render: (v: string) => formatDateTime(v) },
          { title: 'Estado', dataIndex: 'isActive', render: (v: boolean) => (v ? <Tag color="green">Activo</Tag> : <Tag>Cancelado</Tag>) },
        ]}
      />
    </Card>
  );
}
