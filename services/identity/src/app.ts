import { createServiceApp, parseConfig, type ServiceAppOptions } from '@tiendita/service-kit';
import { AppModule } from './app.module';
import { type IdentityConfig, identityConfigShape } from './config';

/** How service-kit builds the identity service (shared by main.ts and the tests). */
export function serviceOptions(config: IdentityConfig): ServiceAppOptions<IdentityConfig> {
  return { name: 'identity', module: AppModule, config };
}

/** The identity app, initialised but not listening: tests call app.inject() or app.listen({ port: 0 }). */
export async function createApp(env: Record<string, string | undefined> = process.env) {
  return createServiceApp(serviceOptions(parseConfig(identityConfigShape, env)));
}
