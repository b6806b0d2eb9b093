import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ReserveStockRequest, type ReserveStockResponse } from '@tiendita/contracts';
import { Caller, type CallerIdentity, Owner, type OwnerIdentity, parse, ProjectionHost, ProjectionPausedError } from '@tiendita/service-kit';
import { z } from 'zod';
import { ReservationsService } from '../application/reservations.service';
import { ORDERS_REACTION } from '../reactions/ordering-orders.consumer';

/** A position of ordering's events (what its append returned). */
const SettledRequest = z.object({ transactionId: z.string().regex(/^\d{1,20}$/), globalPosition: z.number().int().min(0) });

/** The order whose hold ordering gives back (its checkout failed after reserving). */
const ReleaseRequest = z.object({ orderId: z.string().uuid() });

/** Which holds ordering looks through when it starts (taken before it started). */
const HeldRequest = z.object({ before: z.iso.datetime(), limit: z.number().int().min(1).max(5000).default(1000) });

/** How long ordering's status change waits here at most before answering anyway. */
const SETTLED_TIMEOUT_MS = 2000;

/** POST /internal/reservations (signed; ordering calls it with the store as caller). */
@Controller('internal/reservations')
export class ReservationsController {
  constructor(
    private readonly reservations: ReservationsService,
    private readonly host: ProjectionHost,
  ) {}

  @Post()
  @HttpCode(200)
  reserve(@Owner() owner: OwnerIdentity, @Body() body: unknown): Promise<ReserveStockResponse> {
    return this.reservations.reserve(owner, parse(ReserveStockRequest, body ?? {}));
  }

  /**
   * POST /internal/reservations/release: ordering reserved for an order it then could not record
   * (its append failed); the units held go back at once instead of when the hold runs out. Only
   * holds of an order never placed are released (a placed order's units move with its events).
   */
  @Post('release')
  @HttpCode(200)
  async release(@Owner() _owner: OwnerIdentity, @Body() body: unknown): Promise<{ released: number }> {
    return { released: await this.reservations.release(parse(ReleaseRequest, body ?? {}).orderId, 'expired') };
  }

  /**
   * POST /internal/reservations/held: the orders whose units are held and not yet placed, held
   * since before `before`. Ordering asks when it starts: those it never recorded were checkouts
   * its previous process lost, and it releases them (release above) instead of waiting for their hold
   * to run out. A signed service call; it names no store.
   */
  @Post('held')
  @HttpCode(200)
  async held(@Caller() _caller: CallerIdentity, @Body() body: unknown): Promise<{ orders: { orderId: string; storeId: string }[] }> {
    const { before, limit } = parse(HeldRequest, body ?? {});
    return { orders: await this.reservations.heldBefore(new Date(before), limit) };
  }

  /**
   * POST /internal/reservations/settled: answers once inventory has acted on ordering's events up to
   * the position (a cancellation's units are back, a delivery's have left), so the owner's next read
   * of stock, here or in the catalog (which waits for inventory's events: ProjectionHost.fresh), shows
   * it. At most SETTLED_TIMEOUT_MS; `settled: false` when it ran out or the reaction is paused.
   */
  @Post('settled')
  @HttpCode(200)
  async settled(@Owner() _owner: OwnerIdentity, @Body() body: unknown): Promise<{ settled: boolean }> {
    const position = parse(SettledRequest, body ?? {});
    try {
      await this.host.waitForPosition(position, { source: 'ordering', projection: ORDERS_REACTION, timeoutMs: SETTLED_TIMEOUT_MS });
    } catch (err) {
      if (err instanceof ProjectionPausedError) return { settled: false };
      throw err;
    }
    return { settled: await this.host.runner.hasApplied(ORDERS_REACTION, 'ordering', position) };
  }
}
