import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { PublicStoreView, StoreView } from '@tiendita/contracts';
import { Owner, type OwnerIdentity } from '@tiendita/service-kit';
import { GetPublicStoreQuery } from '../application/get-public-store.query';
import { GetStoreQuery } from '../application/get-store.query';

@Controller('api')
export class StoreController {
  constructor(private readonly queries: QueryBus) {}

  /** The session's store: the tenant comes from the signed headers, never from the request. */
  @Get('store')
  store(@Owner() owner: OwnerIdentity): Promise<StoreView> {
    return this.queries.execute(new GetStoreQuery(owner.storeId, owner.userId));
  }

  /** An active store by subdomain or id, for the public shop; 404 'Tienda no encontrada' otherwise. */
  @Get('public/store/:store')
  publicStore(@Param('store') identifier: string): Promise<PublicStoreView> {
    return this.queries.execute(new GetPublicStoreQuery(identifier));
  }
}
