import { Body, Controller, Get, HttpCode, Param, Post, Put, Res } from '@nestjs/common';
import { CorrectReceiverRequest, type FelInvoiceView } from '@tiendita/contracts';
import { NotFoundError } from '@tiendita/eventsourcing';
import { Owner, type OwnerIdentity, parse } from '@tiendita/service-kit';
import type { FastifyReply } from 'fastify';
import { DocumentsService } from './documents.service';
import { FelOutbox } from './outbox';

/** An order's electronic invoice: its state, its XML, its annulment, a retry, a corrected receiver. */
@Controller('api/orders/:id')
export class InvoiceController {
  constructor(
    private readonly documents: DocumentsService,
    private readonly outbox: FelOutbox,
  ) {}

  @Get('invoice')
  invoice(@Owner() owner: OwnerIdentity, @Param('id') id: string): Promise<FelInvoiceView> {
    return this.documents.invoice(owner.storeId, id);
  }

  /** The certified XML once certified, the XML as sent before. */
  @Get('invoice.xml')
  async xml(@Owner() owner: OwnerIdentity, @Param('id') id: string, @Res() reply: FastifyReply): Promise<void> {
    const row = await this.documents.row(owner.storeId, id);
    await reply
      .header('content-type', 'application/xml; charset=utf-8')
      .header('content-disposition', `inline; filename="factura-${row.order_code}.xml"`)
      .send(row.xml_certified ?? row.xml_sent);
  }

  @Get('invoice/annulment.xml')
  async annulment(@Owner() owner: OwnerIdentity, @Param('id') id: string, @Res() reply: FastifyReply): Promise<void> {
    const row = await this.documents.row(owner.storeId, id);
    if (!row.annulment_xml) throw new NotFoundError('Esta factura no ha sido anulada.');
    await reply
      .header('content-type', 'application/xml; charset=utf-8')
      .header('content-disposition', `inline; filename="anulacion-${row.order_code}.xml"`)
      .send(row.annulment_xml);
  }

  /** A credit note (NCRE) of one of the sale's refunds: certified once certified, as sent before. */
  @Get('invoice/credit-notes/:refundId.xml')
  async creditNote(@Owner() owner: OwnerIdentity, @Param('id') id: string, @Param('refundId') refundId: string, @Res() reply: FastifyReply): Promise<void> {
    const note = await this.documents.creditNote(owner.storeId, id, refundId);
    await reply
      .header('content-type', 'application/xml; charset=utf-8')
      .header('content-disposition', `inline; filename="nota-credito-${note.refund_id}.xml"`)
      .send(note.xml_certified ?? note.xml_sent);
  }

  @Post('invoice/retry')
  @HttpCode(200)
  async retry(@Owner() owner: OwnerIdentity, @Param('id') id: string): Promise<FelInvoiceView> {
    const view = await this.documents.retry(owner.storeId, id);
    this.outbox.wake();
    return view;
  }

  @Put('invoice/receiver')
  async receiver(@Owner() owner: OwnerIdentity, @Param('id') id: string, @Body() body: unknown): Promise<FelInvoiceView> {
    const view = await this.documents.correctReceiver(owner.storeId, id, parse(CorrectReceiverRequest, body ?? {}));
    this.outbox.wake();
    return view;
  }
}
