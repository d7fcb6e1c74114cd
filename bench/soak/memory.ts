import { readFileSync } from 'node:fs';

/** One life of one instance: a killed instance that is started again begins a new one. */
export interface Life {
  instance: string;
  pid: number;
  started: number;
  samples: { at: number; kb: number }[];
  /** The main thread's JavaScript heap in use and its Buffers' memory (`/metrics`), in KiB: RSS growing while these stay flat is native memory. */
  heap: { at: number; usedKb: number; externalKb: number }[];
  url?: string;
}

/** The growth per hour that fails the soak: what a service that runs for weeks cannot afford. */
export const GROWTH_LIMIT_MIB_PER_HOUR = 20;
/** Below this much time after warm-up there are too few samples for a slope worth reading. */
const MIN_MEASURED_MS = 8 * 60_000;
/**
 * The growth is read from the median sample of each window, the level the instance sits at: V8
 * sizes its heap to the load of the moment (a fault that stops the traffic shrinks it by a hundred
 * MiB for a minute), and in the lean heap mode each full collection gives memory back, so RSS
 * moves by 30 to 60 MiB within a minute. The lowest sample of a window lands on such a dip or beside
 * it wherever the sampling falls (a slope of -15 and +25 MiB an hour in one run, through medians of
 * 8 and -2); what a leak holds raises the median as it raises every sample.
 */
const WINDOW_MS = 2 * 60_000;

/** Resident memory of each instance's lives, read from /proc every `everyMs`. */
export class MemorySampler {
  readonly lives: Life[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(everyMs = 10_000) {
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  /** Starts following a process (an instance just started, or started again), and its `/metrics` at `url`. */
  follow(instance: string, pid: number, url?: string): void {
    this.lives.push({ instance, pid, started: Date.now(), samples: [], heap: [], url });
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private sample(): void {
    for (const life of this.lives) {
      const kb = residentKb(life.pid);
      if (kb !== undefined) {
        life.samples.push({ at: Date.now(), kb });
        if (life.url) void heapOf(life.url).then((heap) => heap && life.heap.push({ at: Date.now(), ...heap }));
      }
    }
  }
}

/** The heap figures of an instance's Prometheus text, or undefined when it did not answer. */
async function heapOf(url: string): Promise<{ usedKb: number; externalKb: number } | undefined> {
  try {
    const text = await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
    const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]) / 1024;
    return { usedKb: gauge('nodejs_heap_size_used_bytes'), externalKb: gauge('nodejs_external_memory_bytes') };
  } catch {
    return undefined;
  }
}

function residentKb(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  } catch {
    return undefined;
  }
}

export interface Growth {
  instance: string;
  pid: number;
  /** MiB at the end of warm-up and at the last sample. */
  fromMiB: number;
  toMiB: number;
  measuredMinutes: number;
  /** MiB per hour after warm-up through the lowest sample of each window, or undefined when the life after warm-up was too short to tell. */
  perHour?: number;
  /** The same through the median of each window: what fails the soak (see WINDOW_MS). */
  medianPerHour?: number;
}

/**
 * The growth of a life after its warm-up: the least-squares slopes through the lowest and the
 * median sample of each window (see WINDOW_MS).
 */
export function growthOf(life: Life, warmUpMs: number): Growth {
  const settled = life.samples.filter((s) => s.at >= life.started + warmUpMs);
  const mib = (kb: number | undefined) => (kb ?? 0) / 1024;
  const measuredMs = settled.length > 1 ? settled.at(-1)!.at - settled[0].at : 0;
  const growth: Growth = {
    instance: life.instance,
    pid: life.pid,
    fromMiB: mib(settled[0]?.kb),
    toMiB: mib(settled.at(-1)?.kb),
    measuredMinutes: measuredMs / 60_000,
  };
  if (measuredMs < MIN_MEASURED_MS) return growth;
  const windows = new Map<number, { at: number; kb: number }[]>();
  for (const s of settled) {
    const window = Math.floor((s.at - settled[0].at) / WINDOW_MS);
    windows.set(window, [...(windows.get(window) ?? []), s]);
  }
  const through = (pick: (samples: { at: number; kb: number }[]) => { at: number; kb: number }) =>
    slope([...windows.values()].map((samples) => pick(samples)).map((s) => [s.at / 3_600_000, mib(s.kb)]));
  return {
    ...growth,
    perHour: through((samples) => samples.reduce((low, s) => (s.kb < low.kb ? s : low))),
    medianPerHour: through((samples) => [...samples].sort((a, b) => a.kb - b.kb)[Math.floor(samples.length / 2)]),
  };
}

/** The least-squares slope of y over x. */
function slope(points: [number, number][]): number {
  const n = points.length;
  const mx = points.reduce((sum, [x]) => sum + x, 0) / n;
  const my = points.reduce((sum, [, y]) => sum + y, 0) / n;
  const sxy = points.reduce((sum, [x, y]) => sum + (x - mx) * (y - my), 0);
  const sxx = points.reduce((sum, [x]) => sum + (x - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

/** The lowest of each minute of a life (MiB), for the eye: RSS by default, or another series of it. */
export function byMinute(life: Life, series: { at: number; kb: number }[] = life.samples): number[] {
  const minutes: number[] = [];
  for (const s of series) {
    const minute = Math.floor((s.at - life.started) / 60_000);
    minutes[minute] = Math.min(minutes[minute] ?? Infinity, Math.round(s.kb / 1024));
  }
  return [...minutes].filter((m) => m !== undefined);
}
