/** Shared bootstrap of every Tiendita service: config, app, errors, internal auth, database, logs. */
export * from './config';
export * from './app';
export * from './service-kit.module';
export * from './request-hooks';
export * from './start-service';
export * from './lifecycle';
export * from './error-filter';
export * from './http-errors';
export * from './internal-auth';
export * from './database';
export * from './database-errors';
export * from './logger';
export * from './validation';
export * from './zod-messages';
export * from './event-sourcing';
export * from './event-sourcing.module';
export * from './internal-client';
export { deriveKey, KeyPurpose } from '@tiendita/eventsourcing';
