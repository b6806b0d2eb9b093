import { Panel } from '../../../components/panel/panel';
import { CheckCircleFilled } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { storeQueryOptions } from '../../store/api/get-store';
import { firstStepsDone, markFirstStepsDone } from '../lib/first-steps';

interface Step {
  key: string;
  label: string;
  done: boolean;
  to: string;
  /** An outside address (the public shop) opens in a new tab. */
  external?: boolean;
}

type StoreData = NonNullable<Awaited<ReturnType<NonNullable<ReturnType<typeof storeQueryOptions>['queryFn']>>>>;

function stepsOf(data: StoreData, shared: boolean): Step[] {
  return [
    { key: 'product', label: 'Agrega tu primer producto', done: data.totalProducts > 0, to: '/products' },
    { key: 'whatsapp', label: 'Configura tu número de WhatsApp', done: Boolean(data.whatsappNumber), to: '/settings#whatsapp' },
    { key: 'share', label: 'Abre y comparte tu tienda', done: shared, to: `/${data.subdomain}`, external: true },
    { key: 'sale', label: 'Haz tu primera venta', done: data.totalOrders > 0, to: '/pos' },
  ];
}

const isComplete = (data: StoreData, shared: boolean): boolean => stepsOf(data, shared).every((step) => step.done);

/**
 * A new owner's first steps, with progress, each a link: add a product, set the WhatsApp number,
 * open and share the shop, make a first sale. It reads the store afresh each visit while steps are
 * left (a product or sale made elsewhere counts at once) and is gone for good once all are done.
 */
export function FirstSteps({ storeId, shared, onShare }: { storeId: string; shared: boolean; onShare: () => void }) {
  const [hidden] = useState(() => firstStepsDone(storeId));
  // While steps are left it also looks again every 5 s: a sale made on another device (or answered
  // before the store's count had it) ticks its step without a reload.
  const store = useQuery({ ...storeQueryOptions(), refetchOnMount: 'always', enabled: !hidden, refetchInterval: (q) => (q.state.data && isComplete(q.state.data, shared) ? false : 5_000) });
  const data = store.data;
  const steps: Step[] = data ? stepsOf(data, shared) : [];
  const doneCount = steps.filter((s) => s.done).length;
  const complete = steps.length > 0 && doneCount === steps.length;
  const percent = steps.length ? Math.round((doneCount / steps.length) * 100) : 0;

  useEffect(() => {
    if (complete) markFirstStepsDone(storeId);
  }, [complete, storeId]);

  if (hidden || !data || complete) return null;
  return (
    <Panel className="first-steps" title="Primeros pasos" extra={<span>{`${doneCount} de ${steps.length} listos`}</span>}>
      <div className="first-steps__bar" role="progressbar" aria-label="Avance de los primeros pasos" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
        <span style={{ width: `${percent}%` }} />
      </div>
      <ol className="first-steps__list">
        {steps.map((step) => (
          <li key={step.key} className={step.done ? 'first-steps__item first-steps__item--done' : 'first-steps__item'}>
            <CheckCircleFilled aria-hidden="true" className="first-steps__icon" />
            {step.external ? (
              <a href={step.to} target="_blank" rel="noopener" onClick={onShare}>
                {step.label}
              </a>
            ) : (
              <Link to={step.to}>{step.label}</Link>
            )}
            <span className="visually-hidden">{step.done ? ' (listo)' : ' (pendiente)'}</span>
          </li>
        ))}
      </ol>
    </Panel>
  );
}
