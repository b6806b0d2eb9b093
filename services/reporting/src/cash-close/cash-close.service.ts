import { Inject, Injectable } from '@nestjs/common';
import { type CashCloseResponse, type CashCountRecorded, type RecordCashCountRequest } from '@tiendita/contracts';
import { PostgresEventStore, ValidationError } from '@tiendita/eventsourcing';
import { EVENT_STORE, type OwnerIdentity, ProjectionHost } from '@tiendita/service-kit';
import { ReportsService } from '../reports/reports.service';
import { gtDayHour } from '../shared/time';

/**
 * The daily cash close (corte de caja): the owner's counted cash for a day, kept as a
 * CashCountRecorded event in reporting's own event store; the latest count of a day wins.
 */
@Injectable()
export class CashCloseService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    private readonly host: ProjectionHost,
    private readonly reports: ReportsService,
  ) {}

  async record(owner: OwnerIdentity, body: RecordCashCountRequest): Promise<CashCloseResponse> {
    const today = gtDayHour(this.reports.now()).day;
    const date = body.date ?? today;
    if (date > today) throw new ValidationError('No se puede registrar el corte de un día futuro', { fields: { date: 'No se puede registrar el corte de un día futuro' } });
    const figures = await this.reports.cashFigures(owner.storeId, date);
    const data: CashCountRecorded = {
      storeId: owner.storeId,
      date,
      countedCash: Math.round(body.countedCash * 100),
      expectedCash: figures.expectedCash,
      note: body.note?.trim() ? body.note.trim() : null,
      recordedBy: owner.userId,
      recordedAt: this.reports.now().toISOString(),
    };
    const result = await this.store.append(`cash-close-${owner.storeId}-${date}`, [{ type: 'CashCountRecorded', data }], 'any', {
      storeId: owner.storeId,
      actor: owner.userId,
    });
    await this.host.waitForPosition(result.position, { projection: 'cash_counts' });
    return this.reports.cashClose(owner.storeId, date);
  }
}
