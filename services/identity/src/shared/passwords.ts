import type { Options } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * argon2id with the smallest-memory of OWASP's equivalent minimum profiles (7 MiB, 5 passes, 1 lane).
 * Every profile of that list costs an attacker the same; this one fits the CPU cache best: on these
 * 2-core machines a verification takes ~11 ms of CPU against ~12.5 for 12 MiB × 3 and ~16.5 for
 * 19 MiB × 2, and logins are CPU-bound (npm run bench -- auth). Hashes keep their parameters, so
 * passwords hashed with an earlier profile still verify.
 */
// Algorithm is a const enum in the typings and an empty object at run time: 2 is Argon2id.
export const ARGON2_OPTIONS: Options = { algorithm: 2 as NonNullable<Options['algorithm']>, memoryCost: 7168, timeCost: 5, parallelism: 1 };

/**
 * The argon2 threads run at a lower priority than the rest of the process: ARGON2_NICE (10 unless
 * set) added to its Linux nice value, up to 19. Hashing is most of a login's CPU and nobody waits
 * on one hash in particular, while every event loop on the machine (gateway, services,
 * PostgreSQL) answers someone: a burst of logins takes the CPU those leave idle instead of
 * delaying them. Set at start-up (configureArgon2), before the first thread starts; 0 keeps the
 * same priority.
 */
let nice = 10;

export function configureArgon2(options: { nice: number }): void {
  nice = options.nice;
}

// The worker: argon2 synchronously on its own thread, which first lowers its own priority
// (setpriority on a thread id changes only that thread on Linux; where that fails it is skipped).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const argon2 = require(workerData.argon2);
if (workerData.nice > 0) {
  try {
    const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
    const os = require('node:os');
    os.setPriority(tid, Math.min(19, os.getPriority(tid) + workerData.nice));
  } catch {}
}
parentPort.on('message', ({ op, password, hash, options }) => {
  try {
    parentPort.postMessage({ result: op === 'hash' ? argon2.hashSync(password, options) : argon2.verifySync(hash, password) });
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.message) || error) });
  }
});`;

type Job = { op: 'hash'; password: string; options: Options } | { op: 'verify'; hash: string; password: string };

interface Slot {
  worker: Worker;
  settle: ((outcome: { result?: string | boolean; error?: string }) => void) | null;
}

/**
 * One argon2 thread per CPU, and a queue in front of them. They are CPU-bound: more at once only
 * slows each one down; the rest wait their turn, in order.
 */
class Argon2Pool {
  private readonly slots: Slot[] = [];
  private readonly idle: Slot[] = [];
  private readonly queue: { job: Job; resolve: (v: string | boolean) => void; reject: (e: Error) => void }[] = [];

  constructor(private readonly size: number) {}

  run(job: Job): Promise<string | boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.idle.pop() ?? (this.slots.length < this.size ? this.spawn() : null);
      if (!slot) return;
      const { job, resolve, reject } = this.queue.shift()!;
      slot.settle = (outcome) => {
        slot.settle = null;
        slot.worker.unref();
        if (this.slots.includes(slot)) this.idle.push(slot);
        if (outcome.error !== undefined) reject(new Error(outcome.error));
        else resolve(outcome.result!);
        this.dispatch();
      };
      // A job in flight keeps the process alive until its answer; an idle thread never does.
      slot.worker.ref();
      slot.worker.postMessage(job);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { argon2: require.resolve('@node-rs/argon2'), nice } });
    const slot: Slot = { worker, settle: null };
    worker.on('message', (outcome: { result?: string | boolean; error?: string }) => slot.settle?.(outcome));
    // A thread that dies takes only its own job with it; the next job starts a new one.
    const drop = (error: Error) => {
      const index = this.slots.indexOf(slot);
      if (index < 0) return; // 'error' and then 'exit': dropped once
      this.slots.splice(index, 1);
      const at = this.idle.indexOf(slot);
      if (at >= 0) this.idle.splice(at, 1);
      slot.settle?.({ error: error.message });
    };
    worker.on('error', drop);
    worker.on('exit', (code) => drop(new Error(`el hilo de argon2 terminó (código ${code})`)));
    // After the listeners: adding a 'message' listener refs the worker again.
    worker.unref();
    this.slots.push(slot);
    return slot;
  }
}

const pool = new Argon2Pool(Math.max(1, availableParallelism()));

export async function hashPassword(password: string): Promise<string> {
  return (await pool.run({ op: 'hash', password, options: ARGON2_OPTIONS })) as string;
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
    await pool.run({ op: 'verify', hash: fake, password }).catch(() => false);
    return false;
  }
  try {
    return (await pool.run({ op: 'verify', hash: storedHash, password })) === true;
  } catch {
    return false;
  }
}

/** Computes the dummy hash at start-up (and starts an argon2 thread) rather than on the first login. */
export async function warmUpPasswords(): Promise<void> {
  await dummy();
}
