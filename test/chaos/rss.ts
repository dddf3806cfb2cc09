import { readFileSync } from 'node:fs';

export interface RssSeries {
  process: string;
  pid: number;
  samples: number;
  mb_first: number;
  mb_last: number;
  /** least-squares slope over the samples after the warm-up, in MB per hour; null when too short to say */
  slope_mb_per_h: number | null;
}

/** the first minute of a process is its warm-up (caches, JIT, pools): it is not a leak */
const WARMUP_MS = 60_000;
/** a slope over less than this is the noise of garbage collection, not a trend */
const MIN_SPAN_MS = 10 * 60_000;

function rssMb(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined; // exited, or not Linux
  }
}

function slope(points: [number, number][]): number {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p[0], 0) / n;
  const my = points.reduce((s, p) => s + p[1], 0) / n;
  let num = 0,
    den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den ? num / den : 0;
}

/** Samples the resident set of every live process; one series per process instance (a restart starts a new one). */
export function sampleRss(processes: () => { name: string; pid: number }[], everyMs = 5000) {
  const series = new Map<string, { process: string; pid: number; born: number; points: [number, number][] }>();
  const take = () => {
    const now = Date.now();
    for (const p of processes()) {
      const mb = rssMb(p.pid);
      if (mb === undefined) continue;
      const key = `${p.name}#${p.pid}`;
      let s = series.get(key);
      if (!s) series.set(key, (s = { process: p.name, pid: p.pid, born: now, points: [] }));
      s.points.push([now, mb]);
    }
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop(): RssSeries[] {
      clearInterval(timer);
      return [...series.values()].map((s) => {
        const settled = s.points.filter(([t]) => t - s.born >= WARMUP_MS);
        const span = settled.length ? settled.at(-1)![0] - settled[0][0] : 0;
        return {
          process: s.process,
          pid: s.pid,
          samples: s.points.length,
          mb_first: Math.round(s.points[0][1]),
          mb_last: Math.round(s.points.at(-1)![1]),
          slope_mb_per_h: span >= MIN_SPAN_MS ? Math.round(slope(settled) * 3_600_000 * 10) / 10 : null,
        };
      });
    },
  };
}
