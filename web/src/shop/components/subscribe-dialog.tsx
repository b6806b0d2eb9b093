import { useState, type FormEvent } from 'react';
import { useSubscribe } from '../api/subscribe';
import { ALREADY_SUBSCRIBED, SubscriptionMessages, type PublicStoreView } from '../lib/contracts';
import { toast } from '../../components/toast/toast-store';
import { Dialog } from './dialog';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What a failed subscribe said: the 409 of an address already subscribed, else the generic failure. */
function failureOf(error: unknown): { message: string; code: string | null } {
  const match = error instanceof Error ? /^(\d{3}): ([\s\S]*)$/.exec(error.message) : null;
  let body: { message?: unknown; code?: unknown } = {};
  try {
    body = match ? (JSON.parse(match[2]) as typeof body) : {};
  } catch {
    body = {};
  }
  const code = typeof body.code === 'string' ? body.code : null;
  if (code === ALREADY_SUBSCRIBED || body.message === 'Email already subscribed') return { message: SubscriptionMessages.alreadySubscribed, code: ALREADY_SUBSCRIBED };
  // A 400 carries a Spanish rule the shopper can fix (e.g. 'Email inválido'); anything else is the generic text.
  if (match?.[1] === '400' && typeof body.message === 'string') return { message: body.message, code };
  return { message: SubscriptionMessages.failed, code };
}

/** Subscribe to the store's offers: name, email, optional phone; Google and Facebook are coming soon. */
export function SubscribeDialog({ store, open, onClose }: { store: PublicStoreView; open: boolean; onClose: () => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const mutation = useSubscribe(store.subdomain);

  const close = () => {
    setError(null);
    setDone(false);
    onClose();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || !email.trim()) {
      setError(SubscriptionMessages.required);
      return;
    }
    if (!EMAIL.test(email.trim())) {
      setError('Email inválido');
      return;
    }
    setError(null);
    mutation.mutate(
      { name: name.trim(), email: email.trim(), phone: phone.trim() || undefined, provider: 'email' },
      {
        onSuccess: () => {
          setDone(true);
          setName('');
          setEmail('');
          setPhone('');
          toast({ title: SubscriptionMessages.success, description: SubscriptionMessages.successDescription });
        },
        onError: (failure) => {
          const { message } = failureOf(failure);
          setError(message);
          toast({ title: 'Error', description: message, variant: 'destructive' });
        },
      },
    );
  };

  const soon = (provider: 'google' | 'facebook') =>
    toast({ title: 'Próximamente', description: provider === 'google' ? SubscriptionMessages.googleSoon : SubscriptionMessages.facebookSoon });

  return (
    <Dialog open={open} onClose={close} title={`Suscríbete a ${store.name}`}>
      {done ? (
        <div className="shop-subscribe__done" role="status">
          <p className="shop-form__ok">{SubscriptionMessages.success}</p>
          <p className="shop-muted">{SubscriptionMessages.successDescription}</p>
          <button type="button" className="shop-button shop-button--primary shop-button--block" onClick={close}>
            Seguir comprando
          </button>
        </div>
      ) : (
        <form className="shop-form" onSubmit={onSubmit} noValidate>
          <p className="shop-muted">Recibe las ofertas y novedades de la tienda en tu correo.</p>
          <label className="shop-field">
            <span>Nombre *</span>
            <input value={name} onChange={(e) => { setName(e.target.value); setError(null); }} autoComplete="name" maxLength={255} required />
          </label>
          <label className="shop-field">
            <span>Correo electrónico *</span>
            <input type="email" value={email} onChange={(e) => { setEmail(e.target.value); setError(null); }} autoComplete="email" maxLength={255} required />
          </label>
          <label className="shop-field">
            <span>Teléfono (opcional)</span>
            <input type="tel" value={phone} onChange={(e) => { setPhone(e.target.value); setError(null); }} autoComplete="tel" maxLength={20} />
          </label>
          {error && (
            <p className="shop-form__error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="shop-button shop-button--primary shop-button--block" disabled={mutation.isPending}>
            {mutation.isPending ? 'Suscribiendo…' : 'Suscribirme'}
          </button>
          <div className="shop-subscribe__social">
            <button type="button" className="shop-button shop-button--block" aria-disabled="true" onClick={() => soon('google')}>
              Google <span className="shop-subscribe__soon">Próximamente</span>
            </button>
            <button type="button" className="shop-button shop-button--block" aria-disabled="true" onClick={() => soon('facebook')}>
              Facebook <span className="shop-subscribe__soon">Próximamente</span>
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
