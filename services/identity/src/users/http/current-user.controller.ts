import { Body, Controller, Get, Headers, Put } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { UpdateProfileRequest, type CurrentUser } from '@tiendita/contracts';
import { Owner, parse, type OwnerIdentity } from '@tiendita/service-kit';
import { ChangeNameCommand } from '../application/change-name.command';
import { GetCurrentUserQuery } from '../application/get-current-user.query';

@Controller('api/auth')
export class CurrentUserController {
  constructor(
    private readonly queries: QueryBus,
    private readonly commands: CommandBus,
  ) {}

  /** The signed-in owner (the gateway answers 401 itself when there is no session). */
  @Get('user')
  user(@Owner() owner: OwnerIdentity): Promise<CurrentUser> {
    return this.queries.execute(new GetCurrentUserQuery(owner.userId, owner.storeId));
  }

  /** The profile page's name change: first and last name, required, at most 100 characters each. */
  @Put('user')
  updateUser(@Owner() owner: OwnerIdentity, @Body() body: unknown, @Headers('x-request-id') requestId?: string): Promise<CurrentUser> {
    const { firstName, lastName } = parse(UpdateProfileRequest, body);
    return this.commands.execute(new ChangeNameCommand(owner.userId, owner.storeId, firstName, lastName, requestId ?? null));
  }
}
