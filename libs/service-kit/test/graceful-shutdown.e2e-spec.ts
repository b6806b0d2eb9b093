import { Controller, Get, Injectable, Module, type OnModuleDestroy } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ErrorCode } from '@tiendita/contracts';
import { createServiceApp, drainServer, parseConfig } from '@tiendita/service-kit';
import { createTestDatabase, type TestDatabase, testEnv } from '@tiendita/service-kit/testing';
import { Client } from 'undici';

/** What a service's internal client is to a checkout: usable until its module is destroyed. */
@Injectable()
class Upstream implements OnModuleDestroy {
  destroyed = false;
  async call(): Promise<string> {
    await new Promise((r) => setTimeout(r, 400));
    if (this.destroyed) throw new Error('ClientDestroyedError: the client is destroyed');
    return 'guardado';
  }
  onModuleDestroy(): void {
    this.destroyed = true;
  }
}

@Controller('t')
class SlowController {
  constructor(private readonly upstream: Upstream) {}
  @Get('slow')
  async slow() {
    return { result: await this.upstream.call() };
  }
  @Get('quick')
  quick() {
    return { ok: true };
  }
}

@Module({ controllers: [SlowController], providers: [Upstream] })
class SlowModule {}

let db: TestDatabase;
let app: NestFastifyApplication;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await createServiceApp({ name: 'prueba', module: SlowModule, config: parseConfig(undefined, testEnv(db.url)), internalAuth: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await db?.drop();
});

describe('a closing service drains before it closes its clients', () => {
  it('answers the request in flight, refuses new connections, answers a late request in Spanish, then closes', async () => {
    const { port } = app.getHttpServer().address() as { port: number };
    const client = new Client(`http://127.0.0.1:${port}`);
    const inFlight = client.request({ method: 'GET', path: '/t/slow' });
    await new Promise((r) => setTimeout(r, 100));
    const draining = drainServer(app);

    // A request that still reaches the process (here injected: a keep-alive connection's) is a Spanish 503.
    const late = await app.inject({ method: 'GET', url: '/t/quick' });
    expect(late.statusCode).toBe(503);
    expect(late.headers.connection).toBe('close');
    expect(late.json()).toEqual({ message: 'Servicio no disponible, inténtalo de nuevo en un momento', code: ErrorCode.unavailable });
    // No new connection is accepted (the gateway answers that as its own Spanish 503).
    const refused = new Client(`http://127.0.0.1:${port}`);
    await expect(refused.request({ method: 'GET', path: '/t/quick' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await refused.close().catch(() => undefined);

    // The request in flight is answered with what its client did: the client was not closed under it.
    const first = await inFlight;
    expect(first.statusCode).toBe(200);
    expect(await first.body.json()).toEqual({ result: 'guardado' });
    await draining;
    await app.close();
    expect(app.get(Upstream).destroyed).toBe(true);
    await client.close().catch(() => undefined);
  });
});
