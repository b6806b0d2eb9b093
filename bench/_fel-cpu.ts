// Where the fel bench's CPU goes, per sale: each service process, the bench's own process (the
// sandbox certifier), its load generator (a child: its CPU is read from this process's cutime once
// it has exited), and PostgreSQL: each backend of the bench's database, grouped by the service that
// opened it (application_name tiendita-<service>[-subscriptions|-notify|-listen]), and the server's
// own processes (WAL writer, checkpointer, autovacuum…) when the server runs on this machine.
import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';
import { cpuSeconds } from './_proc';

/** CPU seconds of this process's children that have exited and been waited for (the load generator). */
export function childrenCpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

function parentOf(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
  } catch {
    return 0;
  }
}

/** The server's processes that are not client backends (their pids), if the postmaster is visible here. */
function serverProcesses(postmaster: number, backends: Set<number>): number[] {
  if (!postmaster) return [];
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    const pid = Number(d);
    if (pid && !backends.has(pid) && parentOf(pid) === postmaster) out.push(pid);
  }
  return out;
}

/** Who a backend works for: 'pg ordering', 'pg fel (subs)'… from its application_name. */
function groupOf(app: string): string {
  const m = /^tiendita-([a-z]+)(?:-(subscriptions|notify|listen|lease|search))?$/.exec(app);
  if (!m) return app ? `pg ${app}` : 'pg otros';
  return m[2] ? `pg ${m[1]} (${m[2]})` : `pg ${m[1]}`;
}

/**
 * Samples PostgreSQL's processes of `dbName` every second while a phase runs, so a backend that
 * closes mid-phase keeps the CPU it had; `stop()` answers CPU seconds by group.
 */
export async function watchPostgres(pool: pg.Pool, dbName: string): Promise<{ stop: () => Promise<Map<string, number>> }> {
  const first = new Map<number, number>();
  const last = new Map<number, { group: string; cpu: number }>();
  const postmaster = parentOf((await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid);
  const sample = async () => {
    const r = await pool.query<{ pid: number; app: string }>('SELECT pid, application_name AS app FROM pg_stat_activity WHERE datname = $1', [dbName]);
    const backends = new Set(r.rows.map((b) => b.pid));
    const rows = [...r.rows.map((b) => ({ pid: b.pid, group: groupOf(b.app) })), ...serverProcesses(postmaster, backends).map((pid) => ({ pid, group: 'pg servidor' }))];
    for (const { pid, group } of rows) {
      const cpu = cpuSeconds(pid);
      if (Number.isNaN(cpu)) continue;
      // A backend first seen mid-phase started within it (pools open connections as they need them).
      if (!first.has(pid)) first.set(pid, started ? 0 : cpu);
      last.set(pid, { group, cpu });
    }
  };
  let started = false;
  await sample();
  started = true;
  const timer = setInterval(() => void sample().catch(() => undefined), 1000);
  return {
    async stop() {
      clearInterval(timer);
      await sample().catch(() => undefined);
      const by = new Map<string, number>();
      for (const [pid, { group, cpu }] of last) by.set(group, (by.get(group) ?? 0) + cpu - (first.get(pid) ?? 0));
      return by;
    },
  };
}
