import { createServiceApp, parseConfig, type ServiceAppOptions } from '@tiendita/service-kit';
import { AppModule } from './app.module';
import { type CatalogConfig, catalogConfigShape } from './config';

/** How service-kit builds the catalog service (shared by main.ts and the tests). */
export function serviceOptions(config: CatalogConfig): ServiceAppOptions<CatalogConfig> {
  return { name: 'catalog', module: AppModule, config };
}

/** The catalog app, initialised but not listening: tests call app.inject() or app.listen({ port: 0 }). */
export async function createApp(env: Record<string, string | undefined> = process.env) {
  return createServiceApp(serviceOptions(parseConfig(catalogConfigShape, env)));
}
