import { useState } from 'react';
import { Alert, Button, Drawer, Empty, Tag } from 'antd';
import { OfflineCardMessages } from '@tiendita/contracts';
import { formatMoney } from '../../../lib/format';
import { discardSale, type OfflineState, retryFailedSale, syncQueue } from './offline-pos';

/** The header's state of the offline queue: 'Sin conexión — N ventas por enviar', 'Enviando…', or nothing. */
export function offlineStatusText(s: OfflineState): string | null {
  const pending = s.sales.filter((x) => x.status === 'pending').length;
  const failed = s.sales.length - pending;
  const count = (n: number) => `${n} ${n === 1 ? 'venta' : 'ventas'}`;
  if (s.sending) return 'Enviando…';
  if (!s.online) return `Sin conexión — ${count(pending)} por enviar`;
  if (pending > 0) return `${count(pending)} por enviar`;
  if (failed > 0) return `${count(failed)} sin registrar: revisa la cola`;
  return null;
}

/** The POS header's offline line and the drawer with the queued sales and what failed. */
export function OfflineStatus({ state }: { state: OfflineState }) {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const text = offlineStatusText(state);
  return (
    <>
      {text && (
        <div className="pos-offline" role="status" aria-live="polite">
          <span data-testid="pos-offline-status">{text}</span>
          <Button
            size="small"
            onClick={() => {
              setOpened(true);
              setOpen(true);
            }}
          >
            Ver cola
          </Button>
          {state.online && !state.sending && (
            <Button size="small" type="primary" onClick={() => void syncQueue()}>
              Enviar ahora
            </Button>
          )}
        </div>
      )}
      {/* The drawer (and its styles) only once it is first opened: the POS's first screen does without. */}
      {opened && (
        <Drawer open={open} onClose={() => setOpen(false)} title="Ventas por enviar" size="min(100vw, 420px)">
          {state.sales.length === 0 ? (
            <Empty description="No hay ventas por enviar" />
          ) : (
            <ul className="pos-queue">
              {state.sales.map((s) => (
                <li key={s.deviceSaleId} className="pos-queue__item">
                  <div>
                    <strong>{s.localNumber}</strong> · {formatMoney(s.total)} · {new Date(s.soldAt).toLocaleTimeString('es-GT')}{' '}
                    {s.status === 'failed' ? <Tag color="red">No registrada</Tag> : <Tag color="blue">Por enviar</Tag>}
                    {s.paymentMethod === 'card' && <Tag color="gold">{OfflineCardMessages.pendingLabel}</Tag>}
                  </div>
                  <div className="pos-queue__lines">{s.lines.map((l) => `${l.quantity} × ${l.name}`).join(', ')}</div>
                  {s.error && <Alert type={s.status === 'failed' ? 'error' : 'warning'} showIcon title={s.error} />}
                  {s.status === 'failed' && (
                    <div className="pos-queue__actions">
                      <Button size="small" onClick={() => void retryFailedSale(s.deviceSaleId)}>
                        Reintentar
                      </Button>
                      <Button size="small" danger onClick={() => void discardSale(s.deviceSaleId)}>
                        Descartar
                      </Button>
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
        </Drawer>
      )}
    </>
  );
}
