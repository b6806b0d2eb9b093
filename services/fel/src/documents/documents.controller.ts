import { Controller, Get, Query, Res } from '@nestjs/common';
import { type FelDocumentsPage, FelMonth } from '@tiendita/contracts';
import { ValidationError } from '@tiendita/eventsourcing';
import { Owner, type OwnerIdentity, parse } from '@tiendita/service-kit';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { DocumentsService } from './documents.service';
import { monthlyBookCsv, monthlyBookXlsx } from './monthly-book';

const ExportQuery = z.object({ month: FelMonth, format: z.enum(['xlsx', 'csv'], { error: "Formato inválido: usa 'xlsx' o 'csv'." }).default('xlsx') });

/** The 'Facturas' list, its dashboard counts and the accountant's monthly book. */
@Controller('api/fel')
export class DocumentsController {
  constructor(private readonly documents: DocumentsService) {}

  @Get('documents')
  list(@Owner() owner: OwnerIdentity, @Query() query: Record<string, unknown>): Promise<FelDocumentsPage> {
    return this.documents.list(owner.storeId, query ?? {});
  }

  @Get('summary')
  summary(@Owner() owner: OwnerIdentity): Promise<{ pending: number; failed: number }> {
    return this.documents.summary(owner.storeId);
  }

  @Get('documents/export')
  async export(@Owner() owner: OwnerIdentity, @Query() query: unknown, @Res() reply: FastifyReply): Promise<void> {
    if (!query || typeof query !== 'object' || !('month' in query)) throw new ValidationError('Indica el mes: ?month=AAAA-MM');
    const { month, format } = parse(ExportQuery, query);
    const rows = await this.documents.month(owner.storeId, month);
    if (format === 'csv') {
      await reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="facturas-${month}.csv"`).send(monthlyBookCsv(rows));
      return;
    }
    await reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="facturas-${month}.xlsx"`)
      .send(await monthlyBookXlsx(rows, month));
  }
}
