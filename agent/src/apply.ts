import { setTimeout as sleep } from 'node:timers/promises';
import { Attr, counter, failSpan, histogram, inSpan, LONG_BUCKETS } from '@nvcf/telemetry';
import { MissingCrds, PermanentFailure, type ClusterDriver, type DesiredInstance } from './driver.js';
import { backoffDelay, type BackoffOptions } from './backoff.js';

export type Outcome = { ok: true } | { ok: false; reason: string };

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

export interface ApplierOptions {
  driver: ClusterDriver;
  backoff: BackoffOptions;
  /** the agent's stop: ends every apply and backoff in flight */
  signal: AbortSignal;
  log: (msg: string) => void;
  /** an apply met a missing CRD: tell ICMS before the failure is reported */
  onMissingCrds: () => Promise<void>;
}

/** Applies desired instances until ready; temporary failures retry with capped backoff and jitter. */
export class Applier {
  constructor(private readonly o: ApplierOptions) {}

  /** One `apply` span, one observation by outcome; throws only when the agent stops. */
  untilReady(d: DesiredInstance): Promise<Outcome> {
    const clusterId = this.o.driver.clusterId;
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
          out = await this.attempts(d);
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
  }

  private async attempts(d: DesiredInstance): Promise<Outcome> {
    const { driver, signal, backoff, log } = this.o;
    for (let attempt = 1; ; attempt++) {
      try {
        await driver.apply(d, signal);
        return { ok: true };
      } catch (err) {
        if (signal.aborted) throw err;
        // ICMS stops placing that operator type here before the failure is reported
        if (err instanceof MissingCrds) await this.o.onMissingCrds();
        if (err instanceof PermanentFailure) return { ok: false, reason: err.message };
        const delay = backoffDelay(attempt, backoff);
        log(
          `apply ${d.instanceId}@${d.revisionId} failed (attempt ${attempt}), retrying in ${delay} ms: ${(err as Error).message}`,
        );
        // abortable: a stopping agent does not sit out its backoff
        await sleep(delay, undefined, { signal });
      }
    }
  }
}
