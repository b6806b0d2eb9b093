import type { Projection } from '@tiendita/eventsourcing';
import { cashCountsProjection } from './read-model/cash-counts.projection';
import { paymentsProjection } from './read-model/payments.projection';
import { productsProjection, stockProjection } from './read-model/products.projection';
import { salesProjection } from './read-model/sales.projection';
import { storesProjection } from './read-model/stores.projection';

/** Every projection of the reporting service (the replay tool reads this list). */
export const projections: Projection[] = [
  salesProjection as Projection,
  paymentsProjection as Projection,
  productsProjection as Projection,
  stockProjection as Projection,
  cashCountsProjection as Projection,
  storesProjection as Projection,
];
