import { MAX_UPLOAD_BYTES } from '@tiendita/contracts';
import { createServiceApp, parseConfig, type ServiceAppOptions } from '@tiendita/service-kit';
import { AppModule } from './app.module';
import { type CatalogConfig, catalogConfigShape } from './config';
import { migrations } from './migrations';
import { CATALOG_SCHEMA } from './shared/tokens';

/** How service-kit builds the catalog service (shared by main.ts and the tests). */
export function serviceOptions(config: CatalogConfig): ServiceAppOptions<CatalogConfig> {
  return {
    name: 'catalog',
    module: AppModule,
    config,
    migrations: { schema: CATALOG_SCHEMA, list: migrations },
    configure: (app) => {
      // The raw file PUT to an upload URL: any content type arrives as a Buffer (the content, not
      // the declared type, decides whether it is an image), up to 10 MB; more answers 413.
      app.getHttpAdapter().getInstance().addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_request, body, done) => done(null, body));
    },
  };
}

/** The catalog app, initialised but not listening: tests call app.inject() or app.listen({ port: 0 }). */
export async function createApp(env: Record<string, string | undefined> = process.env) {
  return createServiceApp(serviceOptions(parseConfig(catalogConfigShape, env)));
}
