import { Module } from '@nestjs/common';
import { ErrorCode } from '@tiendita/contracts';
import { createPool, createServiceApp, parseConfig } from '@tiendita/service-kit';
import { testEnv } from '@tiendita/service-kit/testing';
import { freePort } from '../../../scripts/lib/free-ports.cjs';

@Module({})
class EmptyModule {}

/** A port nothing listens on (free below the ephemeral range, so no connection's source port either). */
const closedPort = freePort;

describe('GET /health', () => {
  it('answers 503 when the database cannot be reached', async () => {
    const url = `postgres://postgres@127.0.0.1:${await closedPort()}/nada`;
    const pool = createPool(url);
    const app = await createServiceApp({ name: 'sin-base', module: EmptyModule, config: parseConfig(undefined, testEnv(url)), pool });
    try {
      const res = await app.inject({ method: 'GET', url: '/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: 'Base de datos no disponible', code: ErrorCode.unavailable });
    } finally {
      await app.close();
      await pool.end();
    }
  });
});
