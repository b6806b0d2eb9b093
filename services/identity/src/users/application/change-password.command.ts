import { Command } from '@nestjs/cqrs';

/** The signed-in owner replaces their password, giving the current one; answers the user whose other sessions end. */
export class ChangePasswordCommand extends Command<{ userId: string }> {
  constructor(
    readonly userId: string,
    readonly storeId: string,
    readonly currentPassword: string,
    readonly newPassword: string,
    readonly correlationId: string | null = null,
  ) {
    super();
  }
}
