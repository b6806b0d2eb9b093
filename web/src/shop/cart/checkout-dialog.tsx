import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Dialog } from '../components/dialog';
import { formatMoney } from '../lib/format';
import { CheckoutMessages } from '../lib/messages';
import { serverMessage } from '../lib/api-error';
import { randomUuid } from '../../lib/uuid';
import { toast } from '../../components/toast/toast-store';
import { useCreatePublicOrder, type PublicOrderCreated } from '../api/create-order';
import { clearCart, useCart } from './cart-store';

/** The server's message of a failed order, else the spec's fallback (spec 001 §8). */
function failureText(error: unknown): string {
  return serverMessage(error) ?? CheckoutMessages.failed;
}

/**
 * Checkout (spec 001 §5): name and phone required, address and notes optional, the address required
 * when the store asks for it (`addressRequired`, its 'requireCustomerInfo'). On success the cart is
 * cleared, '¡Pedido confirmado!' shows and WhatsApp opens with the order message; an order answered
 * without a WhatsApp link shows 'WhatsApp no configurado'. One Idempotency-Key per attempt, reused on a retry.
 */
export function CheckoutDialog({ store, open, addressRequired, onClose }: { store: string; open: boolean; addressRequired: boolean; onClose: () => void }) {
  const { lines, count, total } = useCart(store);
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [address, setAddress] = useState('');
  const [notes, setNotes] = useState('');
  // The server's refusal of the last attempt; the fields' own message is worked out from them as they change.
  const [error, setError] = useState<string | null>(null);
  const [triedInvalid, setTriedInvalid] = useState(false);
  const [placed, setPlaced] = useState<PublicOrderCreated | null>(null);
  const key = useRef(randomUuid());
  const mutation = useCreatePublicOrder(store);

  useEffect(() => {
    if (open) {
      setError(null);
      setTriedInvalid(false);
      setPlaced(null);
      key.current = randomUuid();
    }
  }, [open]);

  // 'Datos incompletos' shows after a tried submit and goes as soon as the fields are filled.
  const invalid = !name.trim() || !phone.trim() ? CheckoutMessages.incomplete : addressRequired && !address.trim() ? CheckoutMessages.addressRequired : null;
  const shownError = error ?? (triedInvalid ? invalid : null);
  const missing = (value: string, required = true) => triedInvalid && required && !value.trim();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (mutation.isPending) return;
    setError(null);
    if (invalid) {
      setTriedInvalid(true);
      return;
    }
    if (lines.length === 0) return;
    // Opened now, inside the tap, so no pop-up blocker stops it; it goes to WhatsApp once the order exists.
    const whatsappWindow = window.open('', '_blank');
    mutation.mutate(
      {
        idempotencyKey: key.current,
        body: {
          customerData: { name: name.trim(), phone: phone.trim(), address: address.trim(), notes: notes.trim() },
          items: lines.map((l) => ({ productId: l.productId, quantity: l.quantity })),
        },
      },
      {
        onSuccess: (order) => {
          clearCart(store);
          setPlaced(order);
          setName('');
          setPhone('');
          setAddress('');
          setNotes('');
          key.current = randomUuid();
          toast({ title: CheckoutMessages.confirmed, description: `Pedido ${order.code} · ${formatMoney(order.total)}` });
          if (order.whatsappUrl) {
            if (whatsappWindow) whatsappWindow.location.href = order.whatsappUrl;
          } else {
            whatsappWindow?.close();
          }
        },
        onError: (e) => {
          whatsappWindow?.close();
          const text = failureText(e);
          setError(`${CheckoutMessages.failedTitle}: ${text}`);
          toast({ title: CheckoutMessages.failedTitle, description: text, variant: 'destructive' });
        },
      },
    );
  };

  return (
    <Dialog open={open} onClose={onClose} title={placed ? CheckoutMessages.confirmed : 'Finalizar pedido'}>
      {placed ? (
        <div className="shop-checkout-done">
          <p className="shop-checkout-done__code">
            Tu pedido <strong>{placed.code}</strong> por <strong>{formatMoney(placed.total)}</strong> fue recibido.
          </p>
          {placed.whatsappUrl ? (
            <>
              <p className="shop-muted">Envía el mensaje de WhatsApp para que la tienda lo confirme.</p>
              <a className="shop-button shop-button--whatsapp shop-button--block" href={placed.whatsappUrl} target="_blank" rel="noopener noreferrer">
                Abrir WhatsApp
              </a>
            </>
          ) : (
            <p className="shop-form__error" role="alert">
              {CheckoutMessages.noWhatsapp}: la tienda recibió tu pedido y te contactará a tu teléfono.
            </p>
          )}
          <button type="button" className="shop-button shop-button--block" onClick={onClose}>
            Seguir comprando
          </button>
        </div>
      ) : (
        <form className="shop-form shop-checkout" onSubmit={onSubmit} noValidate>
          <div className="shop-checkout__summary">
            <span>
              {count} {count === 1 ? 'artículo' : 'artículos'}
            </span>
            <strong>{formatMoney(total)}</strong>
          </div>
          <label className="shop-field">
            <span>Nombre *</span>
            <input value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" maxLength={255} required aria-invalid={missing(name)} />
          </label>
          <label className="shop-field">
            <span>Teléfono *</span>
            <input type="tel" value={phone} onChange={(e) => setPhone(e.target.value)} autoComplete="tel" inputMode="tel" maxLength={20} required aria-invalid={missing(phone)} />
          </label>
          <label className="shop-field">
            <span>{addressRequired ? 'Dirección *' : 'Dirección (opcional)'}</span>
            <textarea
              value={address}
              onChange={(e) => setAddress(e.target.value)}
              autoComplete="street-address"
              rows={2}
              maxLength={1000}
              required={addressRequired}
              aria-invalid={missing(address, addressRequired)}
            />
          </label>
          <label className="shop-field">
            <span>Notas (opcional)</span>
            <textarea value={notes} onChange={(e) => setNotes(e.target.value)} rows={2} maxLength={1000} />
          </label>
          {shownError && (
            <p className="shop-form__error" role="alert">
              {shownError}
            </p>
          )}
          <button type="submit" className="shop-button shop-button--primary shop-button--block" disabled={mutation.isPending || lines.length === 0}>
            {mutation.isPending ? 'Enviando pedido…' : 'Confirmar pedido por WhatsApp'}
          </button>
          <p className="shop-muted shop-checkout__hint">Al confirmar, se abrirá WhatsApp con el detalle de tu pedido para enviarlo a la tienda.</p>
        </form>
      )}
    </Dialog>
  );
}
