import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { type FelInvoiceView, type FelReceiptBlock, felReceiptBlock } from '@tiendita/contracts';
import { type CallerIdentity, InternalClient, SERVICE_CONFIG, SERVICE_LOGGER } from '@tiendita/service-kit';
import type { Logger } from 'pino';
import type { OrderingConfig } from '../../config';

/**
 * The FEL block of a PDF receipt (issue 25): the order's invoice as the FEL service has it, turned
 * into the same block the web print view draws (contracts' felReceiptBlock). An order without one
 * (FEL off, not paid yet) or a FEL service that does not answer in time prints no block: a receipt
 * without its invoice beats no receipt.
 */
@Injectable()
export class ReceiptFel implements OnModuleDestroy {
  private readonly client: InternalClient<'fel'>;

  constructor(
    @Inject(SERVICE_CONFIG) config: OrderingConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {
    this.client = new InternalClient({ fel: config.FEL_URL }, config.INTERNAL_SECRET, { connections: 4, timeoutMs: 2_000 });
  }

  async block(caller: CallerIdentity, orderId: string): Promise<FelReceiptBlock | null> {
    try {
      const res = await this.client.request('fel', { method: 'GET', path: `/internal/orders/${orderId}/invoice`, caller, timeoutMs: 2_000 });
      if (res.statusCode !== 200) {
        await res.body.dump();
        return null;
      }
      return felReceiptBlock((await res.body.json()) as FelInvoiceView);
    } catch (err) {
      this.logger.warn({ err, orderId }, 'No se pudo leer la factura electrónica para el recibo');
      return null;
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.client.close();
  }
}
