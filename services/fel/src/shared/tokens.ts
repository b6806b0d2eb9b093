export const FEL_SCHEMA = 'fel';
