import { useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { AuthMessages, LoginRequest } from '@tiendita/contracts';
import { AuthLayout } from '../components/auth-layout';
import { PasswordField, TextField } from '../../../components/form/fields';
import { toast, toastAcrossReload } from '../../../components/toast/toast-store';
import { readApiError } from '../../../lib/api';
import { firstErrorPerField, focusFirstInvalid, type FieldErrors } from '../../../lib/form-errors';
import { LOGIN_REDIRECT_DELAY_MS, ToastMessages } from '../../../lib/messages';
import { nextPathFrom, PUBLIC_PATHS } from '../../../app/paths';
import { useLogin } from '../api/login';

/**
 * /login: email and password; success toasts and reloads after about 100 ms into the owner page a
 * signed-out visit asked for (?next=), else /dashboard. Coming from registration, the e-mail is filled in.
 */
export function LoginPage() {
  const location = useLocation();
  const carried = (location.state as { email?: unknown } | null)?.email;
  const [values, setValues] = useState({ email: typeof carried === 'string' ? carried : '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  const login = useLogin();

  const set = (field: keyof typeof values) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = LoginRequest.safeParse(values);
    if (!parsed.success) {
      setErrors(firstErrorPerField(parsed.error));
      focusFirstInvalid(formRef.current);
      return;
    }
    login.mutate(parsed.data, {
      onSuccess: () => {
        toastAcrossReload(ToastMessages.loginSucceeded);
        const target = nextPathFrom(location.search) ?? '/dashboard';
        setTimeout(() => window.location.assign(target), LOGIN_REDIRECT_DELAY_MS);
      },
      onError: (error) => {
        const info = readApiError(error);
        setErrors(info.fields);
        toast({ title: ToastMessages.loginFailed.title, description: info.message ?? AuthMessages.invalidCredentials, variant: 'destructive' });
      },
    });
  };

  const pending = login.isPending || login.isSuccess;
  return (
    <AuthLayout>
      <h1 className="auth__title">Iniciar Sesión</h1>
      <p className="auth__subtitle">Ingresa a tu cuenta para administrar tu tienda.</p>
      <form ref={formRef} onSubmit={onSubmit} noValidate aria-label="Iniciar sesión">
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          placeholder="tu@correo.com"
          value={values.email}
          error={errors.email}
          onValueChange={set('email')}
        />
        <PasswordField
          label="Contraseña"
          name="password"
          autoComplete="current-password"
          placeholder="Tu contraseña"
          value={values.password}
          error={errors.password}
          onValueChange={set('password')}
        />
        <div className="auth__row">
          <Link to={PUBLIC_PATHS.forgotPassword}>¿Olvidaste tu contraseña?</Link>
        </div>
        <button type="submit" className="btn btn--primary btn--block btn--lg" disabled={pending}>
          {pending ? 'Iniciando Sesión...' : 'Iniciar Sesión'}
        </button>
      </form>
      <p className="auth__footer">
        ¿No tienes cuenta? <Link to={PUBLIC_PATHS.register}>Regístrate aquí</Link>
      </p>
    </AuthLayout>
  );
}
