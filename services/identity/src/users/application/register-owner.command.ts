import { Command } from '@nestjs/cqrs';
import type { CurrentUser, RegisterRequest } from '@tiendita/contracts';

/** Extra store fields the public form does not ask for (the demo seed sets them). */
export interface RegisterExtras {
  businessHours?: string;
  website?: string;
  storeEmail?: string;
}

export interface RegisterOwnerResult {
  user: CurrentUser;
  store: { id: string; name: string; subdomain: string };
}

/** Creates the owner's account and the store together: one transaction, both unique values reserved. */
export class RegisterOwnerCommand extends Command<RegisterOwnerResult> {
  constructor(
    readonly input: RegisterRequest & RegisterExtras,
    readonly correlationId: string | null = null,
  ) {
    super();
  }
}
