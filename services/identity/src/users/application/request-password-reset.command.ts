import { Command } from '@nestjs/cqrs';

/**
 * Sends a reset link when the e-mail has an account, and does nothing otherwise: the caller
 * answers the same either way, at once (the work happens after the answer). The link is built
 * from PUBLIC_URL only, never from anything in the request.
 */
export class RequestPasswordResetCommand extends Command<void> {
  constructor(
    readonly email: string,
    readonly correlationId: string | null = null,
  ) {
    super();
  }
}
