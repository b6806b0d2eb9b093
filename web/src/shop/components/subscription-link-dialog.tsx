import { useSubscriptionLink, type SubscriptionLinkAction } from '../api/subscription-link';
import { serverMessage } from '../lib/api-error';
import { SubscriptionMessages, type PublicStoreView } from '../lib/contracts';
import { Dialog } from './dialog';

/**
 * The page a subscription mail's link opens: the store's shop with this dialog over it. Opening the
 * link changes nothing (mail scanners open links too); the shopper's press of the button does.
 */
export function SubscriptionLinkDialog({ store, action, token, onClose }: { store: PublicStoreView; action: SubscriptionLinkAction; token: string; onClose: () => void }) {
  const mutation = useSubscriptionLink(action, token);
  const confirming = action === 'confirmar';
  const error = mutation.isError ? (serverMessage(mutation.error) ?? SubscriptionMessages.failed) : null;
  return (
    <Dialog open onClose={onClose} title={confirming ? SubscriptionMessages.confirmTitle : SubscriptionMessages.unsubscribeTitle}>
      {mutation.isSuccess ? (
        <div role="status">
          <p className="shop-form__ok">{mutation.data.message}</p>
          <button type="button" className="shop-button shop-button--primary shop-button--block" onClick={onClose}>
            Ver la tienda
          </button>
        </div>
      ) : (
        <div>
          <p>
            {confirming ? 'Confirma que quieres recibir por correo las ofertas y novedades de ' : 'Deja de recibir por correo las ofertas y novedades de '}
            <strong>{store.name}</strong>.
          </p>
          {error && (
            <p className="shop-form__error" role="alert">
              {error}
            </p>
          )}
          <button type="button" className="shop-button shop-button--primary shop-button--block" disabled={mutation.isPending} onClick={() => mutation.mutate()}>
            {mutation.isPending ? 'Un momento…' : confirming ? SubscriptionMessages.confirmButton : SubscriptionMessages.unsubscribeButton}
          </button>
        </div>
      )}
    </Dialog>
  );
}
