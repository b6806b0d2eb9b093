import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { CurrentUser } from '@tiendita/contracts';
import { Owner, type OwnerIdentity } from '@tiendita/service-kit';
import { GetCurrentUserQuery } from '../application/get-current-user.query';

@Controller('api/auth')
export class CurrentUserController {
  constructor(private readonly queries: QueryBus) {}

  /** The signed-in owner (the gateway answers 401 itself when there is no session). */
  @Get('user')
  user(@Owner() owner: OwnerIdentity): Promise<CurrentUser> {
    return this.queries.execute(new GetCurrentUserQuery(owner.userId, owner.storeId));
  }
}
