// The line RESULTS.md prints beside each section: which run its figures come from, "unknown" where nothing was recorded.
import type { Run } from './run.js';

const unknown = 'unknown';

function machine(m: Run['machine']): string {
  if (!m) return `machine ${unknown}`;
  return `${m.cpu ?? `CPU ${unknown}`}, ${m.cores ?? unknown} cores, ${m.memory_gib ?? unknown} GiB`;
}

/** The sentence for one run: date, commit, machine, Node, load, duration, command. */
export function runLine(run: Run | undefined | null): string {
  if (!run) return `Run: ${unknown} (this section has no provenance).`;
  const date = (run.started_at ?? run.backfilled?.recorded_at)?.slice(0, 10) ?? unknown;
  const commit = run.commit
    ? `commit ${run.commit}`
    : run.backfilled
      ? `recorded in commit ${run.backfilled.recorded_in}`
      : `commit ${unknown}`;
  const facts = [
    `from ${date}`,
    commit,
    machine(run.machine),
    `Node ${run.node ?? unknown}`,
    `load average ${run.load_avg_1m ?? unknown}`,
    run.duration_s == null ? `duration ${unknown}` : `${run.duration_s} s`,
  ];
  const command = run.command ? `\`${run.command}\`` : `command ${unknown}`;
  // the reconstruction's sources are long: they stay in latest.json
  const note = run.backfilled ? ' (reconstructed from the git history: `run.backfilled` in `results/latest.json`)' : '';
  return `Run: ${facts.join(', ')}; ${command}${note}.`;
}
