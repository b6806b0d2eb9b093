import type { CartLines, OrderLine, OrderPlaced, PosPaymentMethod } from '@tiendita/contracts';
import type { Position } from '@tiendita/eventsourcing';
import type { CallerIdentity } from '@tiendita/service-kit';
import type { OrderCustomer, PlaceOrder, PlacedOrderState } from '../../domain/order.decider';
import type { CatalogProduct, StoreRow } from '../store-reader';

/** What a checkout is asked for: the shop's WhatsApp order ('public') or a POS sale ('pos'). */
export interface CheckoutInput {
  kind: 'public' | 'pos';
  /** The store's subdomain or id (a POS sale: the owner's store id). */
  storeParam: string;
  idempotencyKey: string | undefined;
  wanted: CartLines;
  customer: OrderCustomer;
  notes: string | null;
  paymentMethod: PosPaymentMethod | null;
  /** Cash handed over, centavos (POS cash). */
  cashReceived: number | null;
  /** The order's author: the shopper (public) or the signed-in owner (POS), display name and id. */
  author: { name: string; id: string };
  /** A POS sale made offline on a device (issue 28): never refused for stock, sold at the prices it showed (centavos). */
  offline?: { deviceSaleId: string; localNumber: string; soldAt: string; shownPrices: Map<string, number> };
}

/** What the steps learn and leave for the next ones. */
export interface CheckoutContext {
  readonly input: CheckoutInput;
  store: StoreRow | null;
  products: CatalogProduct[];
  storeId: string;
  orderId: string;
  /** Who inventory sees as the caller (the owner, or 'public' in the store). */
  caller: CallerIdentity;
  lines: OrderLine[];
  /** The code claimed for the order (a claim started early: see the reserve step), then the code. */
  codeClaim?: Promise<string>;
  code: string;
  command: PlaceOrder | null;
  /** The order placed (or found placed by the same Idempotency-Key), and where its events landed. */
  placed: OrderPlaced | null;
  position: Position | null;
  /** Set when the order exists already (the same Idempotency-Key): the remaining steps are skipped. */
  existing: PlacedOrderState | null;
  /** The order as its stream has it once placed (appended now, or found by its Idempotency-Key). */
  state: PlacedOrderState | null;
}

/** One named step of the checkout, with what undoes it when a later step fails. */
export interface CheckoutStep {
  readonly name: string;
  run(ctx: CheckoutContext): Promise<void>;
  compensate?(ctx: CheckoutContext, error: unknown): Promise<void>;
}

export function newCheckoutContext(input: CheckoutInput): CheckoutContext {
  return { input, store: null, products: [], storeId: '', orderId: '', caller: { userId: 'public', storeId: '' }, lines: [], code: '', command: null, placed: null, position: null, existing: null, state: null };
}

/**
 * Runs the steps in order. When one fails, the steps already done are undone, last first (a failed
 * append releases the reservation at once, not after inventory's hold runs out), and the error is
 * the answer. A step that finds the order placed already (`existing`) ends the run.
 */
export async function runCheckout(steps: readonly CheckoutStep[], ctx: CheckoutContext, onCompensationError: (step: string, err: unknown) => void): Promise<CheckoutContext> {
  const done: CheckoutStep[] = [];
  for (const step of steps) {
    try {
      await step.run(ctx);
    } catch (err) {
      for (const finished of done.reverse()) await finished.compensate?.(ctx, err).catch((e: unknown) => onCompensationError(finished.name, e));
      throw err;
    }
    done.push(step);
    if (ctx.existing) break;
  }
  return ctx;
}
