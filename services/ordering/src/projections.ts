import type { Projection } from '@tiendita/eventsourcing';
import { ordersProjection } from './read-model/orders.projection';
import { sourcesProjection } from './read-model/sources.projection';

/** Every projection of the ordering service (the replay tool reads this list). */
export const projections: Projection[] = [sourcesProjection as Projection, ordersProjection as Projection];
