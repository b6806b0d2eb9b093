import { Radio } from 'antd';
import { PAYMENT_RECORD_METHODS, paymentMethodLabel, type PaymentRecordMethod } from '@tiendita/contracts';

/** Efectivo, Tarjeta, Transferencia, Otro as one row of buttons. */
export function PaymentMethodPicker({ value, onChange, label }: { value: PaymentRecordMethod; onChange: (method: PaymentRecordMethod) => void; label: string }) {
  return (
    <Radio.Group aria-label={label} value={value} onChange={(e) => onChange(e.target.value as PaymentRecordMethod)} optionType="button" buttonStyle="solid" className="payment-methods">
      {PAYMENT_RECORD_METHODS.map((m) => (
        <Radio.Button key={m} value={m}>
          {paymentMethodLabel(m)}
        </Radio.Button>
      ))}
    </Radio.Group>
  );
}
