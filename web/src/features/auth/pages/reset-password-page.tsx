import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AuthMessages, ResetPasswordRequest, passwordStrength } from '@tiendita/contracts';
import { AuthLayout } from '../components/auth-layout';
import { PasswordField } from '../../../components/form/fields';
import { AlertIcon, CheckCircleIcon } from '../../../components/icons';
import { toast } from '../../../components/toast/toast-store';
import { readApiError } from '../../../lib/api';
import { firstErrorPerField, focusFirstInvalid, type FieldErrors } from '../../../lib/form-errors';
import { ToastMessages } from '../../../lib/messages';
import { PUBLIC_PATHS } from '../../../app/paths';
import { useResetPassword } from '../api/reset-password';

type ResetState = 'form' | 'invalid' | 'done';

/** /reset-password?token=…: the form, the invalid-token card, or the done confirmation. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const [state, setState] = useState<ResetState>('form');
  const [values, setValues] = useState({ password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const reset = useResetPassword();

  useEffect(() => {
    if (token) return;
    toast({ title: ToastMessages.invalidResetToken.title, description: AuthMessages.invalidResetToken, variant: 'destructive' });
    navigate(PUBLIC_PATHS.forgotPassword, { replace: true });
  }, [token, navigate]);

  useEffect(() => {
    if (state !== 'form') headingRef.current?.focus();
  }, [state]);

  if (!token) return null;

  const set = (field: keyof typeof values) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ResetPasswordRequest.safeParse({ token, ...values });
    if (!parsed.success) {
      setErrors(firstErrorPerField(parsed.error));
      focusFirstInvalid(formRef.current);
      return;
    }
    reset.mutate(parsed.data, {
      onSuccess: () => {
        toast({ title: ToastMessages.resetSucceeded.title, description: AuthMessages.passwordChanged });
        setState('done');
      },
      onError: (error) => {
        const info = readApiError(error);
        if (info.message === AuthMessages.invalidResetToken || info.fields.token) {
          toast({ title: ToastMessages.invalidResetToken.title, description: AuthMessages.invalidResetToken, variant: 'destructive' });
          setState('invalid');
          return;
        }
        setErrors(info.fields);
        toast({ title: ToastMessages.resetFailed.title, description: info.message ?? ToastMessages.resetFailed.fallback, variant: 'destructive' });
      },
    });
  };

  if (state === 'invalid') {
    return (
      <AuthLayout>
        <div className="auth__state">
          <span className="auth__state-icon auth__state-icon--error">
            <AlertIcon size={30} />
          </span>
          <h1 className="auth__title" ref={headingRef} tabIndex={-1}>
            Enlace no válido
          </h1>
          <p className="auth__subtitle">{AuthMessages.invalidResetToken} Solicita uno nuevo para cambiar tu contraseña.</p>
          <Link className="btn btn--primary btn--block btn--lg" to={PUBLIC_PATHS.forgotPassword}>
            Solicitar un nuevo enlace
          </Link>
        </div>
      </AuthLayout>
    );
  }

  if (state === 'done') {
    return (
      <AuthLayout>
        <div className="auth__state">
          <span className="auth__state-icon auth__state-icon--ok">
            <CheckCircleIcon size={30} />
          </span>
          <h1 className="auth__title" ref={headingRef} tabIndex={-1}>
            ¡Contraseña actualizada!
          </h1>
          <p className="auth__subtitle">{AuthMessages.passwordChanged}</p>
          <Link className="btn btn--primary btn--block btn--lg" to={PUBLIC_PATHS.login}>
            Iniciar Sesión
          </Link>
        </div>
      </AuthLayout>
    );
  }

  const strength = passwordStrength(values.password);
  return (
    <AuthLayout>
      <h1 className="auth__title">Crea una nueva contraseña</h1>
      <p className="auth__subtitle">Usa al menos 6 caracteres, con una mayúscula y un número.</p>
      <form ref={formRef} onSubmit={onSubmit} noValidate aria-label="Restablecer contraseña">
        <PasswordField
          label="Nueva contraseña"
          name="password"
          autoComplete="new-password"
          toggleName="contraseña"
          value={values.password}
          error={errors.password}
          onValueChange={set('password')}
        >
          {values.password ? (
            <div className="strength" data-level={strength.label}>
              <div
                className="strength__bar"
                role="meter"
                aria-label="Seguridad de la contraseña"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={strength.percent}
                aria-valuetext={strength.label}
              >
                <div className="strength__fill" style={{ width: `${strength.percent}%` }} />
              </div>
              <span className="strength__label">
                Seguridad: <strong>{strength.label}</strong>
              </span>
            </div>
          ) : null}
        </PasswordField>
        <PasswordField
          label="Confirmar contraseña"
          name="confirmPassword"
          autoComplete="new-password"
          toggleName="confirmación"
          value={values.confirmPassword}
          error={errors.confirmPassword}
          onValueChange={set('confirmPassword')}
        />
        <button type="submit" className="btn btn--primary btn--block btn--lg" disabled={reset.isPending}>
          {reset.isPending ? 'Cambiando contraseña...' : 'Cambiar contraseña'}
        </button>
      </form>
      <p className="auth__note">Por tu seguridad, el enlace de recuperación expira en 1 hora.</p>
      <p className="auth__footer">
        <Link to={PUBLIC_PATHS.login}>Volver al inicio de sesión</Link>
      </p>
    </AuthLayout>
  );
}
