import type { Projection } from '@tiendita/eventsourcing';
import { identityProjection } from './read-model/identity.projection';

/** Every projection of the identity service (the runner, and replay by name: identity.accounts). */
export const projections: Projection[] = [identityProjection as Projection];
