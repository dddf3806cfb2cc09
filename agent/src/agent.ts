import { build } from '@nvcf/lifecycle';
import { PoisonMessage, type Bus, type Consumer } from '@nvcf/bus';
import {
  Streams,
  durableName,
  msgIds,
  subjects,
  type ClusterOperatorsMessage,
  type CreateInstanceMessage,
  type TerminateInstanceMessage,
  type UpdateInstancesMessage,
} from '@nvcf/contracts';
import { MissingCrds, PermanentFailure, RemovalStuck, type ClusterDriver, type DesiredInstance } from './driver.js';
import { backoffDelay, defaultBackoff, type BackoffOptions } from './backoff.js';
import { keyedLock } from './keyed-lock.js';
import { report, type Last } from './reporter.js';
import { createLogger } from '@nvcf/logging';
import { Attr, counter, failSpan, histogram, inSpan, LONG_BUCKETS } from '@nvcf/telemetry';
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';

export interface AgentOptions {
  bus: Bus;
  driver: ClusterDriver;
  backoff?: BackoffOptions;
  /** messages worked on at once */
  concurrency?: number;
  /** redelivery after a silent agent (killed mid-work); long work is kept alive meanwhile */
  ackWaitMs?: number;
  /**
   * How often the agent re-checks which operator types its cluster can run (their CRDs served)
   * and reports a change to ICMS (drivers with `operatorSupport` only). Default 60 s; it also
   * checks at start and at once when an apply meets a missing CRD. 0: only the latter.
   */
  operatorCheckMs?: number;
  log?: (msg: string) => void;
}

export interface Agent extends AsyncDisposable {
  clusterId: string;
  /** stops consuming and abandons work in flight (its messages are redelivered) */
  stop(): Promise<void>;
  /** stops consuming, lets work in flight finish for up to `graceMs`, then abandons the rest */
  drain(graceMs: number): Promise<void>;
}

type Outcome = { ok: true } | { ok: false; reason: string };

const applies = counter(
  'nvcf_agent_applies_total',
  'Applies to the cluster finished, by cluster and outcome (ok, failed, aborted).',
  ['cluster', 'outcome'],
);
const applySeconds = histogram(
  'nvcf_agent_apply_duration_seconds',
  'Time from the first apply attempt to ready (or a permanent failure), by cluster, workload kind and outcome.',
  ['cluster', 'kind', 'outcome'],
  [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, ...LONG_BUCKETS.filter((b) => b > 30)],
);

/** The NVCA agent: consumes its cluster's work, applies it in place, reports every transition. */
export async function startAgent(opts: AgentOptions): Promise<Agent> {
  const { bus, driver } = opts;
  const clusterId = driver.clusterId;
  const backoff = opts.backoff ?? defaultBackoff;
  const logger = createLogger(`agent ${clusterId}`);
  const log = opts.log ?? ((m: string) => logger.info(m));
  const lock = keyedLock();
  const abort = new AbortController();
  // one signal is shared by every apply in flight (hundreds on a big rollout), each listening
  // for the stop while it waits: not the leak Node's default warning at 10 listeners suspects
  setMaxListeners(0, abort.signal);

  /** Applies until ready; temporary failures retry with capped backoff and jitter. One `apply` span, one observation by outcome. */
  const applyUntilReady = (d: DesiredInstance): Promise<Outcome> => {
    const done = applySeconds.time({ cluster: clusterId, kind: d.workload.kind });
    return inSpan(
      `apply ${d.workload.kind}`,
      {
        attributes: {
          [Attr.cluster]: clusterId,
          [Attr.instance]: d.instanceId,
          [Attr.revision]: d.revisionId,
          [Attr.tenant]: d.ncaId,
        },
      },
      async (span) => {
        let out: Outcome;
        try {
          out = await applyAttempts(d);
        } catch (err) {
          done({ outcome: 'aborted' });
          applies.inc({ cluster: clusterId, outcome: 'aborted' });
          throw err;
        }
        const outcome = out.ok ? 'ok' : 'failed';
        done({ outcome });
        applies.inc({ cluster: clusterId, outcome });
        span?.setAttribute(Attr.outcome, outcome);
        if (!out.ok) failSpan(span, new Error('apply failed permanently'));
        return out;
      },
    );
  };
  /** Tells ICMS which operator types this cluster can run; only when that changed, unless forced. */
  let reported = '';
  let reportClock = 0;
  const reportOperators = async (force: boolean) => {
    if (!driver.operatorSupport || abort.signal.aborted) return;
    try {
      const operators = await driver.operatorSupport();
      const key = JSON.stringify(operators);
      if (!force && key === reported) return;
      reportClock = Math.max(reportClock + 1, Date.now() * 1000);
      const m: ClusterOperatorsMessage = {
        type: 'operators',
        clusterId,
        at: new Date(Math.floor(reportClock / 1000)).toISOString(),
        clock: reportClock,
        operators,
      };
      await bus.publish(subjects.cluster(clusterId), m, { msgId: msgIds.cluster(m) });
      reported = key;
      const missing = operators.filter((o) => o.missingCrds.length);
      log(
        `operator support reported: ${missing.length ? missing.map((o) => `${o.operatorType} missing ${o.missingCrds.join(', ')}`).join('; ') : 'every operator type installed'}`,
      );
    } catch (err) {
      if (!abort.signal.aborted) log(`cannot check the cluster's operator CRDs: ${(err as Error).message}`);
    }
  };

  const applyAttempts = async (d: DesiredInstance): Promise<Outcome> => {
    for (let attempt = 1; ; attempt++) {
      try {
        await driver.apply(d, abort.signal);
        return { ok: true };
      } catch (err) {
        if (abort.signal.aborted) throw err;
        // ICMS stops placing that operator type here before the failure is reported
        if (err instanceof MissingCrds) await reportOperators(false);
        if (err instanceof PermanentFailure) return { ok: false, reason: err.message };
        const delay = backoffDelay(attempt, backoff);
        log(
          `apply ${d.instanceId}@${d.revisionId} failed (attempt ${attempt}), retrying in ${delay} ms: ${(err as Error).message}`,
        );
        // abortable: a stopping agent does not sit out its backoff
        await sleep(delay, undefined, { signal: abort.signal });
      }
    }
  };

  const onCreate = async (m: CreateInstanceMessage) =>
    lock(m.instanceId, async () => {
      const obs = await driver.observe(m.instanceId);
      if (obs && (obs.readyRevisionId === m.revisionId || obs.desired.revisionCreatedAt > m.revisionCreatedAt)) return; // redelivered or overtaken
      if (obs?.reportedState === 'FAILED' || obs?.reportedState === 'TERMINATED') return;
      const d: DesiredInstance = { ...m, instanceId: m.instanceId };
      let last: Last = obs;
      if (last?.reportedState !== 'STARTING')
        last = await report(bus, driver, d, last, { state: 'STARTING', revisionId: null });
      const out = await applyUntilReady(d);
      if (out.ok) await report(bus, driver, d, last, { state: 'ACTIVE', revisionId: m.revisionId });
      else
        await report(bus, driver, d, last, { state: 'FAILED', revisionId: null, message: out.reason, permanent: true });
    });

  const updateOne = async (m: UpdateInstancesMessage, instanceId: string) =>
    lock(instanceId, async () => {
      const obs = await driver.observe(instanceId);
      // at-least-once delivery: targets this agent does not manage are not ours to touch
      if (!obs || obs.desired.clusterId !== clusterId) {
        log(`ignoring update of ${instanceId}: not managed by this agent`);
        return;
      }
      if (obs.readyRevisionId === m.revisionId) return; // already applied: a redelivery is a no-op
      if (obs.desired.revisionCreatedAt > m.revisionCreatedAt) return; // a newer revision already won
      if (obs.reportedState === 'FAILED' || obs.reportedState === 'TERMINATED') return;
      const d: DesiredInstance = {
        ...obs.desired,
        revisionId: m.revisionId,
        revisionCreatedAt: m.revisionCreatedAt,
        workload: m.workload,
      };
      const starting = obs.readyRevisionId === null;
      let last: Last = obs;
      // Already UPDATING (an agent that died mid-update): the UPDATING it reported named the revision
      // its apply wrote into `desired`; when that is another revision than this message's, readers
      // would show a stale target, so the move to this one is reported again (UPDATING → UPDATING).
      // An apply that had not started yet left no trace of its target: then nothing is re-reported,
      // as a duplicate UPDATING would be worse than a target that is usually this one anyway.
      const retargeted =
        last.reportedState === 'UPDATING' &&
        obs.desired.revisionId !== m.revisionId &&
        obs.desired.revisionId !== obs.readyRevisionId;
      if (!starting && (last.reportedState !== 'UPDATING' || retargeted)) {
        last = await report(bus, driver, d, last, {
          state: 'UPDATING',
          revisionId: obs.readyRevisionId,
          targetRevisionId: m.revisionId,
        });
      }
      const out = await applyUntilReady(d);
      if (out.ok) await report(bus, driver, d, last, { state: 'ACTIVE', revisionId: m.revisionId });
      else if (starting)
        await report(bus, driver, d, last, {
          state: 'FAILED',
          revisionId: null,
          message: out.reason,
          permanent: true,
          targetRevisionId: m.revisionId,
        });
      // the instance keeps serving its last applied revision (rule 9)
      else
        await report(bus, driver, obs.desired, last, {
          state: 'ACTIVE',
          revisionId: obs.readyRevisionId,
          message: `update to revision ${m.revisionId} failed: ${out.reason}`,
          failedRevisionId: m.revisionId,
          permanent: true,
        });
    });

  const onTerminate = async (m: TerminateInstanceMessage) =>
    lock(m.instanceId, async () => {
      const obs = await driver.observe(m.instanceId);
      if (!obs || obs.reportedState === 'TERMINATED') return;
      let last: Last = obs;
      // TERMINATED only once the cluster is clean: objects held by finalizers past the driver's
      // timeout are reported (FAILED, naming them), and the agent keeps waiting for them
      for (let attempt = 1, told = false; ; attempt++) {
        try {
          await driver.remove(m.instanceId, m.graceful);
          break;
        } catch (err) {
          if (!(err instanceof RemovalStuck) || abort.signal.aborted) throw err;
          if (!told)
            last = await report(bus, driver, obs.desired, last, {
              state: 'FAILED',
              revisionId: obs.readyRevisionId,
              message: `undeploy stuck: ${err.message}`,
            });
          told = true;
          log(`terminate ${m.instanceId}: ${err.message}`);
          await sleep(backoffDelay(attempt, backoff), undefined, { signal: abort.signal });
        }
      }
      await report(bus, driver, obs.desired, last, { state: 'TERMINATED', revisionId: obs.readyRevisionId });
    });

  const guard =
    <T extends { clusterId: string }>(fn: (m: T) => Promise<unknown>) =>
    async ({ data }: { data: T }) => {
      if (!data || typeof data !== 'object') throw new PoisonMessage('payload is not an object');
      if (data.clusterId !== clusterId) {
        log(`ignoring a message for cluster ${data.clusterId}`);
        return;
      }
      await fn(data);
    };
  // The work durables keep their stream's replicas. One would do, and would spare a fleet an R3 Raft
  // group per cluster and stream: a lost durable is created again by its loop and reads what is still
  // pending in the work queue. But NATS refuses a work-queue consumer whose replicas differ from its
  // stream's (API error 10134, nats-server 2.15.2), so on R3 streams the agent would not start.
  const common = {
    ackWaitMs: opts.ackWaitMs ?? 30_000,
    maxDeliver: 50,
    maxAckPending: opts.concurrency ?? 64,
    backoffMs: [1000, 5000, 15000],
  };
  return build(async (stack) => {
    stack.defer(() => abort.abort(new Error('agent stopping')));
    const consumers: Consumer[] = [];
    // each consumer is stopped again if a later one cannot start: no half-started agent keeps work
    const adopt = (c: Consumer) => {
      consumers.push(c);
      stack.defer(() => c.stop());
    };
    adopt(
      await bus.consume<CreateInstanceMessage>(
        {
          ...common,
          stream: Streams.create.name,
          durable: durableName(Streams.create.name, clusterId),
          filterSubject: subjects.create(clusterId),
        },
        guard(onCreate),
      ),
    );
    adopt(
      await bus.consume<UpdateInstancesMessage>(
        {
          ...common,
          stream: Streams.update.name,
          durable: durableName(Streams.update.name, clusterId),
          filterSubject: subjects.update(clusterId),
        },
        guard((m: UpdateInstancesMessage) => Promise.all(m.targets.map((t) => updateOne(m, t)))),
      ),
    );
    adopt(
      await bus.consume<TerminateInstanceMessage>(
        {
          ...common,
          stream: Streams.terminate.name,
          durable: durableName(Streams.terminate.name, clusterId),
          filterSubject: subjects.terminate(clusterId),
        },
        guard(onTerminate),
      ),
    );

    // 0: no checks of its own, only the report an apply meeting a missing CRD triggers
    if (opts.operatorCheckMs !== 0) {
      await reportOperators(true);
      const checks = setInterval(() => void reportOperators(false), opts.operatorCheckMs ?? 60_000);
      checks.unref();
      abort.signal.addEventListener('abort', () => clearInterval(checks), { once: true });
    }

    const stop = async () => {
      abort.abort(new Error('agent stopping'));
      await Promise.all(consumers.map((c) => c.stop()));
    };
    const drain = async (graceMs: number) => {
      // applies in flight may finish and report within the grace; the rest are abandoned to redelivery
      await Promise.all(consumers.map((c) => c.stop({ graceMs })));
      abort.abort(new Error('agent stopping'));
    };
    return { clusterId, stop, drain, [Symbol.asyncDispose]: stop };
  });
}
