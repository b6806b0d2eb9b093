import { createServiceApp, parseConfig, type ServiceAppOptions } from '@tiendita/service-kit';
import { AppModule } from './app.module';
import { type FelConfig, felConfigShape } from './config';
import { migrations } from './migrations';
import { FEL_SCHEMA } from './shared/tokens';

/** How service-kit builds the FEL service (shared by main.ts and the tests). */
export function serviceOptions(config: FelConfig): ServiceAppOptions<FelConfig> {
  return { name: 'fel', module: AppModule, config, migrations: { schema: FEL_SCHEMA, list: migrations } };
}

/** The FEL app, initialised but not listening: tests call app.inject() or app.listen({ port: 0 }). */
export async function createApp(env: Record<string, string | undefined> = process.env) {
  return createServiceApp(serviceOptions(parseConfig(felConfigShape, env)));
}
