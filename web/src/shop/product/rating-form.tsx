import { useState, type FormEvent } from 'react';
import { StarInput } from '../components/stars';
import { useSubmitRating } from '../api/submit-rating';
import { ShopMessages } from '../lib/messages';
import { toast } from '../../components/toast/toast-store';

/**
 * The review form. On the product page a missing name answers 'Por favor ingresa tu nombre.'; in the
 * detail dialog the button stays disabled until the stars and the name are there, and a submit that gets
 * through anyway answers 'Por favor completa todos los campos requeridos.' (spec 001 §5). A failed send
 * toasts 'No se pudo enviar la calificación. Inténtalo de nuevo.' on the page and 'No se pudo enviar tu
 * reseña. Inténtalo de nuevo.' in the dialog (spec 001 §8).
 */
export function RatingForm({ productId, variant }: { productId: string; variant: 'page' | 'dialog' }) {
  // Under the product's name: h1 on its page, h3 in the dialog.
  const Title = variant === 'page' ? 'h2' : 'h4';
  const [rating, setRating] = useState(5);
  const [customerName, setCustomerName] = useState('');
  const [customerEmail, setCustomerEmail] = useState('');
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const mutation = useSubmitRating(productId);
  const complete = customerName.trim() !== '' && rating >= 1 && rating <= 5;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!complete) {
      setError(variant === 'dialog' ? ShopMessages.ratingFieldsRequired : ShopMessages.ratingNameRequired);
      return;
    }
    setError(null);
    mutation.mutate(
      { rating, customerName: customerName.trim(), customerEmail: customerEmail.trim() || undefined, comment: comment.trim() || undefined },
      {
        onSuccess: () => {
          setSent(true);
          setCustomerName('');
          setCustomerEmail('');
          setComment('');
          setRating(5);
          toast({ title: 'Calificación enviada', description: ShopMessages.ratingPending });
        },
        onError: () => toast({ title: 'Error', description: variant === 'dialog' ? ShopMessages.reviewFailed : ShopMessages.ratingFailed, variant: 'destructive' }),
      },
    );
  };

  return (
    <form className="shop-form" onSubmit={onSubmit} noValidate>
      <Title className="shop-form__title">Califica este producto</Title>
      <StarInput value={rating} onChange={setRating} label="Tu calificación" />
      <label className="shop-field">
        <span>Nombre *</span>
        <input value={customerName} onChange={(e) => setCustomerName(e.target.value)} autoComplete="name" maxLength={255} required />
      </label>
      <label className="shop-field">
        <span>Correo electrónico (opcional)</span>
        <input type="email" value={customerEmail} onChange={(e) => setCustomerEmail(e.target.value)} autoComplete="email" maxLength={255} />
      </label>
      <label className="shop-field">
        <span>Comentario (opcional)</span>
        <textarea value={comment} onChange={(e) => setComment(e.target.value)} rows={3} maxLength={2000} />
      </label>
      {error && (
        <p className="shop-form__error" role="alert">
          {error}
        </p>
      )}
      {sent && !error && (
        <p className="shop-form__ok" role="status">
          {ShopMessages.ratingPending}
        </p>
      )}
      <button type="submit" className="shop-button shop-button--primary" disabled={mutation.isPending || (variant === 'dialog' && !complete)}>
        {mutation.isPending ? 'Enviando…' : 'Enviar calificación'}
      </button>
    </form>
  );
}
