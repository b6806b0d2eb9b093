import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';

/**
 * A transaction's setting that plans each named (prepared) statement once per connection, with its
 * parameters left open, instead of again for every call: PostgreSQL's default plans a statement
 * anew for its first five calls on a connection, and for ever when a plan for the given values
 * looks cheaper, which for a projection's set-based statements (arrays and JSON of a batch) cost
 * as much as running them (pg_stat_statements' planning time). For statements by key and by
 * batch, whose best plan does not depend on the values. Transaction-local (`set_config(…, true)`).
 */
export const GENERIC_PLANS = "set_config('plan_cache_mode', 'force_generic_plan', true)";

/** Texts seen before a name is given, and names given at most, per process (a text built with literals would repeat rarely). */
const SEEN_BEFORE_NAMING = 2;
const MAX_TEXTS = 2000;
const MAX_NAMES = 300;

/**
 * Names parameterised statements by their text once seen twice, so node-pg prepares each on a
 * connection once and PostgreSQL keeps its parse and plan. A text seen once stays unnamed (one
 * built with literals would otherwise leave a prepared statement per call); at most MAX_NAMES
 * texts are named.
 */
export class StatementNames {
  private readonly seen = new Map<string, number>();
  private readonly names = new Map<string, string>();

  nameFor(text: string): string | undefined {
    const known = this.names.get(text);
    if (known) return known;
    const times = (this.seen.get(text) ?? 0) + 1;
    if (times < SEEN_BEFORE_NAMING || this.names.size >= MAX_NAMES) {
      if (this.seen.size >= MAX_TEXTS) this.seen.clear();
      this.seen.set(text, times);
      return undefined;
    }
    this.seen.delete(text);
    const name = `es_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    this.names.set(text, name);
    return name;
  }
}

type QueryArgs = Parameters<PoolClient['query']>;

/**
 * The client as it is, but its `query(text, values)` calls run as named statements (StatementNames):
 * what a projection's apply runs on every batch is parsed and planned once per connection.
 */
export function withNamedStatements(client: PoolClient, names: StatementNames): PoolClient {
  const query = (...args: unknown[]) => {
    const [text, values] = args;
    if (args.length === 2 && typeof text === 'string' && Array.isArray(values)) {
      const name = names.nameFor(text);
      if (name) return client.query({ name, text, values });
    }
    return (client.query as (...a: QueryArgs) => unknown)(...(args as QueryArgs));
  };
  return new Proxy(client, {
    get(target, prop) {
      if (prop === 'query') return query;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
