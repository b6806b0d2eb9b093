import type { RecordedEventWithTx } from './event-table';
import type { Projection } from './projection';

export type ProjectionStatus = 'running' | 'paused' | 'rebuilding';

/** The logger shape of pino (`logger.warn({ ...context }, 'message')`). */
export interface ProjectionLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What the live runner and a rebuild work on: a projection, its consumer group and its physical tables. */
export interface ProjectionTarget {
  projection: Projection;
  /** Consumer group of its subscriptions: `<schema>.<name>`. */
  group: string;
  /** Logical table name → the live table (`<schema>.<table>`). */
  live: Record<string, string>;
  /** Logical table name → the shadow table a rebuild fills (`<schema>.<table>__rebuild`). */
  shadow: Record<string, string>;
}

export const SHADOW_SUFFIX = '__rebuild';
/** A projection or table name: it becomes part of SQL identifiers. */
export const PROJECTION_NAME = /^[a-z_][a-z0-9_]*$/;

/** The target of a projection in a schema; refuses names that cannot be SQL identifiers. */
export function projectionTarget(schema: string, projection: Projection): ProjectionTarget {
  if (!PROJECTION_NAME.test(projection.name)) throw new Error(`Nombre de proyección inválido: ${projection.name}`);
  const live: Record<string, string> = {};
  const shadow: Record<string, string> = {};
  for (const t of projection.tables) {
    if (!PROJECTION_NAME.test(t) || t.length + SHADOW_SUFFIX.length + 12 > 63) throw new Error(`Nombre de tabla inválido o demasiado largo: ${t}`);
    live[t] = `${schema}.${t}`;
    shadow[t] = `${schema}.${t}${SHADOW_SUFFIX}`;
  }
  return { projection, group: `${schema}.${projection.name}`, live, shadow };
}

/** The first event of each eventId, in order: an eventId already in the batch is not applied twice. */
export function uniqueByEventId(events: RecordedEventWithTx[]): RecordedEventWithTx[] {
  const seen = new Set<string>();
  let dup = false;
  for (const e of events) {
    if (seen.has(e.metadata.eventId)) {
      dup = true;
      break;
    }
    seen.add(e.metadata.eventId);
  }
  if (!dup) return events;
  seen.clear();
  return events.filter((e) => (seen.has(e.metadata.eventId) ? false : (seen.add(e.metadata.eventId), true)));
}
