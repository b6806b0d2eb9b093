/** Injection token of inventory's event store (schema 'inventory'). */
export const INVENTORY_EVENT_STORE = 'INVENTORY_EVENT_STORE';
/** Injection token of inventory's event transport (subscriptions to other services' events). */
export const EVENT_TRANSPORT = 'INVENTORY_EVENT_TRANSPORT';
export const INVENTORY_SCHEMA = 'inventory';
