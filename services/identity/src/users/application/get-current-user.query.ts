import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AuthMessages, type CurrentUser } from '@tiendita/contracts';
import { PG_POOL, ProjectionHost, UnauthorizedError } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { READ_TABLES } from '../../read-model/read-models';

/** GET /api/auth/user: the signed-in owner, never a hash or a token. */
export class GetCurrentUserQuery extends Query<CurrentUser> {
  constructor(
    readonly userId: string,
    readonly storeId: string,
  ) {
    super();
  }
}

@QueryHandler(GetCurrentUserQuery)
export class GetCurrentUserHandler implements IQueryHandler<GetCurrentUserQuery> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly readModels: ProjectionHost,
  ) {}

  async execute({ userId, storeId }: GetCurrentUserQuery): Promise<CurrentUser> {
    // Just registered: the projection may be a few milliseconds behind the session.
    const user = await this.readModels.waitFor(() => this.find(userId, storeId));
    if (!user) throw new UnauthorizedError(AuthMessages.notAuthenticated);
    return user;
  }

  private async find(userId: string, storeId: string): Promise<CurrentUser | null> {
    const r = await this.pool.query<{ id: string; email: string; first_name: string; last_name: string; profile_image_url: string | null; store_id: string }>(
      `SELECT id, email, first_name, last_name, profile_image_url, store_id FROM ${READ_TABLES.users} WHERE id = $1 AND store_id = $2`,
      [userId, storeId],
    );
    const row = r.rows[0];
    if (!row) return null;
    return { id: row.id, email: row.email, firstName: row.first_name, lastName: row.last_name, profileImageUrl: row.profile_image_url, storeId: row.store_id };
  }
}
