import { CatalogMessages } from '@tiendita/contracts';

/** The products page's toast texts of spec 001 §8, word for word ('title: description' style). */
export const ProductToasts = {
  errorTitle: 'Error',
  created: CatalogMessages.productCreated,
  updated: CatalogMessages.productUpdated,
  deleted: CatalogMessages.productDeleted,
  categoryCreated: CatalogMessages.categoryCreated,
  imagesUploaded: CatalogMessages.imagesUploaded,
  createFailed: 'No se pudo crear el producto.',
  updateFailed: 'No se pudo actualizar el producto.',
  deleteFailed: 'No se pudo eliminar el producto.',
  categoryFailed: 'No se pudo crear la categoría.',
  invalidFiles: 'Archivos no válidos',
  limitExceeded: 'Límite excedido',
  uploadFailed: (reason: string) => `No se pudieron subir las imágenes: ${reason}`,
  imageLoadError: 'Error al cargar imagen',
  noProducts: 'No hay productos',
} as const;
