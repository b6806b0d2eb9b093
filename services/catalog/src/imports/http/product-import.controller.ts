import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ImportConfirmRequest, type ImportConfirmResponse, ImportMessages, type ImportPreviewResponse } from '@tiendita/contracts';
import { ValidationError } from '@tiendita/eventsourcing';
import { Owner, type OwnerIdentity, parse } from '@tiendita/service-kit';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { templateCsv, templateXlsx } from '../application/import-template';
import { ProductImport } from '../application/product-import';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const TemplateQuery = z.object({ format: z.enum(['csv', 'xlsx']).default('xlsx') });
const PreviewQuery = z.object({ fileName: z.string().max(255).optional() });

/**
 * The Products page's import (issue 12): GET template?format=xlsx|csv, POST preview with the raw
 * file as the body (nothing is written), then POST /api/products/import with the rows to apply, in
 * chunks. Under /api/products, so the gateway routes it to catalog with the owner's session.
 */
@Controller('api/products/import')
export class ProductImportController {
  constructor(private readonly imports: ProductImport) {}

  @Get('template')
  async template(@Owner() _owner: OwnerIdentity, @Query() query: unknown, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const { format } = parse(TemplateQuery, query);
    const file = format === 'csv' ? templateCsv() : await templateXlsx();
    return reply
      .header('content-disposition', `attachment; filename="plantilla-productos.${format}"`)
      .header('cache-control', 'no-store')
      .type(format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_TYPE)
      .send(file);
  }

  @Post('preview')
  @HttpCode(200)
  preview(@Owner() owner: OwnerIdentity, @Body() body: unknown, @Query() query: unknown): Promise<ImportPreviewResponse> {
    const { fileName } = parse(PreviewQuery, query);
    // Any content type arrives as bytes (catalog's '*' parser), text/plain as a string; a JSON body is not a file.
    const file = Buffer.isBuffer(body) ? body : typeof body === 'string' ? Buffer.from(body, 'utf8') : null;
    if (body === undefined || body === null || file?.length === 0) throw new ValidationError(ImportMessages.noFile, { fields: { file: ImportMessages.noFile } });
    if (!file) throw new ValidationError(ImportMessages.notSpreadsheet, { fields: { file: ImportMessages.notSpreadsheet } });
    return this.imports.preview(owner.storeId, file, fileName ?? null);
  }

  @Post()
  @HttpCode(200)
  confirm(@Owner() owner: OwnerIdentity, @Body() body: unknown): Promise<ImportConfirmResponse> {
    return this.imports.apply(owner, parse(ImportConfirmRequest, body ?? {}));
  }
}
