import { Alert } from 'antd';
import { Link } from 'react-router';
import { useFelSummary } from '../api/fel-documents';
import '../fel.css';

/** The dashboard's notice of invoices still pending or refused by the certifier; nothing when every one is certified. */
export function FelDashboardNotice() {
  const summary = useFelSummary();
  const { pending = 0, failed = 0 } = summary.data ?? {};
  if (pending + failed === 0) return null;
  const parts = [failed ? `${failed} ${failed === 1 ? 'factura rechazada' : 'facturas rechazadas'}` : null, pending ? `${pending} ${pending === 1 ? 'factura pendiente' : 'facturas pendientes'} de certificar` : null].filter(Boolean);
  return (
    <Alert
      className="fel-alert"
      type={failed ? 'error' : 'warning'}
      showIcon
      title={`Facturación electrónica: ${parts.join(' y ')}`}
      description={
        <>
          Revísalas, corrige el NIT o reintenta en <Link to="/invoices">Facturas</Link>.
        </>
      }
    />
  );
}
