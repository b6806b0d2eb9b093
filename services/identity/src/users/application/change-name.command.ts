import { Command } from '@nestjs/cqrs';
import type { CurrentUser } from '@tiendita/contracts';

/** The signed-in owner renames themself on the profile page; answers the user as GET /api/auth/user then shows it. */
export class ChangeNameCommand extends Command<CurrentUser> {
  constructor(
    readonly userId: string,
    readonly storeId: string,
    readonly firstName: string,
    readonly lastName: string,
    readonly correlationId: string | null = null,
  ) {
    super();
  }
}
