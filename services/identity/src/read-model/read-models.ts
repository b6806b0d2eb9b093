import { IDENTITY_SCHEMA } from '../migrations';
import type { IdentityTable } from './identity.projection';

/** Physical names of the read-model tables (the runner puts them in the service schema). */
export const READ_TABLES: Record<IdentityTable, string> = {
  users: `${IDENTITY_SCHEMA}.users`,
  stores: `${IDENTITY_SCHEMA}.stores`,
  store_settings: `${IDENTITY_SCHEMA}.store_settings`,
};
