/**
 * The catalog's messages, limits and stock thresholds, kept free of zod so the public shop can import
 * them without pulling the schema library into its bundle (catalog.ts re-exports all of this).
 */
/** Spanish messages of spec 001 for products, categories, images, ratings and comments. */
export const CatalogMessages = {
  productNameRequired: 'El nombre del producto es requerido.',
  priceRequired: 'El precio es requerido y debe ser un número mayor o igual a 0.',
  discountRange: 'El descuento debe estar entre 0 y 100.',
  stockInvalid: 'El stock debe ser un número entero mayor o igual a 0.',
  categoryNameRequired: 'El nombre de la categoría es requerido.',
  categoryNameTooLong: 'El nombre de la categoría no puede tener más de 100 caracteres.',
  categoryNotFound: 'Categoría no encontrada',
  productNotFound: 'Producto no encontrado',
  storeNotFound: 'Tienda no encontrada',
  maxImages: (max: number) => `Solo puedes tener máximo ${max} imágenes por producto.`,
  onlyImages: 'Solo se pueden subir archivos de imagen.',
  selectAtLeastOne: 'Selecciona al menos una imagen para subir.',
  fileTooLarge: 'La imagen no puede pesar más de 10 MB.',
  uploadNotFound: 'El enlace de subida no es válido o ya fue usado.',
  fileNameTooLong: 'El nombre del archivo no puede tener más de 255 caracteres.',
  ratingNameRequired: 'Por favor ingresa tu nombre.',
  ratingRange: 'La calificación debe estar entre 1 y 5.',
  /** The optional e-mail of a rating or comment (the word of spec 000 §5). */
  invalidEmail: 'Email inválido',
  commentRequired: 'Por favor completa tu nombre y comentario.',
  reviewPending: 'Gracias. Tu reseña quedó pendiente de aprobación.',
  commentPending: 'Gracias. Tu comentario quedó pendiente de aprobación.',
  productCreated: 'Producto creado',
  productUpdated: 'Producto actualizado',
  productDeleted: 'Producto eliminado',
  categoryCreated: 'Categoría creada',
  imagesUploaded: 'Imágenes subidas',
  reviewNotFound: 'Reseña no encontrada',
  productExists: 'El producto ya existe',
  categoryExists: 'La categoría ya existe',
  tooManyReviews: 'Demasiadas reseñas enviadas. Espera unos minutos e inténtalo de nuevo.',
  imageNotFound: 'Imagen no encontrada',
  invalidImageWidth: 'Ancho de imagen no permitido',
  /** An image path that is not one of this store's uploads (/objects/{file} or /temp-uploads/products/{file}). */
  invalidImagePath: 'Las imágenes deben ser archivos subidos a tu tienda.',
  /** parentCommentId that is not an approved comment of the same product. */
  parentCommentInvalid: 'El comentario al que respondes no existe o no está aprobado.',
  /** An image whose header declares more pixels than MAX_IMAGE_PIXELS. */
  imageTooManyPixels: 'La imagen es demasiado grande: máximo 40 megapíxeles.',
  /** The product form's edit, when inventory could not record the stock: nothing was saved. */
  productEditNothingSaved: 'No se pudo actualizar el producto: el inventario no está disponible. No se guardó ningún cambio; inténtalo de nuevo.',
  /** The stock was saved but the product's other fields were not (the reason follows). */
  productEditOnlyStockSaved: (stock: number, reason: string) => `Se guardó el stock (${stock}), pero no los demás cambios del producto: ${reason}`,
  uploadRateLimited: 'Demasiadas subidas seguidas. Espera un momento e inténtalo de nuevo.',
  uploadCountQuota: (max: number) => `Alcanzaste el límite de ${max} imágenes por hora. Inténtalo de nuevo más tarde.`,
  uploadBytesQuota: (maxBytes: number) =>
    `Alcanzaste el límite de ${(maxBytes / (1024 * 1024)).toLocaleString('es-GT', { maximumFractionDigits: 1 })} MB de imágenes por día. Inténtalo de nuevo más tarde.`,
} as const;

/** Spanish messages of spec 001 §5 for stock adjustments (the product form's stock edit uses them too). */
export const InventoryMessages = {
  stockInvalid: 'El stock debe ser un número válido mayor o igual a 0.',
  stockNegative: 'El stock no puede ser negativo',
  reasonRequired: 'La razón es requerida',
  reasonMissing: 'Por favor describe la razón del ajuste de inventario.',
  invalidType: 'Tipo de ajuste inválido',
  invalidProductId: 'ID de producto inválido',
  productNotFound: 'Producto no encontrado',
  adjustFailed: 'No se pudo ajustar el inventario.',
  stockUpdateFailed: 'No se pudo actualizar el stock. Inténtalo de nuevo.',
  invalidSortBy: 'Orden inválido: usa name, stock o category.',
  invalidSortOrder: 'Dirección de orden inválida: usa asc o desc.',
  invalidPage: 'Página inválida: usa un número entero entre 1 y 1000000.',
  invalidPageSize: (max: number) => `Tamaño de página inválido: usa un número entero entre 1 y ${max}.`,
} as const;

export const MAX_PRODUCT_IMAGES = 10;
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Largest image accepted, in pixels (width × height read from its header, before any decoding). */
export const MAX_IMAGE_PIXELS = 40_000_000;
export const PRODUCT_PAGE_SIZES = [8, 12, 24, 48] as const;
export const DEFAULT_PRODUCT_PAGE_SIZE = 12;
export const UPLOAD_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
