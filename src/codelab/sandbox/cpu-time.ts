import { readFileSync } from 'node:fs';

/** /proc counts CPU time in clock ticks of 10 ms (USER_HZ, 100 a second on Linux whatever the kernel's own tick). */
const TICK_MS = 10;

/** The fields of a /proc stat file after the command's name, or null where /proc does not answer. */
function statFields(path: string): string[] | null {
  try {
    const stat = readFileSync(path, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * CPU time of one thread in milliseconds, from /proc, or null where /proc does not answer. Limits
 * count CPU time, as judges do: on a busy machine a program that waits for a core is not charged
 * for the wait.
 */
export function threadCpuMs(pid: number, tid = pid): number | null {
  const fields = statFields(`/proc/${pid}/task/${tid}/stat`);
  return fields && (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** CPU time of a whole process in milliseconds, with `reaped` that of the children it has waited for; null where /proc does not answer. */
export function processCpuMs(pid: number, reaped = false): number | null {
  const fields = statFields(`/proc/${pid}/stat`);
  if (!fields) return null;
  const [user, system, childrenUser, childrenSystem] = fields.slice(11, 15).map(Number);
  return (user + system + (reaped ? childrenUser + childrenSystem : 0)) * TICK_MS;
}

/** The children of a process (the sandboxed node under unshare, a postmaster's backends); none where /proc does not answer. */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'latin1')
      .trim()
      .split(/\s+/)
      .map(Number)
      .filter((child) => Number.isInteger(child) && child > 0);
  } catch {
    return [];
  }
}

/** The first child of a process (the sandboxed node under unshare), or null. */
export function firstChildPid(pid: number): number | null {
  return childPids(pid)[0] ?? null;
}
