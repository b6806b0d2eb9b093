import { useState, type FormEvent } from 'react';
import { useSubmitComment } from '../api/submit-comment';
import { ShopMessages } from '../lib/messages';
import { toast } from '../../components/toast/toast-store';

/** The comment form: name and comment are required ('Por favor completa tu nombre y comentario.'). */
export function CommentForm({ productId, variant = 'dialog' }: { productId: string; variant?: 'page' | 'dialog' }) {
  // Under the product's name: h1 on its page, h3 in the dialog.
  const Title = variant === 'page' ? 'h2' : 'h4';
  const [customerName, setCustomerName] = useState('');
  const [customerEmail, setCustomerEmail] = useState('');
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const mutation = useSubmitComment(productId);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!customerName.trim() || !comment.trim()) {
      setError(ShopMessages.commentRequired);
      return;
    }
    setError(null);
    mutation.mutate(
      { customerName: customerName.trim(), comment: comment.trim(), customerEmail: customerEmail.trim() || undefined },
      {
        onSuccess: () => {
          setSent(true);
          setCustomerName('');
          setCustomerEmail('');
          setComment('');
          toast({ title: 'Comentario enviado', description: ShopMessages.commentPending });
        },
        onError: () => toast({ title: 'Error', description: ShopMessages.commentFailed, variant: 'destructive' }),
      },
    );
  };

  return (
    <form className="shop-form" onSubmit={onSubmit} noValidate>
      <Title className="shop-form__title">Deja un comentario</Title>
      <label className="shop-field">
        <span>Nombre *</span>
        <input value={customerName} onChange={(e) => setCustomerName(e.target.value)} autoComplete="name" maxLength={255} required />
      </label>
      <label className="shop-field">
        <span>Correo electrónico (opcional)</span>
        <input type="email" value={customerEmail} onChange={(e) => setCustomerEmail(e.target.value)} autoComplete="email" maxLength={255} />
      </label>
      <label className="shop-field">
        <span>Comentario *</span>
        <textarea value={comment} onChange={(e) => setComment(e.target.value)} rows={3} maxLength={2000} required />
      </label>
      {error && (
        <p className="shop-form__error" role="alert">
          {error}
        </p>
      )}
      {sent && !error && (
        <p className="shop-form__ok" role="status">
          {ShopMessages.commentPending}
        </p>
      )}
      <button type="submit" className="shop-button shop-button--primary" disabled={mutation.isPending}>
        {mutation.isPending ? 'Enviando…' : 'Enviar comentario'}
      </button>
    </form>
  );
}
