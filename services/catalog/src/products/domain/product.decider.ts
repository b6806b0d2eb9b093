import type { Decider } from '@tiendita/eventsourcing';
import { decideProduct, type ProductCommand } from './product.decide';
import type { ProductEvent } from './product.events';
import { evolveProduct, initialProductState, type ProductState } from './product.state';

/** The Product aggregate as a pure decider. */
export const productDecider: Decider<ProductState, ProductCommand, ProductEvent> = {
  initialState: initialProductState,
  evolve: evolveProduct,
  decide: decideProduct,
};
