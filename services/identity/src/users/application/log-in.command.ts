import { Command } from '@nestjs/cqrs';
import type { CurrentUser } from '@tiendita/contracts';

/** Checks an e-mail and password (the gateway's passport-local strategy calls it) and records the sign-in. */
export class LogInCommand extends Command<CurrentUser> {
  constructor(
    readonly email: string,
    readonly password: string,
    readonly correlationId: string | null = null,
  ) {
    super();
  }
}
