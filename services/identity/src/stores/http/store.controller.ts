import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  CreateStoreSettingsRequest,
  UpdateStoreRequest,
  UpdateStoreSettingsRequest,
  type PublicStoreView,
  type StoreSettingsDetails,
  type StoreView,
  type SubdomainAvailability,
} from '@tiendita/contracts';
import { Owner, parse, type OwnerIdentity } from '@tiendita/service-kit';
import { GetPublicStoreQuery } from '../application/get-public-store.query';
import { GetStoreQuery } from '../application/get-store.query';
import {
  CreateStoreSettingsCommand,
  GetStoreSettingsQuery,
  SubdomainAvailabilityQuery,
  UpdateStoreSettingsCommand,
} from '../application/store-settings.handlers';
import { UpdateStoreCommand } from '../application/update-store.handler';

const SETTINGS_FIELDS = Object.keys(UpdateStoreSettingsRequest.shape);

@Controller('api')
export class StoreController {
  constructor(
    private readonly queries: QueryBus,
    private readonly commands: CommandBus,
  ) {}

  /** The session's store: the tenant comes from the signed headers, never from the request. */
  @Get('store')
  store(@Owner() owner: OwnerIdentity): Promise<StoreView> {
    return this.queries.execute(new GetStoreQuery(owner.storeId, owner.userId));
  }

  /** The spec's create call: adds the settings record of a store that has none (409 when it has). */
  @Post('store')
  async create(@Owner() owner: OwnerIdentity, @Body() body: unknown): Promise<StoreView & { settings: StoreSettingsDetails }> {
    const input = parse(CreateStoreSettingsRequest, body ?? {});
    const settings = Object.fromEntries(Object.entries(input).filter(([k]) => SETTINGS_FIELDS.includes(k)));
    const store = Object.fromEntries(Object.entries(input).filter(([k]) => !SETTINGS_FIELDS.includes(k)));
    const { now } = await this.commands.execute(new CreateStoreSettingsCommand(owner, store, settings));
    const view = await this.queries.execute(new GetStoreQuery(owner.storeId, owner.userId));
    return { ...view, settings: await this.queries.execute(new GetStoreSettingsQuery(owner.storeId, now)) };
  }

  /** The settings record (taxRate, currency, receipts, kash/zigi) with its tax regime. */
  @Get('store/settings')
  settings(@Owner() owner: OwnerIdentity): Promise<StoreSettingsDetails> {
    return this.queries.execute(new GetStoreSettingsQuery(owner.storeId));
  }

  @Put('store/settings')
  async updateSettings(@Owner() owner: OwnerIdentity, @Body() body: unknown): Promise<StoreSettingsDetails> {
    const { now } = await this.commands.execute(new UpdateStoreSettingsCommand(owner, parse(UpdateStoreSettingsRequest, body ?? {})));
    return this.queries.execute(new GetStoreSettingsQuery(owner.storeId, now));
  }

  /** Whether a subdomain could be this store's (the settings form asks while the owner types). */
  @Get('store/subdomain-availability')
  availability(@Owner() owner: OwnerIdentity, @Query('subdomain') subdomain: unknown): Promise<SubdomainAvailability> {
    return this.queries.execute(new SubdomainAvailabilityQuery(owner.storeId, typeof subdomain === 'string' ? subdomain : ''));
  }

  /** The store's fields; only the owner's own id (any other answers 404). Answers the updated store. */
  @Put('store/:id')
  @HttpCode(200)
  async update(@Owner() owner: OwnerIdentity, @Param('id') id: string, @Body() body: unknown): Promise<StoreView> {
    const changes = parse(UpdateStoreRequest, body ?? {});
    const { changed, now } = await this.commands.execute(new UpdateStoreCommand(id, owner, changes));
    return this.queries.execute(new GetStoreQuery(owner.storeId, owner.userId, changed ? now : null));
  }

  /** An active store by subdomain, id or a subdomain it left less than 90 days ago; 404 'Tienda no encontrada' otherwise. */
  @Get('public/store/:store')
  publicStore(@Param('store') identifier: string): Promise<PublicStoreView> {
    return this.queries.execute(new GetPublicStoreQuery(identifier));
  }
}
