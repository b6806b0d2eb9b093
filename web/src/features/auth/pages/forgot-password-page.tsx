import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { AuthMessages, ForgotPasswordRequest } from '@tiendita/contracts';
import { AuthLayout } from '../components/auth-layout';
import { TextField } from '../../../components/form/fields';
import { ArrowLeftIcon, MailIcon } from '../../../components/icons';
import { toast } from '../../../components/toast/toast-store';
import { readApiError } from '../../../lib/api';
import { firstErrorPerField, focusFirstInvalid, type FieldErrors } from '../../../lib/form-errors';
import { ToastMessages } from '../../../lib/messages';
import { PUBLIC_PATHS } from '../../../app/paths';
import { useForgotPassword } from '../api/forgot-password';

/** /forgot-password: the email form, then the sent view; 'Enviar otro correo' returns to the form. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [sentTo, setSentTo] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const forgot = useForgotPassword();

  useEffect(() => {
    if (sentTo) headingRef.current?.focus();
  }, [sentTo]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ForgotPasswordRequest.safeParse({ email });
    if (!parsed.success) {
      setErrors(firstErrorPerField(parsed.error));
      focusFirstInvalid(formRef.current);
      return;
    }
    forgot.mutate(parsed.data, {
      onSuccess: () => {
        toast({ title: ToastMessages.forgotSucceeded.title, description: AuthMessages.forgotPasswordSent });
        setSentTo(parsed.data.email);
      },
      onError: (error) => {
        const info = readApiError(error);
        setErrors(info.fields);
        toast({ title: ToastMessages.forgotFailed.title, description: info.message ?? ToastMessages.forgotFailed.fallback, variant: 'destructive' });
      },
    });
  };

  if (sentTo) {
    return (
      <AuthLayout>
        <div className="auth__state">
          <span className="auth__state-icon auth__state-icon--info">
            <MailIcon size={30} />
          </span>
          <h1 className="auth__title" ref={headingRef} tabIndex={-1}>
            Revisa tu correo
          </h1>
          <p className="auth__subtitle">
            Si <strong>{sentTo}</strong> tiene una cuenta en Tiendita, te enviamos un enlace para crear una nueva contraseña. El enlace expira en 1 hora.
          </p>
          <div className="auth__actions auth__actions--stack">
            <Link className="btn btn--primary btn--lg" to={PUBLIC_PATHS.login}>
              Volver al inicio de sesión
            </Link>
            <button
              type="button"
              className="btn btn--outline btn--lg"
              onClick={() => {
                forgot.reset();
                setSentTo(null);
              }}
            >
              Enviar otro correo
            </button>
          </div>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout>
      <h1 className="auth__title">¿Olvidaste tu contraseña?</h1>
      <p className="auth__subtitle">Escribe el email de tu cuenta y te enviaremos un enlace para crear una nueva contraseña.</p>
      <form ref={formRef} onSubmit={onSubmit} noValidate aria-label="Recuperar contraseña">
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          placeholder="tu@correo.com"
          value={email}
          error={errors.email}
          onValueChange={(value) => {
            setEmail(value);
            setErrors({});
          }}
        />
        <button type="submit" className="btn btn--primary btn--block btn--lg" disabled={forgot.isPending}>
          {forgot.isPending ? 'Enviando...' : 'Enviar enlace de recuperación'}
        </button>
      </form>
      <p className="auth__footer">
        <Link to={PUBLIC_PATHS.login}>
          <ArrowLeftIcon size={16} style={{ display: 'inline', verticalAlign: '-3px', marginRight: 4 }} />
          Volver al inicio de sesión
        </Link>
      </p>
    </AuthLayout>
  );
}
