import { CatalogMessages, OrderMessages } from './contracts';

/** The shop's Spanish texts of spec 001 §5 and §8, word for word where the spec gives them. */
export const ShopMessages = {
  storeNotFound: 'Tienda No Encontrada',
  storeNotFoundHint: 'La tienda que buscas no existe o no está disponible en este momento.',
  productNotFound: 'Producto no encontrado',
  productNotFoundHint: 'Este producto ya no está disponible o el enlace no es correcto.',
  ratingNameRequired: CatalogMessages.ratingNameRequired,
  ratingFieldsRequired: 'Por favor completa todos los campos requeridos.',
  commentRequired: CatalogMessages.commentRequired,
  ratingFailed: 'No se pudo enviar la calificación. Inténtalo de nuevo.',
  /** The product detail dialog's review form (spec 001 §8, title 'Error'). */
  reviewFailed: 'No se pudo enviar tu reseña. Inténtalo de nuevo.',
  commentFailed: 'No se pudo enviar el comentario. Inténtalo de nuevo.',
  ratingPending: CatalogMessages.reviewPending,
  commentPending: CatalogMessages.commentPending,
  loadFailed: 'No se pudo cargar la tienda. Revisa tu conexión e inténtalo de nuevo.',
  productsFailed: 'No se pudieron cargar los productos.',
  noProducts: 'No hay productos',
  addedToCart: 'Agregado al carrito',
} as const;

/** The public checkout's texts of spec 001 §5 and §8, word for word. */
export const CheckoutMessages = {
  incomplete: OrderMessages.customerRequired,
  addressRequired: OrderMessages.addressRequired,
  ordersClosed: OrderMessages.onlineOrdersOff,
  failedTitle: 'Error al crear pedido',
  failed: 'No se pudo crear el pedido. Intenta nuevamente.',
  confirmed: '¡Pedido confirmado!',
  noWhatsapp: 'WhatsApp no configurado',
} as const;
