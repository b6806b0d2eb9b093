// zod-free, so the shop can import it without the schemas (see web/src/shop/lib/contracts.ts).

/** Spanish messages of the order calls, the POS and the public checkout (spec 001 §5 and §8). */
export const OrderMessages = {
  customerRequired: 'Datos incompletos: Por favor completa tu nombre y teléfono.',
  /** The store asks for the address (its 'requireCustomerInfo' setting). */
  addressRequired: 'Datos incompletos: Por favor completa tu dirección de entrega.',
  storeNotFound: 'Tienda No Encontrada',
  onlineOrdersOff: 'Esta tienda no está aceptando pedidos en línea por ahora.',
  emptyCart: 'Carrito Vacío',
  insufficientPayment: 'Pago Insuficiente: El monto recibido es menor al total de la venta',
  comingSoon: 'Próximamente',
  orderNotFound: 'Pedido no encontrado',
  tooManyLines: 'El pedido no puede tener más de 100 productos distintos.',
  quantityInvalid: 'La cantidad debe ser un número entero mayor o igual a 1.',
  nameTooLong: 'El nombre no puede tener más de 255 caracteres.',
  phoneTooLong: 'El teléfono no puede tener más de 20 caracteres.',
  addressTooLong: 'La dirección no puede tener más de 1000 caracteres.',
  notesTooLong: 'Las notas no pueden tener más de 1000 caracteres.',
  invalidStatus: 'Estado de pedido inválido',
  invalidPageSize: 'Tamaño de página inválido: usa un número entero entre 1 y 100.',
  invalidPaymentMethod: 'Método de pago inválido',
  defaultPosCustomer: 'Cliente en tienda',
  defaultNit: 'CF',
} as const;
