import { Button, Tabs, Typography } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { InventoryItem } from '@tiendita/contracts';
import { AdjustDialog } from './components/adjust-dialog';
import { CurrentInventory } from './components/current-inventory';
import { ProductHistoryDialog, StoreHistory } from './components/inventory-history';
import './inventory.css';

/** /inventory (spec 001 §2): current inventory and the general history, the adjust and history dialogs. */
export function InventoryPage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'history' ? 'history' : 'current';
  const [adjusting, setAdjusting] = useState<{ open: boolean; productId?: string }>({ open: false });
  const [historyOf, setHistoryOf] = useState<InventoryItem | null>(null);
  return (
    <div className="inventory">
      <div className="inventory__header">
        <Typography.Title level={2} className="inventory__title">
          Inventario
        </Typography.Title>
        <Button type="primary" icon={<EditOutlined />} onClick={() => setAdjusting({ open: true })}>
          Ajustar inventario
        </Button>
      </div>
      <Tabs
        activeKey={tab}
        onChange={(key) => {
          const next = new URLSearchParams(params);
          if (key === 'history') next.set('tab', 'history');
          else next.delete('tab');
          setParams(next, { replace: true });
        }}
        items={[
          { key: 'current', label: 'Inventario actual', children: <CurrentInventory onAdjust={(productId) => setAdjusting({ open: true, productId })} onHistory={setHistoryOf} /> },
          { key: 'history', label: 'Historial general', children: <StoreHistory /> },
        ]}
      />
      <AdjustDialog open={adjusting.open} productId={adjusting.productId} onClose={() => setAdjusting({ open: false })} />
      <ProductHistoryDialog product={historyOf} onClose={() => setHistoryOf(null)} />
    </div>
  );
}
