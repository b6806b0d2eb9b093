import { Inject } from '@nestjs/common';
import { CommandHandler, QueryBus, type ICommandHandler } from '@nestjs/cqrs';
import { IdentityStreams, type CurrentUser } from '@tiendita/contracts';
import { handleCommand, NotFoundError, type PostgresEventStore } from '@tiendita/eventsourcing';
import { ProjectionHost } from '@tiendita/service-kit';
import { CLOCK, type Clock } from '../../shared/clock';
import { EVENT_STORE } from '../../shared/tokens-di';
import { userDecider } from '../domain/user.decider';
import { ChangeNameCommand } from './change-name.command';
import { GetCurrentUserQuery } from './get-current-user.query';
import { loadUser } from './load-user';

/**
 * Records the owner's new name (the decider appends nothing for the same name), then answers once
 * the read model shows it, so the next GET /api/auth/user has the new name too.
 */
@CommandHandler(ChangeNameCommand)
export class ChangeNameHandler implements ICommandHandler<ChangeNameCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: PostgresEventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly readModels: ProjectionHost,
    private readonly queries: QueryBus,
  ) {}

  async execute({ userId, storeId, firstName, lastName, correlationId }: ChangeNameCommand): Promise<CurrentUser> {
    const user = await loadUser(this.events, userId);
    if (user.status !== 'registered' || user.storeId !== storeId) throw new NotFoundError('Usuario no encontrado');
    const at = this.clock.now().toISOString();
    const { position } = await handleCommand(
      this.events,
      IdentityStreams.user(userId),
      userDecider,
      { type: 'ChangeName', data: { firstName, lastName, now: at } },
      { metadata: { storeId, actor: userId, correlationId, occurredAt: at } },
    );
    await this.readModels.waitForPosition(position, { streamId: IdentityStreams.user(userId) });
    const current = await this.queries.execute(new GetCurrentUserQuery(userId, storeId));
    // The read model answers after at most a few seconds even when it lags: the reply carries the name just saved.
    return { ...current, firstName, lastName };
  }
}
