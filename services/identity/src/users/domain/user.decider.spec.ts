import { AuthMessages, type UserEvent } from '@tiendita/contracts';
import { IllegalStateError, NotFoundError, ValidationError } from '@tiendita/eventsourcing';
import { deciderSpec } from '@tiendita/eventsourcing/testing';
import { userDecider, type UserCommand } from './user.decider';

const spec = deciderSpec(userDecider);
const userId = '7c1e6a1e-1111-4c1b-9a55-0c7f2d6f0001';
const storeId = '7c1e6a1e-2222-4c1b-9a55-0c7f2d6f0002';
const now = '2026-03-01T12:00:00.000Z';
const inOneHour = '2026-03-01T13:00:00.000Z';
const tokenHash = 'a'.repeat(64);

const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId, email: 'ana@example.com', passwordHash: '$argon2id$old', firstName: 'Ana', lastName: 'López', storeId, registeredAt: now },
};
const resetRequested: UserEvent = { type: 'PasswordResetRequested', data: { userId, tokenHash, requestedAt: now, expiresAt: inOneHour } };
const passwordChanged: UserEvent = { type: 'PasswordChanged', data: { userId, passwordHash: '$argon2id$new', changedAt: now, reason: 'reset' } };

const register: UserCommand = {
  type: 'RegisterUser',
  data: { userId, email: 'ana@example.com', passwordHash: '$argon2id$old', firstName: 'Ana', lastName: 'López', storeId, now },
};
const reset = (at: string, hash = tokenHash): UserCommand => ({ type: 'ResetPassword', data: { tokenHash: hash, passwordHash: '$argon2id$new', now: at } });

describe('User decider', () => {
  it('registers an owner account', () => {
    spec.given([]).when(register).then([registered]);
  });

  it('refuses to register the same account twice', () => {
    spec.given([registered]).when(register).thenThrows(IllegalStateError, AuthMessages.emailTaken);
  });

  it('records a reset request with the token hash only', () => {
    spec
      .given([registered])
      .when({ type: 'RequestPasswordReset', data: { tokenHash, expiresAt: inOneHour, now } })
      .then([resetRequested]);
  });

  it('does not accept a reset request for an account that does not exist', () => {
    spec.given([]).when({ type: 'RequestPasswordReset', data: { tokenHash, expiresAt: inOneHour, now } }).thenThrows(NotFoundError);
  });

  it('changes the password with a pending, unexpired token', () => {
    const lastSecond = '2026-03-01T12:59:59.000Z';
    spec
      .given([registered, resetRequested])
      .when(reset(lastSecond))
      .then([{ type: 'PasswordChanged', data: { ...passwordChanged.data, changedAt: lastSecond } } as UserEvent]);
  });

  it('refuses an expired token: El enlace de recuperación no es válido o ha expirado.', () => {
    spec.given([registered, resetRequested]).when(reset(inOneHour)).thenThrows(ValidationError, AuthMessages.invalidResetToken);
  });

  it('refuses a token used once already (single use)', () => {
    spec.given([registered, resetRequested, passwordChanged]).when(reset(now)).thenThrows(ValidationError, AuthMessages.invalidResetToken);
  });

  it('refuses an unknown token', () => {
    spec.given([registered, resetRequested]).when(reset(now, 'b'.repeat(64))).thenThrows(ValidationError, AuthMessages.invalidResetToken);
  });

  it('refuses a reset for an account that does not exist', () => {
    spec.given([]).when(reset(now)).thenThrows(ValidationError, AuthMessages.invalidResetToken);
  });

  it('a new password ends every other pending link too', () => {
    const second: UserEvent = { type: 'PasswordResetRequested', data: { userId, tokenHash: 'c'.repeat(64), requestedAt: now, expiresAt: inOneHour } };
    spec.given([registered, resetRequested, second, passwordChanged]).when(reset(now, 'c'.repeat(64))).thenThrows(ValidationError);
  });

  it('keeps an earlier link valid when another one is requested', () => {
    const second: UserEvent = { type: 'PasswordResetRequested', data: { userId, tokenHash: 'c'.repeat(64), requestedAt: now, expiresAt: inOneHour } };
    spec.given([registered, resetRequested, second]).when(reset(now)).then([passwordChanged]);
  });
});
