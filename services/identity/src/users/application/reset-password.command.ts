import { Command } from '@nestjs/cqrs';

/** Sets a new password with a reset link's token; answers the user whose sessions must end. */
export class ResetPasswordCommand extends Command<{ userId: string }> {
  constructor(
    readonly token: string,
    readonly password: string,
    readonly correlationId: string | null = null,
  ) {
    super();
  }
}
