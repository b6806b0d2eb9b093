import { createServiceApp, parseConfig, type ServiceAppOptions } from '@tiendita/service-kit';
import { AppModule } from './app.module';
import { type ReportingConfig, reportingConfigShape } from './config';

/** How service-kit builds the reporting service (shared by main.ts and the tests). */
export function serviceOptions(config: ReportingConfig): ServiceAppOptions<ReportingConfig> {
  return { name: 'reporting', module: AppModule, config };
}

/** The reporting app, initialised but not listening: tests call app.inject() or app.listen({ port: 0 }). */
export async function createApp(env: Record<string, string | undefined> = process.env) {
  return createServiceApp(serviceOptions(parseConfig(reportingConfigShape, env)));
}
