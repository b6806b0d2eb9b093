import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { PostgresEventStore } from '@tiendita/eventsourcing';
import { PG_POOL, SERVICE_CONFIG, SERVICE_LOGGER } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { IdentityConfig } from './config';
import { IDENTITY_SCHEMA } from './migrations';
import { IdentityReadModels } from './read-model/read-models';
import { DemoSeed } from './seed/demo-seed';
import { CLOCK, systemClock, type Clock } from './shared/clock';
import { configureArgon2, warmUpPasswords } from './shared/passwords';
import { EVENT_STORE, IDENTITY_CONFIG, RESET_MAILER } from './shared/tokens-di';
import { GetPublicStoreHandler } from './stores/application/get-public-store.query';
import { GetStoreHandler } from './stores/application/get-store.query';
import { StoreController } from './stores/http/store.controller';
import { GetCurrentUserHandler } from './users/application/get-current-user.query';
import { LogInHandler } from './users/application/log-in.handler';
import { LoginLog } from './users/application/login-log';
import { RegisterOwnerHandler } from './users/application/register-owner.handler';
import { RequestPasswordResetHandler } from './users/application/request-password-reset.handler';
import { ResetPasswordHandler } from './users/application/reset-password.handler';
import { CurrentUserController } from './users/http/current-user.controller';
import { InternalAuthController } from './users/http/internal-auth.controller';
import { ResetMailer } from './users/mail/reset-mail';

export interface IdentityModuleOptions {
  /** Replaces the system clock (tests move time to expire reset links). */
  clock?: Clock;
}

/** Root module of the identity service: accounts, stores, sessions' credentials, password resets. */
@Module({})
export class AppModule {
  static forRoot(options: IdentityModuleOptions = {}) {
    return {
      module: AppModule,
      imports: [CqrsModule.forRoot()],
      controllers: [InternalAuthController, CurrentUserController, StoreController],
      providers: [
        { provide: CLOCK, useValue: options.clock ?? systemClock },
        { provide: IDENTITY_CONFIG, useExisting: SERVICE_CONFIG },
        {
          provide: EVENT_STORE,
          inject: [PG_POOL, SERVICE_CONFIG],
          useFactory: async (pool: Pool, config: IdentityConfig) => {
            configureArgon2({ nice: config.ARGON2_NICE });
            await warmUpPasswords();
            return new PostgresEventStore(pool, IDENTITY_SCHEMA);
          },
        },
        {
          provide: RESET_MAILER,
          inject: [SERVICE_CONFIG, SERVICE_LOGGER],
          useFactory: (config: IdentityConfig, logger: Logger) =>
            new ResetMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR, logger }),
        },
        IdentityReadModels,
        RegisterOwnerHandler,
        LogInHandler,
        LoginLog,
        RequestPasswordResetHandler,
        ResetPasswordHandler,
        GetCurrentUserHandler,
        GetStoreHandler,
        GetPublicStoreHandler,
        DemoSeed,
      ],
    };
  }
}
