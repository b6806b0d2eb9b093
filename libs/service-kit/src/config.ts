import { existsSync } from 'node:fs';
import { z } from 'zod';

/** Log levels pino understands, plus 'silent' (tests). */
export const LogLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
  error: 'debe ser fatal, error, warn, info, debug, trace o silent',
});

/** A TCP port from the environment, with the service's default. */
export function portVariable(defaultPort: number) {
  return z.coerce
    .number({ error: 'debe ser un número de puerto' })
    .int('debe ser un número de puerto entero')
    .min(0, 'debe estar entre 0 y 65535')
    .max(65535, 'debe estar entre 0 y 65535')
    .default(defaultPort);
}

/** A URL variable (http or https), required unless the shape gives it a default. */
export function urlVariable(protocols: string[] = ['http:', 'https:']) {
  return z.string().refine((value) => {
    try {
      return protocols.includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, `debe ser una URL ${protocols.map((p) => p.replace(':', '://')).join(' o ')}`);
}

/** The variables every process reads. A service extends this shape with its own. */
export const baseConfigShape = {
  DATABASE_URL: urlVariable(['postgres:', 'postgresql:']),
  INTERNAL_SECRET: z.string().min(16, 'debe tener al menos 16 caracteres'),
  PORT: portVariable(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  LOG_LEVEL: LogLevel.default('info'),
  EVENT_TRANSPORT: z.enum(['postgres', 'kafka'], { error: "debe ser 'postgres' o 'kafka'" }).default('postgres'),
  KAFKA_BROKERS: z
    .string()
    .optional()
    .transform((value) => (value ?? '').split(',').map((b) => b.trim()).filter(Boolean)),
  DATA_DIR: z.string().min(1).default('.data'),
  /** Kafka over TLS: '1' with the system's CAs; KAFKA_SSL_CA_FILE (PEM) trusts a private CA instead. */
  KAFKA_SSL: z.enum(['0', '1'], { error: 'debe ser 0 o 1' }).default('0'),
  KAFKA_SSL_CA_FILE: z.string().optional(),
  /** Kafka SASL: the service's own principal, the one the brokers' ACLs name (see README). */
  KAFKA_SASL_MECHANISM: z.enum(['plain', 'scram-sha-256', 'scram-sha-512'], { error: 'debe ser plain, scram-sha-256 o scram-sha-512' }).optional(),
  KAFKA_SASL_USERNAME: z.string().optional(),
  KAFKA_SASL_PASSWORD: z.string().optional(),
};
type BaseShape = typeof baseConfigShape;

/** The parsed configuration of a process: the base variables plus the service's own shape. */
export type ServiceConfig<S extends z.ZodRawShape = Record<never, never>> = z.output<z.ZodObject<Omit<BaseShape, keyof S> & S>>;
/** The base configuration every service has. */
export type BaseConfig = ServiceConfig;

/** A configuration problem, already phrased as the one line start-up prints. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly variables: string[],
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment with the base shape extended by `shape`. Throws a ConfigError
 * whose message is one line naming every bad variable, e.g.
 * `Configuración inválida: DATABASE_URL es requerida`.
 */
type Env = NodeJS.ProcessEnv | Record<string, string | undefined>;

export function parseConfig(shape?: undefined, env?: Env): BaseConfig;
export function parseConfig<S extends z.ZodRawShape>(shape: S, env?: Env): ServiceConfig<S>;
export function parseConfig<S extends z.ZodRawShape = Record<never, never>>(
  shape?: S,
  env: NodeJS.ProcessEnv | Record<string, string | undefined> = process.env,
): ServiceConfig<S> {
  // An empty variable (FOO=) counts as missing, so defaults apply and "required" is reported.
  const cleaned: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined && value !== '') cleaned[key] = value;

  const schema = z
    .object({ ...baseConfigShape, ...(shape ?? {}) })
    .superRefine((config, ctx) => {
      const c = config as { EVENT_TRANSPORT?: string; KAFKA_BROKERS?: string[]; KAFKA_SSL_CA_FILE?: string; KAFKA_SASL_MECHANISM?: string; KAFKA_SASL_USERNAME?: string; KAFKA_SASL_PASSWORD?: string };
      if (c.EVENT_TRANSPORT === 'kafka' && (c.KAFKA_BROKERS ?? []).length === 0) {
        ctx.addIssue({ code: 'custom', path: ['KAFKA_BROKERS'], message: 'es requerida cuando EVENT_TRANSPORT=kafka' });
      }
      if (c.KAFKA_SSL_CA_FILE && !existsSync(c.KAFKA_SSL_CA_FILE)) {
        ctx.addIssue({ code: 'custom', path: ['KAFKA_SSL_CA_FILE'], message: `debe ser un archivo existente: ${c.KAFKA_SSL_CA_FILE}` });
      }
      for (const name of ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD'] as const) {
        if (c.KAFKA_SASL_MECHANISM && !c[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'es requerida cuando KAFKA_SASL_MECHANISM está definida' });
      }
    });
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data as unknown as ServiceConfig<S>;

  const problems = new Map<string, string>();
  for (const issue of result.error.issues) {
    const variable = issue.path.map(String).join('.') || '(entorno)';
    if (problems.has(variable)) continue;
    problems.set(variable, cleaned[variable] === undefined && issue.code === 'invalid_type' ? 'es requerida' : issue.message);
  }
  const text = [...problems].map(([variable, problem]) => `${variable} ${problem}`).join('; ');
  throw new ConfigError(`Configuración inválida: ${text}`, [...problems.keys()]);
}

/**
 * parseConfig for a real start-up: a bad environment prints the one line on stderr and
 * exits with code 1, with no stack trace.
 */
export function loadConfig(shape?: undefined, env?: Env): BaseConfig;
export function loadConfig<S extends z.ZodRawShape>(shape: S, env?: Env): ServiceConfig<S>;
export function loadConfig<S extends z.ZodRawShape = Record<never, never>>(
  shape?: S,
  env: NodeJS.ProcessEnv | Record<string, string | undefined> = process.env,
): ServiceConfig<S> {
  try {
    return parseConfig(shape as S, env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
