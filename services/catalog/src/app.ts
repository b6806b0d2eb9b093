import { MAX_UPLOAD_BYTES } from '@tiendita/contracts';
import { createServiceApp, parseConfig, type ServiceAppOptions } from '@tiendita/service-kit';
import { AppModule } from './app.module';
import { type CatalogConfig, catalogConfigShape } from './config';
import { migrations } from './migrations';
import { CATALOG_SCHEMA } from './shared/tokens';

/**
 * The catalog's connections plan each prepared statement once, generically. With the default
 * ('auto'), PostgreSQL keeps re-planning the shop's list query on every call (its generic plan
 * is estimated a little dearer because OFFSET is unknown), and planning costs more than running
 * it: forcing generic plans doubles the list's throughput.
 */
export function withGenericPlans(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  const options = url.searchParams.get('options');
  if (!options?.includes('plan_cache_mode')) url.searchParams.set('options', `${options ? `${options} ` : ''}-c plan_cache_mode=force_generic_plan`);
  return url.toString();
}

/** How service-kit builds the catalog service (shared by main.ts and the tests). */
export function serviceOptions(parsed: CatalogConfig): ServiceAppOptions<CatalogConfig> {
  const config = { ...parsed, DATABASE_URL: withGenericPlans(parsed.DATABASE_URL) };
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
