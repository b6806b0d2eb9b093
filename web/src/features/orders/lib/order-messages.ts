/** The orders and POS texts of spec 001 §5 and §8, word for word. */
export const OrderMessages = {
  statusUpdated: 'Estado actualizado',
  statusFailed: 'No se pudo actualizar el estado del pedido.',
  noOrders: 'No se encontraron pedidos',
  emptyCart: 'Carrito Vacío',
  outOfStock: 'Sin Stock',
  insufficientPayment: 'Pago Insuficiente',
  insufficientPaymentDetail: 'El monto recibido es menor al total de la venta',
  saleRegistered: 'Venta Registrada',
  saleFailed: 'No se pudo registrar la venta',
  walkInCustomer: 'Cliente en tienda',
  defaultNit: 'CF',
  comingSoon: 'Próximamente',
} as const;
