import { AuthMessages, type PasswordChanged, type PasswordResetRequested, type UserEvent, type UserNameChanged, type UserRegistered } from '@tiendita/contracts';
import { assertNever, IllegalStateError, NotFoundError, ValidationError, type Decider } from '@tiendita/eventsourcing';

/** A reset link that may still be used: only its token's sha256 is known. */
export interface PendingReset {
  tokenHash: string;
  requestedAt: string;
  expiresAt: string;
}

/**
 * At most this many reset links are valid at once: a request while they are all still valid
 * appends nothing (the mails already sent carry working links), so no flood of requests makes
 * the stream or the state grow faster than this many events per link lifetime.
 */
export const MAX_PENDING_RESETS = 3;
/** A request this soon after the last one appends nothing either: its mail is on its way. */
export const RESET_REQUEST_INTERVAL_MS = 60 * 1000;

export type UserState =
  | { status: 'none' }
  | {
      status: 'registered';
      userId: string;
      email: string;
      firstName: string;
      lastName: string;
      passwordHash: string;
      storeId: string;
      pendingResets: PendingReset[];
    };

export type RegisterUser = {
  type: 'RegisterUser';
  data: { userId: string; email: string; passwordHash: string; firstName: string; lastName: string; storeId: string; now: string };
};
export type RequestPasswordReset = { type: 'RequestPasswordReset'; data: { tokenHash: string; expiresAt: string; now: string } };
export type ResetPassword = { type: 'ResetPassword'; data: { tokenHash: string; passwordHash: string; now: string } };
/** The owner's own change: the handler checked the current password against the stored hash (argon2 is async). */
export type ChangePassword = { type: 'ChangePassword'; data: { currentPasswordMatches: boolean; passwordHash: string; now: string } };
/** The owner's own name, already parsed (trimmed, 1 to 100 characters each). */
export type ChangeName = { type: 'ChangeName'; data: { firstName: string; lastName: string; now: string } };
export type UserCommand = RegisterUser | RequestPasswordReset | ResetPassword | ChangePassword | ChangeName;

export const initialUserState = (): UserState => ({ status: 'none' });

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered': {
      const d = event.data;
      return {
        status: 'registered',
        userId: d.userId,
        email: d.email,
        firstName: d.firstName,
        lastName: d.lastName,
        passwordHash: d.passwordHash,
        storeId: d.storeId,
        pendingResets: [],
      };
    }
    case 'PasswordResetRequested': {
      if (state.status !== 'registered') return state;
      const { tokenHash, requestedAt, expiresAt } = event.data;
      // Links expired by the time of this request leave the state, and only the newest few stay.
      const stillValid = state.pendingResets.filter((r) => Date.parse(r.expiresAt) > Date.parse(requestedAt));
      return { ...state, pendingResets: [...stillValid, { tokenHash, requestedAt, expiresAt }].slice(-MAX_PENDING_RESETS) };
    }
    case 'PasswordChanged':
      if (state.status !== 'registered') return state;
      // A new password ends every reset link still pending: each is single use, and older ones die too.
      return { ...state, passwordHash: event.data.passwordHash, pendingResets: [] };
    case 'UserNameChanged':
      if (state.status !== 'registered') return state;
      return { ...state, firstName: event.data.firstName, lastName: event.data.lastName };
    default:
      return state;
  }
}

function registerUser(command: RegisterUser['data'], state: UserState): UserEvent[] {
  if (state.status !== 'none') throw new IllegalStateError(AuthMessages.emailTaken);
  const data: UserRegistered = {
    userId: command.userId,
    email: command.email,
    passwordHash: command.passwordHash,
    firstName: command.firstName,
    lastName: command.lastName,
    storeId: command.storeId,
    registeredAt: command.now,
  };
  return [{ type: 'UserRegistered', data }];
}

/**
 * A new reset link, unless one was requested less than RESET_REQUEST_INTERVAL_MS ago or
 * MAX_PENDING_RESETS are still valid: then nothing is appended and no mail goes out.
 */
function requestPasswordReset(command: RequestPasswordReset['data'], state: UserState): UserEvent[] {
  if (state.status !== 'registered') throw new NotFoundError('Usuario no encontrado');
  const now = Date.parse(command.now);
  const valid = state.pendingResets.filter((r) => Date.parse(r.expiresAt) > now);
  if (valid.length >= MAX_PENDING_RESETS || valid.some((r) => now - Date.parse(r.requestedAt) < RESET_REQUEST_INTERVAL_MS)) return [];
  const data: PasswordResetRequested = { userId: state.userId, tokenHash: command.tokenHash, requestedAt: command.now, expiresAt: command.expiresAt };
  return [{ type: 'PasswordResetRequested', data }];
}

function resetPassword(command: ResetPassword['data'], state: UserState): UserEvent[] {
  const now = Date.parse(command.now);
  const valid = state.status === 'registered' && state.pendingResets.some((r) => r.tokenHash === command.tokenHash && Date.parse(r.expiresAt) > now);
  if (!valid || state.status !== 'registered') {
    throw new ValidationError(AuthMessages.invalidResetToken, { fields: { token: AuthMessages.invalidResetToken } });
  }
  const data: PasswordChanged = { userId: state.userId, passwordHash: command.passwordHash, changedAt: command.now, reason: 'reset' };
  return [{ type: 'PasswordChanged', data }];
}

function changePassword(command: ChangePassword['data'], state: UserState): UserEvent[] {
  if (state.status !== 'registered') throw new NotFoundError('Usuario no encontrado');
  if (!command.currentPasswordMatches) {
    throw new ValidationError(AuthMessages.currentPasswordWrong, { fields: { currentPassword: AuthMessages.currentPasswordWrong } });
  }
  const data: PasswordChanged = { userId: state.userId, passwordHash: command.passwordHash, changedAt: command.now, reason: 'change' };
  return [{ type: 'PasswordChanged', data }];
}

/** A new name; the same name again appends nothing. */
function changeName(command: ChangeName['data'], state: UserState): UserEvent[] {
  if (state.status !== 'registered') throw new NotFoundError('Usuario no encontrado');
  if (state.firstName === command.firstName && state.lastName === command.lastName) return [];
  const data: UserNameChanged = { userId: state.userId, firstName: command.firstName, lastName: command.lastName, changedAt: command.now };
  return [{ type: 'UserNameChanged', data }];
}

export function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'RegisterUser':
      return registerUser(command.data, state);
    case 'RequestPasswordReset':
      return requestPasswordReset(command.data, state);
    case 'ResetPassword':
      return resetPassword(command.data, state);
    case 'ChangePassword':
      return changePassword(command.data, state);
    case 'ChangeName':
      return changeName(command.data, state);
    default:
      return assertNever(command);
  }
}

/** The User aggregate: an owner account, its name, its password and its pending reset links. */
export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  initialState: initialUserState,
  evolve: evolveUser,
  decide: decideUser,
};
