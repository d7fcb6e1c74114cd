import { readdirSync, readFileSync } from 'node:fs';

/** `kill -<signal> -<pgid>`, as a terminal's Ctrl-C reaches its foreground job. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    /* the group is gone already */
  }
}

/** A live process's parent and group, from /proc; null once it is gone (or a zombie, as good as gone). */
function statOf(pid: number): { parent: number; group: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] === 'Z' ? null : { parent: Number(fields[1]), group: Number(fields[2]) };
  } catch {
    return null;
  }
}

export function groupOf(pid: number): number | null {
  return statOf(pid)?.group ?? null;
}

function livePids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/** Every live process of a group. */
export function members(pgid: number): number[] {
  return livePids().filter((pid) => groupOf(pid) === pgid);
}

/** Every live process started by `pid`, by the processes it started, and so on. */
export function descendants(pid: number): number[] {
  const parents = new Map(livePids().map((p) => [p, statOf(p)?.parent]));
  const found: number[] = [];
  let generation = [pid];
  while (generation.length) {
    generation = [...parents]
      .filter(([, parent]) => parent !== undefined && generation.includes(parent))
      .map(([p]) => p);
    found.push(...generation);
  }
  return found;
}

/** Waits until none of `pids` lives; how long that took, or null past `ms`. */
export async function allGone(pids: () => number[], ms: number): Promise<number | null> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (pids().length === 0) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}
