import { createLogUpdate } from 'log-update';
import type { Ctx } from './context.js';
import { renderStreamItem, when } from './output.js';
import { FINAL, type Outcome, type RevisionChange, type RolloutModel, type Transition } from './rollout-model.js';
import {
  changeLine,
  failureReport,
  frame,
  resultLine,
  startLine,
  statusDocument,
  transitionLine,
} from './rollout-render.js';

export type ConnectionNote =
  { kind: 'reconnecting'; attempt: number; delayMs: number; message: string } | { kind: 'resumed' };

export type End = Outcome | 'interrupted';

/** How a followed rollout is shown: a live frame, plain lines, or a stream of JSON/YAML items. */
export interface RolloutView {
  start(m: RolloutModel): void;
  transition(t: Transition, m: RolloutModel): void;
  revision(change: RevisionChange, m: RolloutModel): void;
  connection(note: ConnectionNote, m: RolloutModel): void;
  /** the clock moved (time left to the deadline), or a state changed without a transition */
  tick(m: RolloutModel): void;
  finish(m: RolloutModel, end: End): void;
  /** the follow failed (an error is on its way): leave the terminal as it was */
  close(): void;
}

const reconnectingText = (n: Extract<ConnectionNote, { kind: 'reconnecting' }>) =>
  `reconnecting to the status stream (attempt ${n.attempt}, in ${(n.delayMs / 1000).toFixed(1)} s): ${n.message}`;

function ending(ctx: Ctx, m: RolloutModel, end: End) {
  if (end === 'interrupted') {
    const c = m.counts();
    ctx.err(
      `interrupted: revision ${m.revision?.id ?? '-'} is ${m.revision?.status ?? '-'} (${c.applied}/${c.total} applied); the rollout goes on\n`,
    );
    return;
  }
  ctx.out(resultLine(m, end, ctx.colors));
  if (end.result !== 'APPLIED') ctx.err(failureReport(m, end, ctx.errColors));
}

/**
 * On a terminal: one frame (header, cli-progress bar, cli-table3 instance table) redrawn in place
 * by log-update, at most every 100 ms.
 */
export function liveView(ctx: Ctx): RolloutView {
  const stream = ctx.io.stdout;
  // log-update needs only write(), columns and rows, which every OutputStream offers
  const log = createLogUpdate(stream as unknown as NodeJS.WritableStream);
  let note: string | undefined;
  let last = 0;
  let timer: NodeJS.Timeout | undefined;
  const paint = (m: RolloutModel) => {
    last = Date.now();
    log(frame(m, { colors: ctx.colors, width: stream.columns ?? 80, height: stream.rows ?? 24, now: last, note }));
  };
  const soon = (m: RolloutModel) => {
    const wait = 100 - (Date.now() - last);
    if (wait <= 0) return paint(m);
    timer ??= setTimeout(() => {
      timer = undefined;
      paint(m);
    }, wait);
  };
  return {
    start: paint,
    transition: (_t, m) => soon(m),
    revision: (_c, m) => soon(m),
    connection: (n, m) => {
      note = n.kind === 'reconnecting' ? `${reconnectingText(n)}\u2026` : undefined;
      paint(m);
    },
    tick: soon,
    finish: (m, end) => {
      clearTimeout(timer);
      note = undefined;
      paint(m);
      log.done();
      // the terminal echoed ^C where the cursor was: start on a line of our own
      if (end === 'interrupted') ctx.err('\n');
      ending(ctx, m, end);
    },
    close: () => {
      clearTimeout(timer);
      log.done();
    },
  };
}

/** Piped (or --no-tty): one plain line per transition, reconnections on stderr. */
export function linesView(ctx: Ctx): RolloutView {
  return {
    start: (m) => ctx.out(startLine(m, Date.now())),
    transition: (t) => ctx.out(transitionLine(t)),
    // a final status gets the result line instead
    revision: (c) => {
      if (c.kind === 'superseded' || !FINAL.has(c.revision.status)) ctx.out(changeLine(c));
    },
    connection: (n) => ctx.err(n.kind === 'reconnecting' ? `${reconnectingText(n)}\n` : 'resumed the status stream\n'),
    tick: () => {},
    finish: (m, end) => ending(ctx, m, end),
    close: () => {},
  };
}

/** -o json|yaml with --watch: one item per change, the last one `result` with the whole status. */
export function streamView(ctx: Ctx, format: 'json' | 'yaml'): RolloutView {
  const emit = (item: Record<string, unknown>) => ctx.out(renderStreamItem(format, item));
  return {
    start: (m) => emit({ type: 'status', ...statusDocument(m) }),
    transition: (t) =>
      emit({
        type: 'transition',
        at: t.at,
        instanceId: t.instance.id,
        clusterId: t.instance.cluster.id,
        state: t.instance.state,
        previousState: t.previousState,
        revisionId: t.instance.revisionId,
        targetRevisionId: t.instance.targetRevisionId,
        message: t.instance.message,
      }),
    revision: (c) =>
      emit({
        type: 'revision',
        change: c.kind,
        revision: c.revision,
        previousRevisionId: c.kind === 'superseded' ? c.previous.id : c.revision.id,
      }),
    connection: (n) => ctx.err(n.kind === 'reconnecting' ? `${reconnectingText(n)}\n` : 'resumed the status stream\n'),
    tick: () => {},
    finish: (m, end) => {
      if (end === 'interrupted') return ending(ctx, m, end);
      emit({
        type: 'result',
        result: end.result === 'APPLIED' ? 'APPLIED' : 'FAILED',
        reason: end.result === 'APPLIED' ? null : end.reason,
        at: when(new Date().toISOString()),
        ...statusDocument(m),
      });
      if (end.result !== 'APPLIED') ctx.err(failureReport(m, end, ctx.errColors));
    },
    close: () => {},
  };
}
