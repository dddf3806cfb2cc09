import { CliRolloutStatusDocument, isTransient, type NvcfClient, type WatchItem } from '@nvcf/client';
import { found, type Ctx } from './context.js';
import { RolloutModel, type Outcome } from './rollout-model.js';
import type { End, RolloutView } from './rollout-views.js';

export interface FollowOptions {
  /** Submits the revision to follow once the status stream is open: the view sees every transition it causes. */
  submit?: () => Promise<void>;
  /** how long to wait for the status stream to open before reading (and submitting) anyway */
  openTimeoutMs?: number;
  /** how long after an event the state is read again (events come in bursts) */
  refetchDelayMs?: number;
  /** how often it is read anyway: a deadline passing, or the status after the last event */
  pollMs?: number;
  /** how long past the deadline to wait for the control plane to say FAILED before saying it itself */
  deadlineGraceMs?: number;
  /**
   * Once the revision is final, events still on their way (a failure reported a moment before
   * the revision turned FAILED) are shown until the stream is quiet this long, `settleMaxMs` at most.
   */
  settleQuietMs?: number;
  settleMaxMs?: number;
}

export async function readRollout(client: NvcfClient, specId: string) {
  return found(
    (await client.query(CliRolloutStatusDocument, { id: specId })).gpuSpecification,
    'GPU specification',
    specId,
  );
}

/**
 * Pulls a watch's items until the stream is open (or failed to open: the first read will say
 * why), so that what is read next is not older than the stream. Returns what the loop must
 * take first: items pulled meanwhile, and a pull still pending when it gave up waiting.
 */
async function untilOpen(
  it: AsyncIterator<WatchItem>,
  timeoutMs: number,
): Promise<{ early: WatchItem[]; pending?: Promise<IteratorResult<WatchItem>> }> {
  const deadline = Date.now() + timeoutMs;
  const early: WatchItem[] = [];
  for (;;) {
    const next = it.next();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((r) => {
      timer = setTimeout(() => r('late'), Math.max(0, deadline - Date.now()));
    });
    const r = await Promise.race([next, late]).finally(() => clearTimeout(timer));
    // handled here so that a failure while nobody waits is not an unhandled rejection; awaiting it later still throws
    if (r === 'late') {
      next.catch(() => {});
      return { early, pending: next };
    }
    if (r.done || r.value.type === 'connected') return { early };
    early.push(r.value);
    if (r.value.type === 'reconnecting') return { early };
  }
}

/**
 * Follows the latest revision of a GPU specification until it is APPLIED or FAILED (or its
 * deadline passed), a newer revision taking over when one supersedes it. The status stream
 * drives the view; the revision's status and counts are read again after each burst of events
 * and every `pollMs`. A broken connection (a gateway restarting) resumes from the last cursor:
 * no transition is lost or shown twice.
 */
export async function follow(
  ctx: Ctx,
  specId: string,
  view: RolloutView,
  opts: FollowOptions = {},
): Promise<{ end: End; model: RolloutModel }> {
  const {
    refetchDelayMs = 150,
    pollMs = 1000,
    deadlineGraceMs = 5000,
    openTimeoutMs = 5000,
    settleQuietMs = 250,
    settleMaxMs = 2000,
  } = opts;
  const client = await ctx.client();
  const model = new RolloutModel(specId);
  const stop = new AbortController();
  const events = client.watch(
    { gpuSpecificationId: specId },
    { snapshot: true, signal: stop.signal, onExpired: 'snapshot' },
  );
  const it = events[Symbol.asyncIterator]();
  let poll: NodeJS.Timeout | undefined;
  let delayed: NodeJS.Timeout | undefined;
  let watching: Promise<void> | undefined;
  let onInterrupt: (() => void) | undefined;
  try {
    // open first: the read below and the submission then come after the stream's starting point
    const { early, pending } = await untilOpen(it, openTimeoutMs);
    await opts.submit?.();
    model.applySnapshot(await readRollout(client, specId));
    view.start(model);
    const first = ctx.signal.aborted ? 'interrupted' : model.outcome(Date.now(), deadlineGraceMs);
    // final already: nothing to wait for, unless this command's own submission has events on their way
    if (first && (first === 'interrupted' || !opts.submit)) {
      view.finish(model, first);
      return { end: first, model };
    }

    let settle!: (r: { end: End } | { error: unknown }) => void;
    const settled = new Promise<{ end: End } | { error: unknown }>((r) => {
      settle = r;
    });
    let done = false;
    let closing: { outcome: Outcome; since: number } | undefined;
    let quiet: NodeJS.Timeout | undefined;
    const finish = (r: { end: End } | { error: unknown }) => {
      if (!done) {
        done = true;
        clearTimeout(quiet);
        settle(r);
        stop.abort();
      }
    };
    const settleSoon = () => {
      if (!closing) return;
      clearTimeout(quiet);
      const { outcome, since } = closing;
      quiet = setTimeout(
        () => finish({ end: outcome }),
        Math.max(0, Math.min(settleQuietMs, since + settleMaxMs - Date.now())),
      );
    };
    const check = () => {
      const o = model.outcome(Date.now(), deadlineGraceMs);
      if (!o) {
        closing = undefined;
        clearTimeout(quiet);
        return;
      } // a newer revision took over
      if (!closing) {
        closing = { outcome: o, since: Date.now() };
        settleSoon();
      }
    };
    if (first) check();
    onInterrupt = () => finish({ end: 'interrupted' });
    ctx.signal.addEventListener('abort', onInterrupt, { once: true });

    // one read at a time; events during a read ask for one more after it
    let reading = false;
    let again = false;
    const refetch = async () => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      try {
        do {
          again = false;
          const spec = await readRollout(client, specId);
          if (done) return;
          for (const change of model.applySnapshot(spec)) view.revision(change, model);
          view.tick(model);
          check();
        } while (again && !done);
      } catch (err) {
        // unreachable for now: the watch says so and reconnects; the next poll reads again
        if (!isTransient(err)) finish({ error: err });
      } finally {
        reading = false;
      }
    };
    const refetchSoon = () => {
      delayed ??= setTimeout(() => {
        delayed = undefined;
        void refetch();
      }, refetchDelayMs);
    };
    poll = setInterval(() => {
      check();
      view.tick(model);
      void refetch();
    }, pollMs);

    const handle = (item: WatchItem) => {
      if (item.type === 'event') {
        const t = model.applyEvent(item.event);
        if (t) view.transition(t, model);
        else view.tick(model);
        refetchSoon();
        settleSoon();
      } else if (item.type === 'reconnecting')
        view.connection(
          { kind: 'reconnecting', attempt: item.attempt, delayMs: item.delayMs, message: item.error.message },
          model,
        );
      else if (item.type === 'connected') {
        if (item.attempt > 0) view.connection({ kind: 'resumed' }, model);
        refetchSoon();
      } else refetchSoon(); // lag, or an expired cursor: a read restores what was skipped
    };
    watching = (async () => {
      try {
        for (const item of early) handle(item);
        let next = pending;
        while (!done) {
          const r = await (next ?? it.next());
          next = undefined;
          if (r.done || done) break;
          handle(r.value);
        }
      } catch (err) {
        finish({ error: err });
      }
    })();

    const r = await settled;
    if ('error' in r) {
      view.close();
      throw r.error;
    }
    view.finish(model, r.end);
    return { end: r.end, model };
  } finally {
    clearInterval(poll);
    clearTimeout(delayed);
    if (onInterrupt) ctx.signal.removeEventListener('abort', onInterrupt);
    stop.abort();
    await watching;
    await it.return?.(undefined);
  }
}
