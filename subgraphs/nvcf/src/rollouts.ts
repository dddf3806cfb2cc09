import type { FunctionStatus, InstanceObservation, Revision, RevisionPair } from './model.js';
import type { NvcfStore } from './store/index.js';
import { rolloutProgress } from './progress.js';

const RUNNING = new Set(['ACTIVE', 'UPDATING']); // UPDATING counts as ACTIVE everywhere

/** Default spacing of one key's evaluations while events keep coming (see `coalesce`). */
const EVALUATION_TICK_MS = 100;
/**
 * How often the deadline sweep also evaluates every revision in flight (the safety net for an
 * evaluation lost with its process), whatever the sweep's own interval: each such pass reads every
 * in-flight spec's instances, and a sweep runs as often as deadlines need checking.
 */
const REEVALUATE_EVERY_MS = 2000;

/** Decides revision outcomes and function status from what instances report. */
export class Rollouts {
  private readonly inFlight = new Map<string, { again: boolean; done: Promise<void> }>();
  /** versions with a report since their last evaluation that can lower an ACTIVE version's status */
  private readonly mayLower = new Set<string>();
  private lastReevaluation = 0;
  constructor(
    private readonly store: NvcfStore,
    private readonly tickMs = EVALUATION_TICK_MS,
  ) {}

  /**
   * One evaluation per key at a time, plus one trailing run that sees everything recorded
   * meanwhile, started at most once per tick: a 10 000-instance rollout would otherwise read a
   * spec's states once per event, and back-to-back runs would still read them as fast as the store
   * answers while the readers need it for writes. A first event is evaluated at once; the caller's
   * promise settles after a run that began after its call, so a reader acks an event only once an
   * evaluation has seen it.
   */
  private coalesce(key: string, fn: () => Promise<void>): Promise<void> {
    const cur = this.inFlight.get(key);
    if (cur) {
      cur.again = true;
      return cur.done;
    }
    const entry = { again: false, done: Promise.resolve() };
    entry.done = (async () => {
      try {
        do {
          entry.again = false;
          const started = Date.now();
          await fn();
          const rest = started + this.tickMs - Date.now();
          if (entry.again && rest > 0) await new Promise((r) => setTimeout(r, rest));
        } while (entry.again);
      } finally {
        this.inFlight.delete(key);
      }
    })();
    this.inFlight.set(key, entry);
    return entry.done;
  }

  /** The latest revision's outcome from the targets' states; a CAS keeps it race-free. */
  evaluate(specId: string): Promise<void> {
    return this.coalesce(`spec:${specId}`, () => this.evaluateNow(specId));
  }

  private async evaluateNow(specId: string): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const [pair] = await this.store.getRevisions([specId]);
      const rev = pair?.latest;
      if (!pair || !rev || rev.status !== 'ROLLING_OUT' || !rev.targets) return;
      const next = outcome(pair, rev, byInstance(await this.store.instanceStates(specId)));
      if (!next) return;
      if (await this.store.casRevisions(specId, rev.id, next)) return;
    }
  }

  async fail(pair: RevisionPair, reason: string): Promise<boolean> {
    const rev = pair.latest!;
    return this.store.casRevisions(pair.specId, rev.id, {
      latest: { ...rev, status: 'FAILED', failureReason: reason },
      lastApplied: pair.lastApplied,
    });
  }

  /**
   * Revisions past their deadline become FAILED; the instances keep serving lastApplied. The others
   * are evaluated again: an evaluation lost with the process that owed it (a reader acked its event,
   * a mutation returned, then the replica died) is made up within REEVALUATE_EVERY_MS, on any replica. During
   * a rollout that joins the readers' coalesced evaluation of the same spec rather than adding one.
   */
  async sweepDeadlines(nowMs = Date.now()): Promise<number> {
    let failed = 0;
    const live: string[] = [];
    for (const pair of await this.store.inFlightRevisions()) {
      const rev = pair.latest!;
      if (!rev.deadline || Date.parse(rev.deadline) > nowMs) {
        live.push(pair.specId);
        continue;
      }
      const states = await this.store.instanceStates(pair.specId);
      // a rollout the states already decide (its evaluation held up, by a store outage say) ends as
      // they say: a deadline only ends one that has no outcome yet
      const decided = rev.status === 'ROLLING_OUT' && rev.targets ? outcome(pair, rev, byInstance(states)) : null;
      if (decided) {
        await this.store.casRevisions(pair.specId, rev.id, decided);
        continue;
      }
      // the same counts Revision.progress shows, so the reason and the progress agree
      const p = rolloutProgress(rev, states, true);
      if (
        await this.fail(
          pair,
          `deadline ${rev.deadline} passed with ${p.applied} of ${p.total} instances on this revision`,
        )
      )
        failed++;
    }
    if (Date.now() - this.lastReevaluation >= REEVALUATE_EVERY_MS) {
      this.lastReevaluation = Date.now();
      await Promise.all(live.map((specId) => this.evaluate(specId)));
    }
    return failed;
  }

  /**
   * Function version status from its specs' instances (DOMAIN.md state machine). `state`: the
   * instance state that prompted it, when one did. An ACTIVE version keeps its status while every
   * report since its last evaluation is of a running instance (a running count only grows then, so
   * every spec that met its minimum still does): such an evaluation reads the version and stops,
   * instead of every instance of every spec of the deployment once per tick during a rollout.
   */
  evaluateVersion(versionId: string, state?: InstanceObservation['state']): Promise<void> {
    if (!state || !RUNNING.has(state)) this.mayLower.add(versionId);
    return this.coalesce(`version:${versionId}`, () => this.evaluateVersionNow(versionId));
  }

  private async evaluateVersionNow(versionId: string): Promise<void> {
    // taken before the reads: a report that lowers it and arrives meanwhile sets it again for the trailing run
    const mayLower = this.mayLower.delete(versionId);
    const [v] = await this.store.getVersions([versionId]);
    if (!v?.deploymentId || v.status === 'INACTIVE' || v.status === 'DELETED') return;
    if (v.status === 'ACTIVE' && !mayLower) return;
    const [d] = await this.store.getDeployments([v.deploymentId]);
    if (!d) return;
    const specs = await this.store.getSpecs(d.specIds);
    let allMet = true,
      anyRunning = false,
      anySpecAllFailed = false;
    for (const s of specs) {
      if (!s) continue;
      const states = await this.store.instanceStates(s.id);
      const running = states.filter((o) => RUNNING.has(o.state)).length;
      const failed = states.filter((o) => o.state === 'FAILED').length;
      if (running < s.minInstances) allMet = false;
      if (running > 0) anyRunning = true;
      if (s.minInstances > 0 && failed >= s.minInstances && running === 0) anySpecAllFailed = true;
    }
    const next = nextStatus(v.status, allMet, anyRunning, anySpecAllFailed);
    if (next !== v.status) await this.store.setVersionStatus(versionId, next, [v.status]);
  }
}

const byInstance = (states: InstanceObservation[]) => new Map(states.map((o) => [o.instanceId, o]));

function outcome(
  pair: RevisionPair,
  rev: Revision,
  states: Map<string, InstanceObservation>,
): Omit<RevisionPair, 'specId'> | null {
  let pending = 0;
  for (const id of rev.targets ?? []) {
    const s = states.get(id);
    if (!s) {
      pending++;
      continue;
    }
    if (s.failedRevisionId === rev.id || (s.state === 'FAILED' && (s.revisionId === rev.id || s.revisionId === null))) {
      return {
        latest: { ...rev, status: 'FAILED', failureReason: `instance ${id}: ${s.message ?? 'failed permanently'}` },
        lastApplied: pair.lastApplied,
      };
    }
    if (s.state === 'TERMINATED') continue; // gone instances are no longer targets
    if (!(s.state === 'ACTIVE' && s.revisionId === rev.id)) pending++;
  }
  if (pending) return null;
  const applied: Revision = { ...rev, status: 'APPLIED', appliedAt: new Date().toISOString() };
  return { latest: applied, lastApplied: applied };
}

function nextStatus(
  cur: FunctionStatus,
  allMet: boolean,
  anyRunning: boolean,
  anySpecAllFailed: boolean,
): FunctionStatus {
  if (cur === 'DEPLOYING') return allMet ? 'ACTIVE' : anySpecAllFailed ? 'ERROR' : 'DEPLOYING';
  if (cur === 'ERROR') return allMet ? 'ACTIVE' : 'ERROR';
  if (allMet) return 'ACTIVE';
  return anyRunning ? 'DEGRADING' : 'DEGRADED';
}
