// zod-free, so the shop can import it without the schemas (see web/src/shop/lib/contracts.ts).

/** Spanish messages of the subscription calls and dialog (spec 001 §5 and §8). */
export const SubscriptionMessages = {
  required: 'Campos requeridos',
  alreadySubscribed: 'Este email ya está suscrito a la tienda',
  failed: 'No se pudo completar la suscripción',
  success: '¡Suscripción exitosa!',
  successDescription: 'Te enviamos un correo de confirmación. Pronto recibirás nuestras ofertas.',
  googleSoon: 'La suscripción con Google estará disponible próximamente',
  facebookSoon: 'La suscripción con Facebook estará disponible próximamente',
  provider: 'Proveedor de suscripción inválido',
  phoneMax: 'El teléfono no puede tener más de 20 caracteres',
  invalidLink: 'El enlace para cancelar la suscripción no es válido.',
} as const;

/** The code of a 409 for an address already subscribed and active. */
export const ALREADY_SUBSCRIBED = 'ALREADY_SUBSCRIBED';
