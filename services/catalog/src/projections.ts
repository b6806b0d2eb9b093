import type { Projection } from '@tiendita/eventsourcing';
import { catalogProjection } from './read-model/catalog.projection';
import { storesProjection } from './stores/stores.projection';
import { usersProjection } from './users/users.projection';

/** Every projection of the catalog service (the replay tool reads this list). */
export const projections: Projection[] = [catalogProjection as Projection, storesProjection as Projection, usersProjection as Projection];
