import { readFileSync } from 'node:fs';

/** CPU seconds (user + system) a process (or `pid/task/tid`, one thread) has used so far, from /proc (Linux). */
export function cpuSeconds(pid: number | string): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** Busy CPU seconds of the whole machine so far (all cores), from /proc/stat. */
export function machineBusySeconds(): number {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  const idle = cpu[3] + cpu[4];
  return (cpu.reduce((a, b) => a + b, 0) - idle) / 100;
}
