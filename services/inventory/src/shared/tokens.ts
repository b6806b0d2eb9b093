export const INVENTORY_SCHEMA = 'inventory';
