/**
 * Toast texts of spec 000 §8, word for word (except the logged-out toast, which spec 000 gives in
 * English and issue 10 asks in Spanish like the rest of the product): the titles, and the
 * descriptions only the client shows.
 * Descriptions the server also uses live in contracts' AuthMessages (and are read from there), which
 * this file does not import: it is part of the entry chunk, and contracts' schemas would drag zod in.
 */
export const ToastMessages = {
  loginFailed: { title: 'Error de Autenticación' },
  loginSucceeded: { title: 'Bienvenido', description: 'Has iniciado sesión exitosamente' },
  registerFailed: { title: 'Error de Registro', fallback: 'No se pudo crear la cuenta' },
  registerSucceeded: { title: '¡Registro Exitoso!', description: 'Tu cuenta y tienda han sido creadas. Puedes iniciar sesión ahora.' },
  forgotFailed: { title: 'Error', fallback: 'No se pudo enviar el correo de recuperación' },
  forgotSucceeded: { title: 'Correo Enviado' },
  invalidResetToken: { title: 'Token Inválido' },
  resetFailed: { title: 'Error', fallback: 'No se pudo cambiar la contraseña' },
  resetSucceeded: { title: 'Contraseña Actualizada' },
  loggedOut: { title: 'No autorizado', description: 'Tu sesión terminó. Redirigiendo al inicio de sesión...' },
  logoutFailed: { title: 'Error', fallback: 'No se pudo cerrar la sesión' },
} as const;

/** Redirect delays of spec 000 §9. */
export const LOGIN_REDIRECT_DELAY_MS = 100;
export const LOGGED_OUT_REDIRECT_DELAY_MS = 500;
