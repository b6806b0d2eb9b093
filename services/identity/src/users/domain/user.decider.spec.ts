import { AuthMessages, type UserEvent } from '@tiendita/contracts';
import { IllegalStateError, NotFoundError, ValidationError } from '@tiendita/eventsourcing';
import { deciderSpec } from '@tiendita/eventsourcing/testing';
import { fold } from '@tiendita/eventsourcing';
import { MAX_PENDING_RESETS, userDecider, type UserCommand } from './user.decider';

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
const requestReset = (at: string, hash = tokenHash): UserCommand => ({
  type: 'RequestPasswordReset',
  data: { tokenHash: hash, expiresAt: new Date(Date.parse(at) + 60 * 60 * 1000).toISOString(), now: at },
});
/** The PasswordResetRequested that `requestReset(at, hash)` records. */
const requested = (at: string, hash = tokenHash): UserEvent => ({
  type: 'PasswordResetRequested',
  data: { userId, tokenHash: hash, requestedAt: at, expiresAt: new Date(Date.parse(at) + 60 * 60 * 1000).toISOString() },
});
const minutesAfter = (minutes: number) => new Date(Date.parse(now) + minutes * 60 * 1000).toISOString();
const hash = (n: number) => n.toString(16).padStart(64, '0');
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

  describe('repeated reset requests do not grow the stream or the state without bound', () => {
    it('appends nothing for a request within a minute of the last one (its mail is on its way)', () => {
      spec.given([registered, resetRequested]).when(requestReset(minutesAfter(0.5), hash(1))).then([]);
    });

    it('records a new link a minute after the last one', () => {
      spec.given([registered, resetRequested]).when(requestReset(minutesAfter(1), hash(1))).then([requested(minutesAfter(1), hash(1))]);
    });

    it(`appends nothing while ${MAX_PENDING_RESETS} links are still valid, and again once the oldest has expired`, () => {
      const three = [requested(now, hash(1)), requested(minutesAfter(5), hash(2)), requested(minutesAfter(10), hash(3))];
      spec.given([registered, ...three]).when(requestReset(minutesAfter(30), hash(4))).then([]);
      spec.given([registered, ...three]).when(requestReset(minutesAfter(61), hash(4))).then([requested(minutesAfter(61), hash(4))]);
    });

    it('drops expired links from the state: a day of requests leaves only the ones still valid', () => {
      const hashes = Array.from({ length: 24 * 6 }, (_, i) => hash(i));
      const state = fold(userDecider, [registered, ...hashes.map((h, i) => requested(minutesAfter(i * 10), h))]);
      expect(state.status === 'registered' && state.pendingResets.map((r) => r.tokenHash)).toEqual(hashes.slice(-MAX_PENDING_RESETS));
    });

    it('keeps only the newest links of an old stream that had more requests than allowed', () => {
      const burst = Array.from({ length: 50 }, (_, i) => requested(now, hash(i)));
      spec.given([registered, ...burst]).when(reset(minutesAfter(1), hash(0))).thenThrows(ValidationError, AuthMessages.invalidResetToken);
      spec.given([registered, ...burst]).when(reset(minutesAfter(1), hash(49))).then([{ type: 'PasswordChanged', data: { ...passwordChanged.data, changedAt: minutesAfter(1) } } as UserEvent]);
    });

    it('a new password clears the way for a new link at once', () => {
      spec.given([registered, resetRequested, passwordChanged]).when(requestReset(minutesAfter(0.5), hash(1))).then([requested(minutesAfter(0.5), hash(1))]);
    });
  });

  describe('ChangePassword (the profile page)', () => {
    const change = (matches: boolean): UserCommand => ({ type: 'ChangePassword', data: { currentPasswordMatches: matches, passwordHash: '$argon2id$new', now } });

    it('records the new password when the current one matched, and ends pending reset links', () => {
      spec.given([registered, resetRequested]).when(change(true)).then([{ type: 'PasswordChanged', data: { ...passwordChanged.data, reason: 'change' } } as UserEvent]);
      const state = fold(userDecider, [registered, resetRequested, { type: 'PasswordChanged', data: { ...passwordChanged.data, reason: 'change' } } as UserEvent]);
      expect(state.status === 'registered' && state.pendingResets).toEqual([]);
    });

    it('refuses a wrong current password in Spanish', () => {
      spec.given([registered]).when(change(false)).thenThrows(ValidationError, AuthMessages.currentPasswordWrong);
    });

    it('refuses an unknown user', () => {
      spec.given([]).when(change(true)).thenThrows(NotFoundError, 'Usuario no encontrado');
    });
  });
});

describe('User decider: the owner changes their name (profile)', () => {
  const changeName = (firstName: string, lastName: string): UserCommand => ({ type: 'ChangeName', data: { firstName, lastName, now: minutesAfter(5) } });

  it('records the new first and last name', () => {
    spec
      .given([registered])
      .when(changeName('Ana María', 'López de León'))
      .then([{ type: 'UserNameChanged', data: { userId, firstName: 'Ana María', lastName: 'López de León', changedAt: minutesAfter(5) } }]);
  });

  it('appends nothing when the name is the same', () => {
    spec.given([registered]).when(changeName('Ana', 'López')).then([]);
  });

  it('folds the new name into the account', () => {
    const renamed: UserEvent = { type: 'UserNameChanged', data: { userId, firstName: 'Rosa', lastName: 'Pérez', changedAt: now } };
    const state = fold(userDecider, [registered, renamed]);
    expect(state).toMatchObject({ status: 'registered', firstName: 'Rosa', lastName: 'Pérez', email: 'ana@example.com' });
  });

  it('refuses a name change for an account that does not exist', () => {
    spec.given([]).when(changeName('Ana', 'López')).thenThrows(NotFoundError);
  });
});
