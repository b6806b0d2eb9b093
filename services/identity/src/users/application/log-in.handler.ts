import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AuthMessages, type CurrentUser, type UserLoggedIn } from '@tiendita/contracts';
import { PG_POOL, UnauthorizedError } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { CLOCK, type Clock } from '../../shared/clock';
import { verifyPassword } from '../../shared/passwords';
import { LogInCommand } from './log-in.command';
import { loadUserByEmail } from './load-user';
import { LoginLog } from './login-log';

/**
 * A wrong e-mail and a wrong password get the same 401 body after the same argon2 work (an
 * unknown e-mail is checked against a dummy hash). A success appends UserLoggedIn to the user's
 * sign-in log (batched with other sign-ins by LoginLog), which the read model turns into lastLoginAt.
 */
@CommandHandler(LogInCommand)
export class LogInHandler implements ICommandHandler<LogInCommand> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly logins: LoginLog,
  ) {}

  async execute({ email, password, correlationId }: LogInCommand): Promise<CurrentUser> {
    const user = await loadUserByEmail(this.pool, email);
    const registered = user?.status === 'registered' ? user : null;
    const ok = await verifyPassword(registered?.passwordHash ?? null, password);
    if (!ok || !registered) throw new UnauthorizedError(AuthMessages.invalidCredentials);

    const data: UserLoggedIn = { userId: registered.userId, loggedInAt: this.clock.now().toISOString() };
    this.logins.record({ data, storeId: registered.storeId, correlationId });
    return {
      id: registered.userId,
      email: registered.email,
      firstName: registered.firstName,
      lastName: registered.lastName,
      profileImageUrl: null,
      storeId: registered.storeId,
    };
  }
}
