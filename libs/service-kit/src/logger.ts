import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';

/** What a hidden value is replaced with in logs. */
export const REDACTED = '[oculto]';

// Query parameters and JSON fields whose value is a credential: token, resetToken, uploadToken,
// password, confirmPassword, secret, signature…
const SECRET_NAME = String.raw`[A-Za-z0-9_.-]*(?:token|password|secret|signature)`;
const SECRET_QUERY = new RegExp(String.raw`([?&;]${SECRET_NAME}=)[^&#\s"'<>]*`, 'gi');
const SECRET_JSON = new RegExp(String.raw`("${SECRET_NAME}"\s*:\s*")(?:[^"\\]|\\.)*`, 'gi');
// The upload URL is a bearer token in the path: PUT /api/upload/direct/{token}.
const SECRET_PATH = /(\/api\/upload\/direct\/)[^/?#\s"'<>]+/gi;
const SECRET_KEY = /token|password|secret|signature|authorization|cookie/i;

/** Hides credentials in a text: `token=…` style query values, `"password": "…"` in JSON, upload URLs. */
export function redactSecrets(text: string): string {
  if (!/token|password|secret|signature|upload\/direct/i.test(text)) return text;
  return text.replace(SECRET_QUERY, `$1${REDACTED}`).replace(SECRET_JSON, `$1${REDACTED}`).replace(SECRET_PATH, `$1${REDACTED}`);
}

/**
 * A copy of a log line's fields with every credential hidden: values under a key that names one
 * (token, password, cookie, authorization…), and inside every string (URLs, messages, stacks).
 * Errors become pino's plain { type, message, stack } first, so their text is scrubbed too.
 */
export function redactLogFields(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (seen.has(value)) return value;
  seen.add(value);
  if (value instanceof Error) return redactLogFields(pino.stdSerializers.err(value), depth + 1, seen);
  if (Array.isArray(value)) return value.map((item) => redactLogFields(item, depth + 1, seen));
  if (Buffer.isBuffer(value) || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) && (typeof item === 'string' || typeof item === 'number') ? REDACTED : redactLogFields(item, depth + 1, seen);
  }
  return out;
}

/**
 * One structured JSON logger per process; `service` is on every line. Reset tokens, upload
 * tokens and passwords never reach the output: every line's fields and message go through
 * redactLogFields / redactSecrets. `destination` (tests) replaces stdout.
 */
export function createLogger(service: string, level: string, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: {
      level: (label) => ({ level: label }),
      log: (object) => redactLogFields(object) as Record<string, unknown>,
    },
    hooks: {
      logMethod(args, method) {
        const scrubbed = args.map((arg) => (typeof arg === 'string' ? redactSecrets(arg) : arg)) as Parameters<typeof method>;
        return method.apply(this, scrubbed);
      },
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

const BOOTSTRAP_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/** Routes Nest's own log calls (bootstrap, route mapping) into the pino logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    // Nest's bootstrap chatter (modules loaded, routes mapped) is only interesting when debugging.
    const context = rest[rest.length - 1];
    this.write(typeof context === 'string' && BOOTSTRAP_CONTEXTS.has(context) ? 'debug' : 'info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal', message: unknown, rest: unknown[]): void {
    // Nest passes the context as the last string argument, and for errors a stack before it.
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    const stack = rest.length > 1 && typeof rest[0] === 'string' ? rest[0] : undefined;
    if (message instanceof Error) this.logger[level]({ context, err: message }, message.message);
    else if (typeof message === 'object' && message !== null) this.logger[level]({ context, ...message });
    else this.logger[level]({ context, ...(stack ? { stack } : {}) }, String(message));
  }
}
