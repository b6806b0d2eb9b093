import { ServiceUnavailableError } from '@tiendita/service-kit';

/**
 * How many calls the gateway lets wait on one service at once. Past the cap a call is answered at
 * once with the Spanish 503 (clients retry it) instead of queueing: after a service or PostgreSQL
 * comes back, every shopper who was told 503 retries together, and a queue of hundreds of checkouts
 * in front of a pool of ten connections made each one wait 10-30 s (pool timeouts, retries, the
 * same work done twice), so the service looked down long after it was up. With a cap the calls let
 * in are answered in their usual time and the others come back a moment later. 0: no cap.
 */
export class ServiceAdmission {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** Runs `call` if `service` has room for it, else throws ServiceUnavailableError (503) without calling. */
  async run<T>(service: string, call: () => Promise<T>): Promise<T> {
    const now = this.inFlight.get(service) ?? 0;
    if (this.limit > 0 && now >= this.limit) throw new ServiceUnavailableError();
    this.inFlight.set(service, now + 1);
    try {
      return await call();
    } finally {
      this.inFlight.set(service, (this.inFlight.get(service) ?? 1) - 1);
    }
  }

  /** Calls in flight to `service` now (for tests). */
  busy(service: string): number {
    return this.inFlight.get(service) ?? 0;
  }
}
