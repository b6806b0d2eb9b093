import { felContingencyReceiptLines } from '@tiendita/contracts';
import { offlineAccessNumber } from '../lib/fel-on-device';
import '../fel.css';

/** The offline receipt's FEL lines: issued in contingency, its access number, certified once sent. Nothing when FEL is off. */
export function FelContingencyNote({ deviceSaleId }: { deviceSaleId: string }) {
  const accessNumber = offlineAccessNumber(deviceSaleId);
  if (accessNumber === null) return null;
  const [title, number, later] = felContingencyReceiptLines(accessNumber);
  return (
    <div className="receipt__fel receipt__fel-contingency" data-testid="pos-fel-contingency">
      <strong>{title}</strong>
      <div data-testid="pos-access-number">{number}</div>
      <div className="receipt__note">{later}</div>
    </div>
  );
}
