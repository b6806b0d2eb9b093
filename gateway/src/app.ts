import fastifyStatic from '@fastify/static';
import { createServiceApp, parseConfig, type ServiceAppOptions } from '@tiendita/service-kit';
import type { FastifyReply } from 'fastify';
import { existsSync } from 'node:fs';
import { AppModule } from './app.module';
import { type GatewayConfig, gatewayConfigShape } from './config';

/** How service-kit builds the gateway: no internal-caller guard (it is the edge), static web build. */
export function serviceOptions(config: GatewayConfig): ServiceAppOptions<GatewayConfig> {
  return {
    name: 'gateway',
    module: AppModule,
    config,
    internalAuth: false,
    configure: async (app) => {
      if (!existsSync(config.WEB_DIST_DIR)) return;
      // serve: false only adds reply.sendFile; WebController decides what each GET gets, so files
      // written by a later build are served without a restart.
      await app.register(fastifyStatic, {
        root: config.WEB_DIST_DIR,
        serve: false,
        preCompressed: true,
        setHeaders: (reply: FastifyReply, filePath: string) => {
          // Vite puts content-hashed names under assets/: cache them for good.
          reply.header('cache-control', filePath.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    },
  };
}

/** The gateway, initialised but not listening: tests call app.inject() or app.listen({ port: 0 }). */
export async function createApp(env: Record<string, string | undefined> = process.env) {
  return createServiceApp(serviceOptions(parseConfig(gatewayConfigShape, env)));
}
