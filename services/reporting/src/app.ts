import { createServiceApp, parseConfig, type ServiceAppOptions } from '@tiendita/service-kit';
import { AppModule } from './app.module';
import { type ReportingConfig, reportingConfigShape } from './config';
import type { Clock } from './shared/clock';

export interface ReportingAppOptions {
  /** "Now" for the day and period edges (tests); the system clock by default. */
  clock?: Clock;
}

/** How service-kit builds the reporting service (shared by main.ts and the tests). */
export function serviceOptions(config: ReportingConfig, options: ReportingAppOptions = {}): ServiceAppOptions<ReportingConfig> {
  return { name: 'reporting', module: AppModule.register(options.clock), config };
}

/** The reporting app, initialised but not listening: tests call app.inject() or app.listen({ port: 0 }). */
export async function createApp(env: Record<string, string | undefined> = process.env, options: ReportingAppOptions = {}) {
  return createServiceApp(serviceOptions(parseConfig(reportingConfigShape, env), options));
}
