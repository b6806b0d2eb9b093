import { Body, Controller, Get, HttpCode, Inject, Post, Query, Res } from '@nestjs/common';
import { CashCloseDate, type CashCloseResponse, RecordCashCountRequest, ReportPeriod, type ReportResponse, type SalesInsightsResponse, type StatsResponse } from '@tiendita/contracts';
import { Owner, type OwnerIdentity, parse, PG_POOL } from '@tiendita/service-kit';
import type { FastifyReply } from 'fastify';
import type { Pool } from 'pg';
import { z } from 'zod';
import { CashCloseService } from '../cash-close/cash-close.service';
import { gtDayHour } from '../shared/time';
import { type ExportInput, reportXlsx } from './exports';
import { reportPdf } from './report-pdf';
import { salesInsights } from './insights';
import { ReportsService } from './reports.service';
import { ReportLogos } from './store-logos';

const PeriodQuery = z.object({ period: ReportPeriod.default('today') });
const DateQuery = z.object({ date: CashCloseDate.optional() });

/** The owner's read side: stats, reports and their exports, the cash close, the sales analysis. */
@Controller('api')
export class ReportsController {
  constructor(
    private readonly reports: ReportsService,
    private readonly cashClose: CashCloseService,
    private readonly logos: ReportLogos,
    @Inject(PG_POOL) private readonly pool: Pool,
  ) {}

  @Get('stats')
  stats(@Owner() owner: OwnerIdentity): Promise<StatsResponse> {
    return this.reports.stats(owner.storeId);
  }

  @Get('reports')
  report(@Owner() owner: OwnerIdentity, @Query() query: unknown): Promise<ReportResponse> {
    return this.reports.report(owner.storeId, parse(PeriodQuery, query ?? {}).period);
  }

  @Get('reports/cash-close')
  getCashClose(@Owner() owner: OwnerIdentity, @Query() query: unknown): Promise<CashCloseResponse> {
    const date = parse(DateQuery, query ?? {}).date ?? gtDayHour(this.reports.now()).day;
    return this.cashClose.close(owner.storeId, date);
  }

  @Post('reports/cash-close')
  @HttpCode(201)
  recordCashClose(@Owner() owner: OwnerIdentity, @Body() body: unknown): Promise<CashCloseResponse> {
    return this.cashClose.record(owner, parse(RecordCashCountRequest, body ?? {}));
  }

  @Get('reports/export.xlsx')
  async xlsx(@Owner() owner: OwnerIdentity, @Query() query: unknown, @Res() reply: FastifyReply): Promise<void> {
    const input = await this.exportInput(owner.storeId, parse(PeriodQuery, query ?? {}).period);
    const file = await reportXlsx(input);
    await reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="reporte-${input.report.period}-${input.report.to}.xlsx"`)
      .send(file);
  }

  @Get('reports/export.pdf')
  async pdf(@Owner() owner: OwnerIdentity, @Query() query: unknown, @Res() reply: FastifyReply): Promise<void> {
    const input = await this.exportInput(owner.storeId, parse(PeriodQuery, query ?? {}).period);
    const file = await reportPdf(input);
    await reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="reporte-${input.report.period}-${input.report.to}.pdf"`)
      .send(file);
  }

  // Not cached by the browser: the dashboard keeps it 5 minutes itself and asks again right after a sale.
  @Get('ai/sales-insights')
  async insights(@Owner() owner: OwnerIdentity): Promise<SalesInsightsResponse> {
    const [week, stats] = await Promise.all([this.reports.report(owner.storeId, 'week'), this.reports.stats(owner.storeId)]);
    return salesInsights(week, stats);
  }

  private async exportInput(storeId: string, period: ReportPeriod): Promise<ExportInput> {
    const report = await this.reports.report(storeId, period);
    const [orders, store] = await Promise.all([
      this.reports.recentOrders(storeId, report.from, report.to, null),
      this.pool.query<{ name: string; logo_url: string | null; primary_color: string | null }>('SELECT name, logo_url, primary_color FROM reporting.stores WHERE store_id = $1', [storeId]),
    ]);
    const s = store.rows[0];
    return { report, orders, storeName: s?.name ?? 'Mi tienda', generatedAt: this.reports.now().toISOString(), color: s?.primary_color ?? null, logo: await this.logos.read(s?.logo_url, storeId) };
  }
}
