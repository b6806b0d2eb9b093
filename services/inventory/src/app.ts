import { createServiceApp, parseConfig, type ServiceAppOptions } from '@tiendita/service-kit';
import { AppModule } from './app.module';
import { type InventoryConfig, inventoryConfigShape } from './config';

/** How service-kit builds the inventory service (shared by main.ts and the tests). */
export function serviceOptions(config: InventoryConfig): ServiceAppOptions<InventoryConfig> {
  return { name: 'inventory', module: AppModule, config };
}

/** The inventory app, initialised but not listening: tests call app.inject() or app.listen({ port: 0 }). */
export async function createApp(env: Record<string, string | undefined> = process.env) {
  return createServiceApp(serviceOptions(parseConfig(inventoryConfigShape, env)));
}
