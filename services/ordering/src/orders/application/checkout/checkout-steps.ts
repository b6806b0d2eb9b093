import { Inject, Injectable } from '@nestjs/common';
import { type OrderLine, OrderMessages } from '@tiendita/contracts';
import { NotFoundError, ValidationError } from '@tiendita/eventsourcing';
import { PG_POOL, SERVICE_LOGGER } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { orderDecider, type PlaceOrder } from '../../domain/order.decider';
import { PublicOrderLimits } from '../../limits/public-order-limits';
import { InventoryClient } from '../inventory-client';
import { idFor } from '../order-ids';
import { OrderWriter } from '../order-writer';
import { priceLine } from '../pricing';
import { type CatalogProduct, StoreReader, storeSnapshot } from '../store-reader';
import { offlineNotes } from './offline-sale';
import { claimOrderCode } from './order-code';
import { type CheckoutContext, type CheckoutInput, type CheckoutStep, newCheckoutContext, runCheckout } from './checkout';

/**
 * Prices every line from ordering's copy of the catalog; unknown, inactive or another store's products
 * are refused. An offline sale (`made`: it happened) takes its store's products even when they were
 * deactivated or deleted meanwhile.
 */
export function priceLines(storeId: string, wanted: CheckoutInput['wanted'], products: readonly CatalogProduct[], made = false): OrderLine[] {
  const byId = new Map(products.map((p) => [p.id, p]));
  return wanted.map((w) => {
    const p = byId.get(w.productId);
    if (p && p.store_id === storeId && made) return priceLine(p, w.quantity);
    if (!p || p.store_id !== storeId || p.deleted) {
      const message = `Producto no encontrado en esta tienda: ${w.productId}`;
      throw new ValidationError(message, { fields: { items: message }, productId: w.productId });
    }
    if (!p.is_active) {
      const message = `Producto no disponible: ${p.name}`;
      throw new ValidationError(message, { fields: { items: message }, productId: p.id, productName: p.name });
    }
    return priceLine(p, w.quantity);
  });
}

/**
 * An offline sale's line at the price the device showed the customer (centavos): that price stands;
 * the catalogue's price then is kept as `listPrice` when it was another (the owner sees it).
 */
export function shownPriceLine(line: OrderLine, shown: number | undefined): OrderLine {
  if (shown === undefined || shown === line.unitPrice) return line;
  return { ...line, unitPrice: shown, lineTotal: shown * line.quantity, listPrice: line.unitPrice };
}

/** The PlaceOrder command of the checkout as it stands (its code once claimed). */
function placeCommand(ctx: CheckoutContext, code: string): PlaceOrder {
  const i = ctx.input;
  return {
    type: 'PlaceOrder',
    command: {
      kind: i.kind,
      orderId: ctx.orderId,
      storeId: ctx.storeId,
      code,
      customer: i.customer,
      notes: i.offline ? offlineNotes(i.offline, i.notes, ctx.lines) : i.notes,
      paymentMethod: i.paymentMethod,
      cashReceived: i.cashReceived,
      // The sale's payment is named by the order: a retried sale records it once.
      paymentId: i.kind === 'pos' ? idFor(ctx.storeId, 'pos-payment', ctx.orderId) : null,
      placedBy: i.author.name,
      placedById: i.author.id,
      // An offline sale happened when the device sold it (its day in the reports and the cash close).
      placedAt: i.offline ? new Date(i.offline.soldAt).toISOString() : new Date().toISOString(),
      ...(i.offline ? { offline: { deviceSaleId: i.offline.deviceSaleId, localNumber: i.offline.localNumber, soldAt: i.offline.soldAt } } : {}),
    },
    snapshot: { store: storeSnapshot(ctx.store), lines: ctx.lines },
  };
}

/**
 * The checkout as named steps: read the store and products, price the lines (and check every rule
 * of the order before anything is held), reserve the stock, claim the code, decide, append. More
 * steps (limits, caps) go into `steps` where they belong.
 */
@Injectable()
export class Checkout {
  readonly steps: CheckoutStep[];

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    private readonly stores: StoreReader,
    private readonly inventory: InventoryClient,
    private readonly writer: OrderWriter,
    limits: PublicOrderLimits,
  ) {
    this.steps = [
      { name: 'read sources', run: (ctx) => this.readSources(ctx) },
      { name: 'price lines', run: async (ctx) => this.price(ctx) },
      limits.step,
      { name: 'reserve stock', run: (ctx) => this.reserve(ctx), compensate: (ctx) => this.release(ctx) },
      { name: 'claim code', run: async (ctx) => void (ctx.code = await (ctx.codeClaim ?? this.claimCode(ctx.orderId, ctx.storeId))) },
      { name: 'decide', run: async (ctx) => this.decide(ctx) },
      { name: 'append', run: (ctx) => this.append(ctx) },
    ];
  }

  run(input: CheckoutInput): Promise<CheckoutContext> {
    return runCheckout(this.steps, newCheckoutContext(input), (step, err) => this.logger.error({ err, step }, 'No se pudo deshacer un paso del pedido'));
  }

  private async readSources(ctx: CheckoutContext): Promise<void> {
    const { store, products } = await this.stores.checkoutSources(ctx.input.storeParam, ctx.input.wanted.map((w) => w.productId));
    if (ctx.input.kind === 'public' && (!store || !store.is_active)) throw new NotFoundError(OrderMessages.storeNotFound);
    ctx.store = store;
    ctx.products = products;
    ctx.storeId = ctx.input.kind === 'pos' ? ctx.input.storeParam : store!.id;
    ctx.caller = { userId: ctx.input.kind === 'pos' ? ctx.input.author.id : 'public', storeId: ctx.storeId };
    ctx.orderId = idFor(ctx.storeId, ctx.input.kind, ctx.input.idempotencyKey);
    if (ctx.input.idempotencyKey) {
      const state = await this.writer.load(ctx.orderId);
      if (state.status === 'placed') {
        ctx.existing = state;
        ctx.state = state;
        ctx.placed = state.order;
      }
    }
  }

  /** Prices the lines, then decides the order once without a code: any rule it breaks answers before stock is held. */
  private price(ctx: CheckoutContext): void {
    ctx.lines = priceLines(ctx.storeId, ctx.input.wanted, ctx.products, ctx.input.offline !== undefined);
    if (ctx.input.offline) ctx.lines = ctx.lines.map((l) => shownPriceLine(l, ctx.input.offline!.shownPrices.get(l.productId)));
    orderDecider.decide(placeCommand(ctx, 'AAAAAA'), orderDecider.initialState());
  }

  /** The order's events as the decider gives them with its code (append decides again on the stream as it is then). */
  private decide(ctx: CheckoutContext): void {
    ctx.command = placeCommand(ctx, ctx.code);
    orderDecider.decide(ctx.command, orderDecider.initialState());
  }

  /** The code's claim (a round trip of ours) starts now and overlaps inventory's call; the next step takes its answer. */
  private async reserve(ctx: CheckoutContext): Promise<void> {
    // A public order's code came with its limits' statement; a claim that found its code taken, and a POS sale, claim here.
    ctx.codeClaim ??= this.claimCode(ctx.orderId, ctx.storeId);
    ctx.codeClaim.catch(() => undefined); // awaited by the next step; a refused reservation is the error to answer
    await this.inventory.reserve(ctx.caller, { orderId: ctx.orderId, lines: ctx.lines.map((l) => ({ productId: l.productId, quantity: l.quantity })), sale: ctx.input.kind === 'pos', allowShort: ctx.input.offline !== undefined });
  }

  /**
   * A hold is given back at once. Not when an Idempotency-Key names the order: its retry, the reason
   * the key exists, reserves under the same order id and inventory answers the hold it already has
   * (a released one would place the order without its units), so that hold waits for the retry and
   * runs out with its time otherwise. A POS sale's units left the shelf at once and come back only
   * by an inventory adjustment.
   */
  private async release(ctx: CheckoutContext): Promise<void> {
    if (ctx.input.kind === 'public' && !ctx.input.idempotencyKey) await this.inventory.release(ctx.caller, ctx.orderId);
  }

  private async append(ctx: CheckoutContext): Promise<void> {
    const result = await this.writer.run(ctx.command!, { storeId: ctx.storeId, actor: ctx.input.kind === 'pos' ? ctx.input.author.id : 'public' });
    if (result.newState.status !== 'placed') throw new Error('pedido no registrado');
    // Nothing new: the same Idempotency-Key placed it a moment ago; that order is the answer.
    ctx.placed = result.newState.order;
    ctx.state = result.newState;
    ctx.position = result.position;
  }

  private claimCode(orderId: string, storeId: string): Promise<string> {
    return claimOrderCode(this.pool, orderId, storeId);
  }
}
