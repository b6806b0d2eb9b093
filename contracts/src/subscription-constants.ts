// zod-free, so the shop can import it without the schemas (see web/src/shop/lib/contracts.ts).

/** Spanish messages of the subscription calls and dialog (spec 001 §5 and §8). */
export const SubscriptionMessages = {
  required: 'Campos requeridos',
  alreadySubscribed: 'Este email ya está suscrito a la tienda',
  failed: 'No se pudo completar la suscripción',
  success: '¡Revisa tu correo!',
  successDescription: 'Te enviamos un correo para confirmar tu suscripción: abre su enlace y pulsa «Confirmar suscripción». Si no llega en unos minutos, revisa la carpeta de spam.',
  /** The answer to every accepted subscribe call, whether the address was subscribed, pending or new. */
  requested: 'Si la dirección es válida, recibirá un correo para confirmar la suscripción.',
  confirmTitle: 'Confirma tu suscripción',
  confirmButton: 'Confirmar suscripción',
  confirmed: '¡Listo! Tu suscripción está confirmada. Te avisaremos de las ofertas y novedades de la tienda.',
  unsubscribeTitle: 'Cancelar tu suscripción',
  unsubscribeButton: 'Cancelar suscripción',
  unsubscribed: 'Listo: ya no recibirás correos de esta tienda. Puedes suscribirte de nuevo cuando quieras.',
  expiredLink: 'El enlace para confirmar venció. Suscríbete de nuevo desde la tienda y usa el enlace del correo nuevo.',
  googleSoon: 'La suscripción con Google estará disponible próximamente',
  facebookSoon: 'La suscripción con Facebook estará disponible próximamente',
  provider: 'Proveedor de suscripción inválido',
  phoneMax: 'El teléfono no puede tener más de 20 caracteres',
  invalidLink: 'El enlace para cancelar la suscripción no es válido.',
} as const;

/** The code of a 409 for an address already subscribed and active. */
export const ALREADY_SUBSCRIBED = 'ALREADY_SUBSCRIBED';
