import { Command } from '@nestjs/cqrs';

/**
 * Sends a reset link when the e-mail has an account, and does nothing otherwise: the caller
 * answers the same either way. `origin` builds the link when PUBLIC_URL is not set.
 */
export class RequestPasswordResetCommand extends Command<void> {
  constructor(
    readonly email: string,
    readonly origin: string | null,
    readonly correlationId: string | null = null,
  ) {
    super();
  }
}
