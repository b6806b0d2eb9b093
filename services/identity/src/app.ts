import { createServiceApp, parseConfig, type ServiceAppOptions } from '@tiendita/service-kit';
import { AppModule, type IdentityModuleOptions } from './app.module';
import { type IdentityConfig, identityConfigShape } from './config';
import { IDENTITY_SCHEMA, identityMigrations } from './migrations';

/** How service-kit builds the identity service (shared by main.ts and the tests). */
export function serviceOptions(config: IdentityConfig, options: IdentityModuleOptions = {}): ServiceAppOptions<IdentityConfig> {
  return {
    name: 'identity',
    module: AppModule.forRoot(options),
    config,
    migrations: { schema: IDENTITY_SCHEMA, list: identityMigrations },
  };
}

/** The identity app, initialised but not listening: tests call app.inject() or app.listen({ port: 0 }). */
export async function createApp(env: Record<string, string | undefined> = process.env, options: IdentityModuleOptions = {}) {
  return createServiceApp(serviceOptions(parseConfig(identityConfigShape, env), options));
}
