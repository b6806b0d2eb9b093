import { Controller, Get, Param } from '@nestjs/common';
import { type FelInvoiceView } from '@tiendita/contracts';
import { Caller, type CallerIdentity, UnauthorizedError } from '@tiendita/service-kit';
import { DocumentsService } from './documents.service';

/**
 * An order's invoice for another service (ordering's PDF receipt, also the one a customer opens by its
 * signed link, with no user): the store comes from the signed call. Not routed by the gateway.
 */
@Controller('internal/orders/:id')
export class InternalInvoiceController {
  constructor(private readonly documents: DocumentsService) {}

  @Get('invoice')
  invoice(@Caller() caller: CallerIdentity, @Param('id') id: string): Promise<FelInvoiceView> {
    if (!caller.storeId) throw new UnauthorizedError('No autenticado');
    return this.documents.invoice(caller.storeId, id);
  }
}
