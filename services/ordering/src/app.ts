import { createServiceApp, parseConfig, type ServiceAppOptions } from '@tiendita/service-kit';
import { AppModule } from './app.module';
import { type OrderingConfig, orderingConfigShape } from './config';
import { migrations } from './migrations';

/** How service-kit builds the ordering service (shared by main.ts and the tests). */
export function serviceOptions(config: OrderingConfig): ServiceAppOptions<OrderingConfig> {
  return { name: 'ordering', module: AppModule, config, migrations: { schema: 'ordering', list: migrations } };
}

/** The ordering app, initialised but not listening: tests call app.inject() or app.listen({ port: 0 }). */
export async function createApp(env: Record<string, string | undefined> = process.env) {
  return createServiceApp(serviceOptions(parseConfig(orderingConfigShape, env)));
}
