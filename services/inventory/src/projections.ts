import type { Projection } from '@tiendita/eventsourcing';
import { productsProjection } from './read-model/products.projection';
import { stockProjection } from './read-model/stock.projection';

/** Every projection of the inventory service (the replay tool reads this list). */
export const projections: Projection[] = [stockProjection as Projection, productsProjection as Projection];
