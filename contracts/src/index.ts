export * from './errors';
export * from './envelope';
export * from './money';
export * from './store-constants';
export * from './auth';
export * from './store';
export * from './catalog';
export * from './catalog-events';
