import cliProgress from 'cli-progress';
import {
  type Counts,
  type InstanceView,
  type Outcome,
  type RolloutModel,
  type Transition,
  type RevisionChange,
} from './rollout-model.js';
import { short, statusWord, table, when, type Colors } from './output.js';

/** Time to the deadline as cli-progress formats durations (`09m32s`), or how long ago it passed. */
function deadlineText(deadline: string | null, now: number): string {
  if (!deadline) return 'no deadline';
  const left = Math.round((Date.parse(deadline) - now) / 1000);
  const fmt = (s: number) => cliProgress.Format.TimeFormat(s, { autopaddingChar: '0' }, 1);
  return left >= 0 ? `deadline in ${fmt(left)}` : `deadline passed ${fmt(-left)} ago`;
}

/** The progress line: a cli-progress bar of applied/total, the other counts and the time left. */
function progressLine(
  c: Counts,
  deadline: string | null,
  now: number,
  colors: Colors,
  width: number,
  finished?: string,
): string {
  const time = finished ?? deadlineText(deadline, now);
  const format = '{bar} {value}/{total} applied | {updating} updating | {failed} failed | {time}';
  // the bar takes what the text leaves of the line (10 to 40 cells): the frame must not wrap
  const text = format
    .replace('{bar}', '')
    .replace('{value}', String(c.applied))
    .replace('{total}', String(c.total))
    .replace('{updating}', String(c.updating))
    .replace('{failed}', String(c.failed))
    .replace('{time}', time);
  const barsize = Math.max(10, Math.min(40, width - text.length - 1));
  const failing = c.failed > 0;
  const options: cliProgress.Options = {
    format,
    barsize,
    barCompleteString: '\u2588'.repeat(barsize + 1),
    barIncompleteString: '\u2591'.repeat(barsize + 1),
    barGlue: '',
    // the formatter pads its own time fields with it, even unused ones
    autopaddingChar: ' ',
    formatBar: (progress, o) => {
      const bar = cliProgress.Format.BarFormat(progress, o);
      const done = bar.match(/^\u2588*/)![0];
      return (failing ? colors.red(done) : colors.green(done)) + colors.dim(bar.slice(done.length));
    },
  };
  const params: cliProgress.Params = {
    progress: c.total ? c.applied / c.total : 0,
    value: c.applied,
    total: c.total,
    eta: 0,
    startTime: now,
    stopTime: now,
    maxWidth: width,
  };
  return cliProgress.Format.Formatter(options, params, {
    updating: c.updating ? colors.yellow(String(c.updating)) : '0',
    failed: c.failed ? colors.red(String(c.failed)) : '0',
    time,
  });
}

const stateOrder = (i: InstanceView, rev: string | undefined) =>
  i.state === 'FAILED' || (rev && i.failedRevisionId === rev)
    ? 0
    : i.state === 'UPDATING'
      ? 1
      : i.state === 'TERMINATED'
        ? 4
        : i.revisionId === rev
          ? 3
          : 2;

function stateCell(i: InstanceView, rev: string | undefined, colors: Colors): string {
  if (i.state === 'FAILED' || (rev && i.failedRevisionId === rev)) return colors.red(i.state);
  if (i.state === 'UPDATING') return colors.yellow(i.state);
  if (i.state === 'STARTING') return colors.cyan(i.state);
  if (i.state === 'TERMINATED') return colors.dim(i.state);
  if (i.state === 'ACTIVE' && i.revisionId === rev) return colors.green(i.state);
  return i.state;
}

function revisionCell(i: InstanceView, rev: string | undefined, colors: Colors): string {
  if (i.state === 'UPDATING') return `${short(i.revisionId)} \u2192 ${short(i.targetRevisionId ?? rev)}`;
  if (rev && i.failedRevisionId === rev) return `${short(i.revisionId)} ${colors.red(`(${short(rev)} failed)`)}`;
  return short(i.revisionId);
}

/** Once the revision is final, the time field says so instead of counting down. */
const finishedText = (m: RolloutModel): string | undefined => {
  const r = m.revision;
  if (r?.status === 'APPLIED') return `applied ${when(r.appliedAt)}`;
  if (r?.status === 'FAILED') return 'failed';
  if (r?.status === 'SUPERSEDED') return 'superseded';
  return undefined;
};

/** The per-instance table, at most `maxRows` rows: the ones still moving first when they do not all fit. */
function instanceTable(m: RolloutModel, colors: Colors, maxRows = Infinity): string {
  const rev = m.revision?.id;
  const all = m.sorted();
  let shown = all;
  if (all.length > maxRows) {
    const keep = new Set(
      [...all].sort((a, b) => stateOrder(a, rev) - stateOrder(b, rev)).slice(0, Math.max(1, maxRows - 1)),
    );
    shown = all.filter((i) => keep.has(i));
  }
  const text = table(
    ['INSTANCE', 'CLUSTER', 'STATE', 'REVISION'],
    shown.map((i) => [i.id, i.cluster.id, stateCell(i, rev, colors), revisionCell(i, rev, colors)]),
    colors,
  );
  const hidden = all.length - shown.length;
  return hidden
    ? `${text}${colors.dim(`\u2026 and ${hidden} more (${all.filter((i) => !shown.includes(i) && i.revisionId === rev).length} of them on ${short(rev)})`)}\n`
    : text;
}

function headerLines(m: RolloutModel, colors: Colors): string[] {
  const r = m.revision;
  const spec = `GPU specification ${m.specId}  ${colors.dim(`${m.functionName} \u00b7 ${m.gpu} ${m.instanceType}`)}`;
  if (!r) return [spec, 'no revision'];
  return [
    spec,
    `revision ${r.id}  ${statusWord(r.status, colors)}${r.supersedes ? colors.dim(`  (supersedes ${short(r.supersedes)})`) : ''}`,
  ];
}

function failureLines(m: RolloutModel, colors: Colors): string[] {
  return m.failures().map((i) => colors.red(`${i.id} ${i.cluster.id}: ${i.message ?? i.state}`));
}

/** The live view's frame, fitted to the terminal: header, bar, table, failures, connection note. */
export function frame(
  m: RolloutModel,
  o: { colors: Colors; width: number; height: number; now: number; note?: string },
): string {
  const head = [
    ...headerLines(m, o.colors),
    progressLine(m.counts(), m.revision?.deadline ?? null, o.now, o.colors, o.width, finishedText(m)),
    '',
  ];
  const tail = [...failureLines(m, o.colors), ...(o.note ? [o.colors.yellow(o.note)] : [])];
  // a header row, the "… more" line, and one line of slack for the cursor
  const rows = Math.max(1, o.height - head.length - tail.length - 3);
  return [...head, instanceTable(m, o.colors, rows).trimEnd(), ...tail].join('\n');
}

/** `rollout status` without --watch, as a table: the same facts as the live view, once. */
export function statusText(m: RolloutModel, colors: Colors, live: boolean, width: number, now: number): string {
  const c = m.counts();
  const summary = live
    ? progressLine(c, m.revision?.deadline ?? null, now, colors, width, finishedText(m))
    : `${c.applied}/${c.total} applied, ${c.updating} updating, ${c.failed} failed, ${c.pending} pending; ${finishedText(m) ?? deadlineText(m.revision?.deadline ?? null, now)}`;
  const fails = failureLines(m, colors);
  const reason = m.revision?.failureReason ? [colors.red(`failure: ${m.revision.failureReason}`)] : [];
  return `${[...headerLines(m, colors), summary, ''].join('\n')}\n${instanceTable(m, colors)}${[...reason, ...fails].map((l) => `${l}\n`).join('')}`;
}

/** One plain line per transition: `2026-11-30T19:00:01Z instance-123 cluster-a UPDATING rev-2 (from rev-1)`. */
export function transitionLine(t: Transition): string {
  const i = t.instance;
  const rev =
    i.state === 'UPDATING'
      ? `${i.targetRevisionId ?? '-'}${t.fromRevisionId ? ` (from ${t.fromRevisionId})` : ''}`
      : (i.revisionId ?? '-');
  return `${when(t.at)} ${i.id} ${i.cluster.id} ${i.state} ${rev}${i.message ? `: ${i.message}` : ''}\n`;
}

export function startLine(m: RolloutModel, now: number): string {
  const r = m.revision;
  if (!r) return `GPU specification ${m.specId} has no revision\n`;
  const c = m.counts();
  return `revision ${r.id} ${r.status} (${c.applied}/${c.total} applied${finishedText(m) ? '' : `; ${deadlineText(r.deadline, now)}`})\n`;
}

export function changeLine(ch: RevisionChange): string {
  return ch.kind === 'superseded'
    ? `revision ${ch.previous.id} SUPERSEDED by ${ch.revision.id} (${ch.revision.status})\n`
    : `revision ${ch.revision.id} ${ch.revision.status}\n`;
}

/** The last line: `revision rev-2 APPLIED (4/4)`. */
export function resultLine(m: RolloutModel, outcome: Outcome, colors: Colors): string {
  const c = m.counts();
  if (outcome.result === 'APPLIED')
    return `revision ${m.revision?.id ?? '-'} ${colors.green('APPLIED')} (${c.applied}/${c.total})\n`;
  return `revision ${m.revision?.id ?? '-'} ${colors.red('FAILED')} (${c.applied}/${c.total} applied, ${c.failed} failed)\n`;
}

/** On failure, stderr: why, which instances said what, and what to do next. */
export function failureReport(
  m: RolloutModel,
  outcome: Exclude<Outcome, { result: 'APPLIED' }>,
  colors: Colors,
): string {
  const lines = [
    colors.red(
      `error: revision ${m.revision?.id ?? '-'} ${outcome.result === 'DEADLINE' ? 'did not apply by its deadline' : 'FAILED'}: ${outcome.reason}`,
    ),
  ];
  const failed = m.failures();
  for (const i of failed) lines.push(`  ${i.id} ${i.cluster.id}: ${i.message ?? i.state}`);
  // the ones the deadline caught: what they still run
  for (const i of m.sorted())
    if (i.revisionId !== m.revision?.id && i.state !== 'TERMINATED' && !failed.includes(i))
      lines.push(`  ${i.id} ${i.cluster.id}: still ${i.state} on ${i.revisionId ?? '-'}`);
  lines.push(`hint: fix the configuration and submit a new revision, or roll back: nvcf gpu-spec rollback ${m.specId}`);
  return `${lines.join('\n')}\n`;
}

/** The rollout as data (-o json|yaml). */
export function statusDocument(m: RolloutModel) {
  // its counts are the document's `progress`, once
  const revision = m.revision ? { ...m.revision, progress: undefined } : null;
  return {
    gpuSpecificationId: m.specId,
    function: m.functionName,
    revision,
    lastAppliedRevisionId: m.lastAppliedRevisionId,
    progress: m.counts(),
    instances: m.sorted().map((i) => ({
      id: i.id,
      clusterId: i.cluster.id,
      state: i.state,
      revisionId: i.revisionId,
      targetRevisionId: i.targetRevisionId,
      message: i.message,
      failedRevisionId: i.failedRevisionId,
    })),
  };
}
