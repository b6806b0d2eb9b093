import type { Projection } from '@tiendita/eventsourcing';
import { identityProjection } from './read-model/identity.projection';
import { storeOrdersProjection } from './read-model/store-orders.projection';
import { storeProductsProjection } from './read-model/store-products.projection';
import { subscriptionsProjection } from './subscriptions/read-model/subscriptions.projection';

/**
 * Every projection of the identity service (the runner, and replay by name: identity.accounts,
 * identity.store_products, identity.store_orders, identity.subscriptions).
 */
export const projections: Projection[] = [identityProjection as Projection, storeProductsProjection as Projection, storeOrdersProjection as Projection, subscriptionsProjection as Projection];
