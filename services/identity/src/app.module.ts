import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { redactIdentityEventData } from '@tiendita/contracts';
import type { PostgresEventStore } from '@tiendita/eventsourcing';
import { EVENT_STORE as KIT_EVENT_STORE, EventSourcingModule, SERVICE_CONFIG, SERVICE_LOGGER } from '@tiendita/service-kit';
import type { Logger } from 'pino';
import type { IdentityConfig } from './config';
import { IDENTITY_SCHEMA } from './migrations';
import { projections } from './projections';
import { DemoSeed } from './seed/demo-seed';
import { CLOCK, systemClock, type Clock } from './shared/clock';
import { configureArgon2, warmUpPasswords } from './shared/passwords';
import { EVENT_STORE, IDENTITY_CONFIG, RESET_MAILER } from './shared/tokens-di';
import { GetPublicStoreHandler } from './stores/application/get-public-store.query';
import { GetStoreHandler } from './stores/application/get-store.query';
import { StoreController } from './stores/http/store.controller';
import {
  CreateStoreSettingsHandler,
  GetStoreSettingsHandler,
  SubdomainAvailabilityHandler,
  UpdateStoreSettingsHandler,
} from './stores/application/store-settings.handlers';
import { SubscribeHandler, SubscriptionLinkHandler, SubscriptionMails } from './subscriptions/application/subscription-links';
import { CatalogUploadsClient } from './stores/application/catalog-uploads.client';
import { UpdateStoreHandler } from './stores/application/update-store.handler';
import {
  ExportSubscriptionsHandler,
  ListSubscriptionsHandler,
} from './subscriptions/application/subscription.handlers';
import { SubscriptionController } from './subscriptions/http/subscription.controller';
import { GetCurrentUserHandler } from './users/application/get-current-user.query';
import { LogInHandler } from './users/application/log-in.handler';
import { LoginLog } from './users/application/login-log';
import { RegisterOwnerHandler } from './users/application/register-owner.handler';
import { RequestPasswordResetHandler } from './users/application/request-password-reset.handler';
import { ChangePasswordHandler } from './users/application/change-password.handler';
import { ChangeNameHandler } from './users/application/change-name.handler';
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
      // With Kafka, identity's events go out to other services without their credential hashes.
      imports: [CqrsModule.forRoot(), EventSourcingModule.forService({ schema: IDENTITY_SCHEMA, projections, redact: redactIdentityEventData })],
      controllers: [InternalAuthController, CurrentUserController, StoreController, SubscriptionController],
      providers: [
        { provide: CLOCK, useValue: options.clock ?? systemClock },
        { provide: IDENTITY_CONFIG, useExisting: SERVICE_CONFIG },
        {
          // service-kit's event store, once the password hashing threads are set up.
          provide: EVENT_STORE,
          inject: [KIT_EVENT_STORE, SERVICE_CONFIG],
          useFactory: async (store: PostgresEventStore, config: IdentityConfig) => {
            configureArgon2({ nice: config.ARGON2_NICE });
            await warmUpPasswords();
            return store;
          },
        },
        {
          provide: RESET_MAILER,
          inject: [SERVICE_CONFIG, SERVICE_LOGGER],
          useFactory: (config: IdentityConfig, logger: Logger) =>
            new ResetMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR, logger }),
        },
        RegisterOwnerHandler,
        LogInHandler,
        LoginLog,
        RequestPasswordResetHandler,
        ResetPasswordHandler,
        ChangePasswordHandler,
        ChangeNameHandler,
        GetCurrentUserHandler,
        GetStoreHandler,
        GetPublicStoreHandler,
        UpdateStoreHandler,
        CatalogUploadsClient,
        GetStoreSettingsHandler,
        UpdateStoreSettingsHandler,
        CreateStoreSettingsHandler,
        SubdomainAvailabilityHandler,
        SubscriptionMails,
        SubscribeHandler,
        SubscriptionLinkHandler,
        ListSubscriptionsHandler,
        ExportSubscriptionsHandler,
        DemoSeed,
      ],
    };
  }
}
