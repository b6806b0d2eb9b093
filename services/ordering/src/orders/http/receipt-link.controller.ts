import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { NotFoundError } from '@tiendita/eventsourcing';
import { deriveKey, KeyPurpose, Owner, type OwnerIdentity, SERVICE_CONFIG } from '@tiendita/service-kit';
import type { ReceiptLinkResponse } from '@tiendita/contracts';
import type { FastifyReply } from 'fastify';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { OrderingConfig } from '../../config';
import { OrderReader } from '../application/order-reader';
import { receiptPdf } from '../application/receipt';
import { StoreLogos } from '../application/store-logos';
import { ReceiptFel } from '../application/receipt-fel';
import { StoreReader } from '../application/store-reader';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;
const NOT_FOUND = 'Recibo no encontrado';

/** The link's HMAC-SHA256 (base64url, 256 bits) over the store and the order: unguessable, and for that receipt only. */
export function receiptSignature(secret: string, storeId: string, orderId: string): string {
  return createHmac('sha256', deriveKey(secret, KeyPurpose.receiptLink)).update(`${storeId.toLowerCase()}:${orderId.toLowerCase()}`).digest('base64url');
}

/** /api/public/receipts/{storeId}/{orderId}/{signature}.pdf */
export const receiptLinkPath = (secret: string, storeId: string, orderId: string): string =>
  `/api/public/receipts/${storeId}/${orderId}/${receiptSignature(secret, storeId, orderId)}.pdf`;

function validSignature(secret: string, storeId: string, orderId: string, given: string): boolean {
  if (!UUID.test(storeId) || !UUID.test(orderId) || !SIGNATURE.test(given)) return false;
  const expected = Buffer.from(receiptSignature(secret, storeId, orderId));
  return timingSafeEqual(expected, Buffer.from(given));
}

/**
 * A receipt the customer can open without a session (issue 27): the owner asks for the link of one of
 * their orders (GET /api/orders/{id}/receipt-link), the receipt screen sends it by WhatsApp, and the
 * link answers the receipt's PDF to whoever holds it. A link with any other signature is a 404.
 */
@Controller('api')
export class ReceiptLinkController {
  constructor(
    @Inject(SERVICE_CONFIG) private readonly config: OrderingConfig,
    private readonly reader: OrderReader,
    private readonly stores: StoreReader,
    private readonly logos: StoreLogos,
    private readonly fel: ReceiptFel,
  ) {}

  @Get('orders/:id/receipt-link')
  async link(@Owner() owner: OwnerIdentity, @Param('id') id: string): Promise<ReceiptLinkResponse> {
    const order = await this.reader.get(owner.storeId, id);
    return { path: receiptLinkPath(this.config.INTERNAL_SECRET, owner.storeId, order.id), code: order.code, customerPhone: order.customerPhone };
  }

  @Get('public/receipts/:storeId/:orderId/:file')
  async receipt(@Param('storeId') storeId: string, @Param('orderId') orderId: string, @Param('file') file: string, @Res() reply: FastifyReply): Promise<void> {
    const signature = file.endsWith('.pdf') ? file.slice(0, -4) : '';
    if (!validSignature(this.config.INTERNAL_SECRET, storeId, orderId, signature)) throw new NotFoundError(NOT_FOUND);
    const order = await this.reader.get(storeId, orderId);
    const store = await this.stores.findStore(storeId);
    const caller = { userId: null, storeId };
    const [logo, fel] = await Promise.all([this.logos.forReceipt(caller, store?.logo_url), this.fel.block(caller, order.id)]);
    const pdf = await receiptPdf(order, store, logo, fel);
    await reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `inline; filename="recibo-${order.code}.pdf"`)
      .header('cache-control', 'private, no-store')
      .header('x-robots-tag', 'noindex')
      .send(pdf);
  }
}
