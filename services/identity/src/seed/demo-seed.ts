import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { IllegalStateError } from '@tiendita/eventsourcing';
import { PG_POOL, SERVICE_LOGGER } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { IdentityConfig } from '../config';
import { IDENTITY_CONFIG } from '../shared/tokens-di';
import { RegisterOwnerCommand } from '../users/application/register-owner.command';

/** The demo owner of `npm start` (the README gives this login). */
export const DEMO_OWNER = { email: 'demo@tiendita.gt', password: 'Demo1234' } as const;

/**
 * With SEED_DEMO=1, registers the demo owner and the store 'demo' unless they exist. Safe to run
 * on every start and from several processes: the e-mail reservation lets only one through.
 */
@Injectable()
export class DemoSeed implements OnApplicationBootstrap {
  constructor(
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    private readonly commands: CommandBus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.SEED_DEMO !== '1') return;
    const exists = await this.pool.query('SELECT 1 FROM identity.email_reservations WHERE email = $1', [DEMO_OWNER.email]);
    if (exists.rowCount) return;
    try {
      const { store } = await this.commands.execute(
        new RegisterOwnerCommand({
          firstName: 'Demo',
          lastName: 'Tiendita',
          email: DEMO_OWNER.email,
          password: DEMO_OWNER.password,
          storeName: 'Tienda Demo',
          subdomain: 'demo',
          businessType: 'grocery',
          storeDescription: 'Abarrotes, granos básicos, lácteos y bebidas para el barrio. Pedidos por WhatsApp con entrega en la zona.',
          storePhone: '22223333',
          whatsappNumber: '50255555555',
          storeDepartment: 'Guatemala',
          storeAddress: '6a avenida 10-25, zona 1, Ciudad de Guatemala',
          businessHours: 'Lunes a sábado de 7:00 a 19:00; domingo de 8:00 a 13:00',
        }),
      );
      this.logger.info({ storeId: store.id }, `tienda demo creada: /demo, acceso ${DEMO_OWNER.email} / ${DEMO_OWNER.password}`);
    } catch (error) {
      if (error instanceof IllegalStateError) return; // another process seeded it first
      throw error;
    }
  }
}
