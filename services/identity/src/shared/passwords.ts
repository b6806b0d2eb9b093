import { hash, verify, type Options } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';

/**
 * argon2id with the smallest-memory of OWASP's equivalent minimum profiles (7 MiB, 5 passes, 1 lane).
 * Every profile of that list costs an attacker the same; this one fits the CPU cache best: on these
 * 2-core machines a verification takes ~11 ms of CPU against ~12.5 for 12 MiB × 3 and ~16.5 for
 * 19 MiB × 2, and logins are CPU-bound (npm run bench -- auth). Hashes keep their parameters, so
 * passwords hashed with an earlier profile still verify. @node-rs/argon2 runs it on the libuv
 * thread pool, so the event loop stays free while a hash is computed.
 */
// Algorithm is a const enum in the typings and an empty object at run time: 2 is Argon2id.
export const ARGON2_OPTIONS: Options = { algorithm: 2 as NonNullable<Options['algorithm']>, memoryCost: 7168, timeCost: 5, parallelism: 1 };

/**
 * At most one argon2 computation per CPU at a time. They are CPU-bound: more at once (libuv has 4
 * threads) only slows each one down and starves the event loop; the rest wait their turn.
 */
const slots = Math.max(1, availableParallelism());
let running = 0;
const waiting: (() => void)[] = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

export function hashPassword(password: string): Promise<string> {
  return limited(() => hash(password, ARGON2_OPTIONS));
}

// A hash of a random password with the same parameters: an unknown e-mail is checked against it,
// so a wrong e-mail costs about as long as a wrong password and the answer time tells nothing.
let dummyHash: Promise<string> | null = null;

function dummy(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(18).toString('base64url'));
  return dummyHash;
}

/** Checks a password against a stored hash; with no hash, spends the same work and answers false. */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (storedHash === null) {
    const fake = await dummy();
    await limited(() => verify(fake, password)).catch(() => false);
    return false;
  }
  try {
    return await limited(() => verify(storedHash, password));
  } catch {
    return false;
  }
}

/** Computes the dummy hash at start-up rather than on the first unknown e-mail. */
export async function warmUpPasswords(): Promise<void> {
  await dummy();
}
