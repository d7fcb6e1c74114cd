import { readFileSync } from 'node:fs';

/**
 * CPU time of one thread in milliseconds, from /proc (clock ticks of 10 ms), or null where /proc
 * does not answer. Limits count CPU time, as judges do: on a busy machine a program that waits
 * for a core is not charged for the wait.
 */
export function threadCpuMs(pid: number, tid = pid): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** The first child of a process (the sandboxed node under unshare), or null. */
export function firstChildPid(pid: number): number | null {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'latin1').trim().split(/\s+/);
    const child = Number(children[0]);
    return Number.isInteger(child) && child > 0 ? child : null;
  } catch {
    return null;
  }
}
