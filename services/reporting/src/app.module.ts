import { type DynamicModule, Module } from '@nestjs/common';
import { EventSourcingModule } from '@tiendita/service-kit';
import { CashCloseService } from './cash-close/cash-close.service';
import { projections } from './projections';
import { ReportsController } from './reports/reports.controller';
import { ReportsService } from './reports/reports.service';
import { ReportLogos } from './reports/store-logos';
import { CLOCK, type Clock, systemClock } from './shared/clock';

export const REPORTING_SCHEMA = 'reporting';

/** Root module of the reporting service (GET /health comes from service-kit). */
@Module({})
export class AppModule {
  static register(clock: Clock = systemClock): DynamicModule {
    return {
      module: AppModule,
      imports: [EventSourcingModule.forService({ schema: REPORTING_SCHEMA, projections })],
      controllers: [ReportsController],
      providers: [{ provide: CLOCK, useValue: clock }, ReportsService, CashCloseService, ReportLogos],
    };
  }
}
