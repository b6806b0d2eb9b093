import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { AuthMessages, BUSINESS_TYPES, DEPARTMENTS, RegisterRequest, businessTypePresets, deriveSubdomain } from '@tiendita/contracts';
import { AuthLayout } from '../components/auth-layout';
import { PasswordField, SelectField, TextAreaField, TextField } from '../../../components/form/fields';
import { ArrowLeftIcon, ArrowRightIcon } from '../../../components/icons';
import { toast } from '../../../components/toast/toast-store';
import { readApiError } from '../../../lib/api';
import { firstErrorPerField, focusFirstInvalid, type FieldErrors } from '../../../lib/form-errors';
import { ToastMessages } from '../../../lib/messages';
import { PUBLIC_PATHS } from '../../../app/paths';
import { useRegister } from '../api/register';

const PersonalInfo = RegisterRequest.pick({ firstName: true, lastName: true, email: true, password: true });
const PERSONAL_FIELDS = Object.keys(PersonalInfo.shape);

const EMPTY = {
  firstName: '',
  lastName: '',
  email: '',
  password: '',
  storeName: '',
  subdomain: '',
  businessType: '',
  storeDescription: '',
  storePhone: '',
  whatsappNumber: '',
  storeDepartment: '',
  storeAddress: '',
};
type Values = typeof EMPTY;

const BUSINESS_TYPE_OPTIONS = BUSINESS_TYPES.map((b) => ({ value: b.value, label: b.label }));

/** 'Granos Básicos, Lácteos, Bebidas y Limpieza': the chosen type's preset categories, offered later in the product form. */
function presetHint(businessType: string): string | undefined {
  const presets = businessTypePresets(businessType);
  if (presets.length === 0) return undefined;
  const list = presets.length > 1 ? `${presets.slice(0, -1).join(', ')} y ${presets[presets.length - 1]}` : presets[0];
  return `Categorías sugeridas: ${list}. Podrás crearlas con un clic al agregar tus productos.`;
}
const DEPARTMENT_OPTIONS = DEPARTMENTS.map((d) => ({ value: d, label: d }));

/** Messages the server answers for a field of this form without naming the field. */
const SERVER_FIELD_MESSAGES: Record<string, keyof Values> = {
  [AuthMessages.emailTaken]: 'email',
  [AuthMessages.subdomainTaken]: 'subdomain',
  [AuthMessages.subdomainReserved]: 'subdomain',
};

/** /register: step 1 personal information, step 2 the business; success goes to /login. */
export function RegisterPage() {
  const [step, setStep] = useState<1 | 2>(1);
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [subdomainEdited, setSubdomainEdited] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const firstStepChange = useRef(true);
  const register = useRegister();
  const navigate = useNavigate();

  // Moving between steps puts the keyboard on the first field of the step now shown.
  useEffect(() => {
    if (firstStepChange.current) {
      firstStepChange.current = false;
      return;
    }
    formRef.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, [step]);

  const set = (field: keyof Values) => (value: string) => {
    setValues((v) => {
      const next = { ...v, [field]: value };
      if (field === 'storeName' && !subdomainEdited) next.subdomain = deriveSubdomain(value);
      return next;
    });
    setErrors((e) => ({ ...e, [field]: undefined, ...(field === 'storeName' && !subdomainEdited ? { subdomain: undefined } : {}) }));
    if (field === 'subdomain') setSubdomainEdited(value !== '');
  };

  const showErrors = (next: FieldErrors) => {
    setErrors(next);
    focusFirstInvalid(formRef.current);
  };

  const onContinue = () => {
    const parsed = PersonalInfo.safeParse(values);
    if (!parsed.success) return showErrors(firstErrorPerField(parsed.error));
    setErrors({});
    setStep(2);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (step === 1) return onContinue();
    const parsed = RegisterRequest.safeParse(values);
    if (!parsed.success) {
      const fieldErrors = firstErrorPerField(parsed.error);
      if (Object.keys(fieldErrors).some((f) => PERSONAL_FIELDS.includes(f))) setStep(1);
      return showErrors(fieldErrors);
    }
    register.mutate(parsed.data, {
      onSuccess: () => {
        toast(ToastMessages.registerSucceeded);
        // The login form starts with the e-mail just registered.
        navigate(PUBLIC_PATHS.login, { state: { email: parsed.data.email } });
      },
      onError: (error) => {
        const info = readApiError(error);
        const fieldErrors: FieldErrors = { ...info.fields };
        const namedField = info.message ? SERVER_FIELD_MESSAGES[info.message] : undefined;
        if (namedField && info.message) fieldErrors[namedField] = info.message;
        toast({ title: ToastMessages.registerFailed.title, description: info.message ?? ToastMessages.registerFailed.fallback, variant: 'destructive' });
        if (Object.keys(fieldErrors).some((f) => PERSONAL_FIELDS.includes(f))) setStep(1);
        showErrors(fieldErrors);
      },
    });
  };

  return (
    <AuthLayout wide>
      <h1 className="auth__title">Crea tu cuenta</h1>
      <p className="auth__subtitle">Registra tu cuenta y tu tienda en dos pasos.</p>
      <ol className="steps" aria-label="Progreso del registro">
        <li data-state={step === 1 ? 'current' : 'done'} aria-current={step === 1 ? 'step' : undefined}>
          1. Información personal
        </li>
        <li data-state={step === 2 ? 'current' : 'todo'} aria-current={step === 2 ? 'step' : undefined}>
          2. Información del negocio
        </li>
      </ol>
      <form ref={formRef} onSubmit={onSubmit} noValidate aria-label={step === 1 ? 'Información personal' : 'Información del negocio'}>
        {step === 1 ? (
          <>
            <div className="auth__grid auth__grid--2">
              <TextField label="Nombre" name="firstName" autoComplete="given-name" value={values.firstName} error={errors.firstName} onValueChange={set('firstName')} />
              <TextField label="Apellido" name="lastName" autoComplete="family-name" value={values.lastName} error={errors.lastName} onValueChange={set('lastName')} />
            </div>
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
              autoComplete="new-password"
              hint="Mínimo 6 caracteres."
              value={values.password}
              error={errors.password}
              onValueChange={set('password')}
            />
            <div className="auth__actions">
              <button type="submit" className="btn btn--primary btn--lg">
                Continuar
                <ArrowRightIcon size={18} />
              </button>
            </div>
          </>
        ) : (
          <>
            <TextField
              label="Nombre de la tienda"
              name="storeName"
              autoComplete="organization"
              placeholder="Ej. Ferretería El Martillo"
              value={values.storeName}
              error={errors.storeName}
              onValueChange={set('storeName')}
            />
            <TextField
              label="Subdominio"
              name="subdomain"
              prefix="tienda/"
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              hint="Solo letras minúsculas, números y guiones. Se llena solo con el nombre de la tienda y puedes cambiarlo."
              value={values.subdomain}
              error={errors.subdomain}
              onValueChange={set('subdomain')}
            />
            <p className="address-preview" aria-live="polite">
              Tu tienda estará en: <strong>tienda/{values.subdomain || 'tu-tienda'}</strong>
            </p>
            <SelectField
              label="Tipo de negocio"
              name="businessType"
              placeholder="Selecciona el tipo de negocio"
              options={BUSINESS_TYPE_OPTIONS}
              value={values.businessType}
              error={errors.businessType}
              hint={presetHint(values.businessType)}
              onValueChange={set('businessType')}
            />
            <TextAreaField
              label="Descripción"
              name="storeDescription"
              optional
              rows={3}
              placeholder="Cuéntales a tus clientes qué vendes"
              value={values.storeDescription}
              error={errors.storeDescription}
              onValueChange={set('storeDescription')}
            />
            <div className="auth__grid auth__grid--2">
              <TextField
                label="Teléfono de la tienda"
                name="storePhone"
                type="tel"
                optional
                autoComplete="tel"
                placeholder="Ej. 2222-3333"
                value={values.storePhone}
                error={errors.storePhone}
                onValueChange={set('storePhone')}
              />
              <TextField
                label="WhatsApp"
                name="whatsappNumber"
                type="tel"
                optional
                placeholder="Ej. 5555-1234"
                value={values.whatsappNumber}
                error={errors.whatsappNumber}
                onValueChange={set('whatsappNumber')}
              />
            </div>
            <SelectField
              label="Departamento"
              name="storeDepartment"
              placeholder="Selecciona el departamento"
              options={DEPARTMENT_OPTIONS}
              value={values.storeDepartment}
              error={errors.storeDepartment}
              onValueChange={set('storeDepartment')}
            />
            <TextField
              label="Dirección completa"
              name="storeAddress"
              optional
              autoComplete="street-address"
              placeholder="Ej. 5a avenida 3-20, zona 1"
              value={values.storeAddress}
              error={errors.storeAddress}
              onValueChange={set('storeAddress')}
            />
            <div className="auth__actions">
              <button type="button" className="btn btn--outline btn--lg" onClick={() => setStep(1)} disabled={register.isPending}>
                <ArrowLeftIcon size={18} />
                Atrás
              </button>
              <button type="submit" className="btn btn--primary btn--lg" disabled={register.isPending}>
                {register.isPending ? 'Creando cuenta...' : 'Crear cuenta'}
              </button>
            </div>
          </>
        )}
      </form>
      <p className="auth__footer">
        ¿Ya tienes cuenta? <Link to={PUBLIC_PATHS.login}>Inicia sesión aquí</Link>
      </p>
    </AuthLayout>
  );
}
