import type { PublicStoreView } from './contracts';

/**
 * Whether the shop takes orders now: the owner allows online orders and there is a WhatsApp number
 * to send them to (an inactive store never reaches the shop: it answers 'Tienda No Encontrada').
 * The checkout shows only when this holds; the server refuses public orders otherwise.
 */
export function takesOnlineOrders(store: Pick<PublicStoreView, 'allowOnlineOrders' | 'whatsappNumber'>): boolean {
  return store.allowOnlineOrders && Boolean(store.whatsappNumber?.trim());
}

/** Whether checkout must ask for the address (the owner's 'requireCustomerInfo'). */
export function requiresAddress(store: Pick<PublicStoreView, 'requireCustomerInfo'>): boolean {
  return store.requireCustomerInfo;
}
