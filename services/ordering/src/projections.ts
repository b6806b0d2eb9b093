import type { Projection } from '@tiendita/eventsourcing';
import { orderLimitsProjection } from './orders/limits/order-limits.projection';
import { ordersProjection } from './read-model/orders.projection';
import { sourcesProjection } from './read-model/sources.projection';
import { usersProjection } from './read-model/users.projection';

/** Every projection of the ordering service (the replay tool reads this list). */
export const projections: Projection[] = [sourcesProjection as Projection, usersProjection as Projection, ordersProjection as Projection, orderLimitsProjection as Projection];
