import { Module } from '@nestjs/common';
import { EventSourcingModule } from '@tiendita/service-kit';
import { DocumentsController } from './documents/documents.controller';
import { DocumentsService } from './documents/documents.service';
import { InternalInvoiceController } from './documents/internal-invoice.controller';
import { InvoiceController } from './documents/invoice.controller';
import { FelOutbox } from './documents/outbox';
import { IdentityStoresReaction } from './reactions/identity-stores.reaction';
import { OrderingOrdersReaction } from './reactions/ordering-orders.reaction';
import { SandboxHost } from './sandbox/sandbox-host';
import { FelSettingsController } from './settings/fel-settings.controller';
import { FelSettingsService } from './settings/fel-settings.service';
import { FEL_SCHEMA } from './shared/tokens';

/** Root module of the FEL service: settings, the documents' outbox, the reactions that feed it (GET /health comes from service-kit). */
@Module({
  imports: [EventSourcingModule.forService({ schema: FEL_SCHEMA, projections: [] })],
  controllers: [FelSettingsController, InvoiceController, InternalInvoiceController, DocumentsController],
  providers: [FelSettingsService, DocumentsService, SandboxHost, FelOutbox, OrderingOrdersReaction, IdentityStoresReaction],
})
export class AppModule {}
