/** Injection token of identity's PostgresEventStore (schema 'identity'). */
export const EVENT_STORE = 'IDENTITY_EVENT_STORE';
/** Injection token of the parsed identity configuration. */
export const IDENTITY_CONFIG = 'IDENTITY_CONFIG';
/** Injection token of the reset mailer. */
export const RESET_MAILER = 'IDENTITY_RESET_MAILER';
