import { z } from 'zod';
import { BUSINESS_TYPE_VALUES, DEPARTMENTS } from './store-constants';

/** Spanish messages of spec 000 section 5, word for word. */
export const AuthMessages = {
  invalidEmail: 'Email inválido',
  passwordMin: 'La contraseña debe tener al menos 6 caracteres',
  passwordRequired: 'La contraseña es requerida',
  passwordUppercase: 'Debe contener al menos una mayúscula',
  passwordDigit: 'Debe contener al menos un número',
  confirmRequired: 'Confirma tu contraseña',
  passwordsDiffer: 'Las contraseñas no coinciden',
  firstNameRequired: 'El nombre es requerido',
  lastNameRequired: 'El apellido es requerido',
  firstNameTooLong: 'El nombre no puede tener más de 100 caracteres',
  lastNameTooLong: 'El apellido no puede tener más de 100 caracteres',
  storeNameRequired: 'El nombre de la tienda es requerido',
  businessTypeRequired: 'El tipo de negocio es requerido',
  subdomainMin: 'El subdominio debe tener al menos 3 caracteres',
  subdomainMax: 'El subdominio no puede tener más de 50 caracteres',
  subdomainChars: 'Solo letras minúsculas, números y guiones',
  subdomainReserved: 'Ese subdominio está reservado, elige otro',
  subdomainTaken: 'Ese subdominio ya está en uso',
  emailTaken: 'Ya existe una cuenta con ese email',
  departmentRequired: 'El departamento es requerido',
  invalidCredentials: 'Email o contraseña incorrectos',
  invalidResetToken: 'El enlace de recuperación no es válido o ha expirado.',
  tooManyRequests: 'Demasiados intentos. Espera unos minutos e inténtalo de nuevo.',
  notAuthenticated: 'No autenticado',
  forgotPasswordSent: 'Si el email está registrado, te enviamos un enlace para restablecer tu contraseña.',
  passwordChanged: 'Tu contraseña fue actualizada. Ya puedes iniciar sesión.',
  currentPasswordWrong: 'La contraseña actual no es correcta',
  passwordUpdated: 'Tu contraseña fue actualizada. Las demás sesiones se cerraron.',
  otherSessionsEnded: 'Se cerró la sesión en los demás dispositivos.',
} as const;

const email = z.string({ error: AuthMessages.invalidEmail }).trim().toLowerCase().max(255, AuthMessages.invalidEmail).pipe(z.email({ error: AuthMessages.invalidEmail }));
const optionalText = (max: number) => z.string().trim().max(max).optional().or(z.literal('').transform(() => undefined));

export const SubdomainSchema = z
  .string({ error: AuthMessages.subdomainMin })
  .min(3, AuthMessages.subdomainMin)
  .max(50, AuthMessages.subdomainMax)
  .regex(/^[a-z0-9-]+$/, AuthMessages.subdomainChars);

/** The owner's first and last name (spec 000 §5: required, at most 100 characters each). */
const FirstName = z.string({ error: AuthMessages.firstNameRequired }).trim().min(1, AuthMessages.firstNameRequired).max(100, AuthMessages.firstNameTooLong);
const LastName = z.string({ error: AuthMessages.lastNameRequired }).trim().min(1, AuthMessages.lastNameRequired).max(100, AuthMessages.lastNameTooLong);

/** POST /api/auth/register: the account and its store in one payload. */
export const RegisterRequest = z.object({
  firstName: FirstName,
  lastName: LastName,
  email,
  password: z.string({ error: AuthMessages.passwordMin }).min(6, AuthMessages.passwordMin).max(200),
  storeName: z.string({ error: AuthMessages.storeNameRequired }).trim().min(1, AuthMessages.storeNameRequired).max(255),
  subdomain: SubdomainSchema,
  businessType: z.enum(BUSINESS_TYPE_VALUES, { error: AuthMessages.businessTypeRequired }),
  storeDescription: optionalText(2000),
  storePhone: optionalText(20),
  whatsappNumber: optionalText(20),
  storeDepartment: z.enum(DEPARTMENTS, { error: AuthMessages.departmentRequired }),
  storeAddress: optionalText(500),
});
export type RegisterRequest = z.infer<typeof RegisterRequest>;

export const LoginRequest = z.object({
  email,
  password: z.string({ error: AuthMessages.passwordRequired }).min(1, AuthMessages.passwordRequired),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const ForgotPasswordRequest = z.object({ email });
export type ForgotPasswordRequest = z.infer<typeof ForgotPasswordRequest>;

/** The new-password rules of the reset screen: at least 6, one uppercase, one digit. */
export const NewPassword = z
  .string({ error: AuthMessages.passwordMin })
  .min(6, AuthMessages.passwordMin)
  .max(200)
  .regex(/[A-Z]/, AuthMessages.passwordUppercase)
  .regex(/[0-9]/, AuthMessages.passwordDigit);

export const ResetPasswordRequest = z
  .object({
    token: z.string({ error: AuthMessages.invalidResetToken }).min(1, AuthMessages.invalidResetToken),
    password: NewPassword,
    confirmPassword: z.string({ error: AuthMessages.confirmRequired }).min(1, AuthMessages.confirmRequired),
  })
  .refine((v) => v.password === v.confirmPassword, { message: AuthMessages.passwordsDiffer, path: ['confirmPassword'] });
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequest>;

/** POST /api/auth/change-password (the profile page): the current password, and a new one with the reset's rules. */
export const ChangePasswordRequest = z.object({
  currentPassword: z.string({ error: AuthMessages.passwordRequired }).min(1, AuthMessages.passwordRequired).max(200),
  newPassword: NewPassword,
});
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;

/** The profile page's form: the request and its confirmation, which must match. */
export const ChangePasswordForm = ChangePasswordRequest.extend({
  confirmPassword: z.string({ error: AuthMessages.confirmRequired }).min(1, AuthMessages.confirmRequired),
}).refine((v) => v.newPassword === v.confirmPassword, {
  message: AuthMessages.passwordsDiffer,
  path: ['confirmPassword'],
  // Said beside the confirmation even while another field is still wrong (both typed).
  when: ({ value }) => {
    const v = value as { newPassword?: unknown; confirmPassword?: unknown };
    return typeof v.newPassword === 'string' && typeof v.confirmPassword === 'string' && v.confirmPassword !== '';
  },
});
export type ChangePasswordForm = z.infer<typeof ChangePasswordForm>;

/** PUT /api/auth/user (the profile page): the owner's own name. */
export const UpdateProfileRequest = z.object({ firstName: FirstName, lastName: LastName });
export type UpdateProfileRequest = z.infer<typeof UpdateProfileRequest>;

/** GET /api/auth/user: never a hash or a token. */
export const CurrentUser = z.object({
  id: z.string().uuid(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  profileImageUrl: z.string().nullable(),
  storeId: z.string().uuid(),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

/** Strength meter of the reset screen (spec 000 §5). */
export function passwordStrength(password: string): { score: number; label: 'Débil' | 'Regular' | 'Fuerte' | 'Muy fuerte'; percent: 25 | 50 | 75 | 100 } {
  let score = 0;
  if (password.length >= 6) score++;
  if (password.length >= 10) score++;
  if (/[A-Z]/.test(password)) score++;
  if (/[a-z]/.test(password)) score++;
  if (/[0-9]/.test(password)) score++;
  if (/[^A-Za-z0-9]/.test(password)) score++;
  if (score <= 2) return { score, label: 'Débil', percent: 25 };
  if (score <= 4) return { score, label: 'Regular', percent: 50 };
  if (score === 5) return { score, label: 'Fuerte', percent: 75 };
  return { score, label: 'Muy fuerte', percent: 100 };
}
