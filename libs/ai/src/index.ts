export * from './client';
export * from './text';
export * from './description';
export * from './customer-response';
export * from './social-caption';
export * from './sales-insights';
export * from './search';
