import { counter, histogram, LONG_BUCKETS } from '@nvcf/telemetry';
import type { NvcfStore } from './store/index.js';

const started = counter(
  'nvcf_rollouts_started_total',
  'Revisions that began rolling out (ROLLING_OUT), on this replica. In progress across replicas: started minus finished.',
  [],
);
const finished = counter(
  'nvcf_rollouts_finished_total',
  'Rollouts that ended, by outcome (APPLIED, FAILED), on this replica.',
  ['outcome'],
);
const seconds = histogram(
  'nvcf_rollout_duration_seconds',
  'Time from the start of a rollout to APPLIED or FAILED, by outcome.',
  ['outcome'],
  LONG_BUCKETS,
);

/**
 * The store with every successful revision transition counted: a rollout starts when a
 * revision becomes ROLLING_OUT and ends when it becomes APPLIED or FAILED (CAS makes each
 * transition happen once, whichever replica writes it).
 */
export function withRolloutMetrics(store: NvcfStore): NvcfStore {
  const cas = store.casRevisions.bind(store);
  return Object.assign(Object.create(store) as NvcfStore, {
    async casRevisions(...args: Parameters<NvcfStore['casRevisions']>) {
      const ok = await cas(...args);
      const rev = args[2].latest;
      if (ok && rev) {
        if (rev.status === 'ROLLING_OUT') started.inc();
        else if ((rev.status === 'APPLIED' || rev.status === 'FAILED') && rev.startedAt) {
          finished.inc({ outcome: rev.status });
          seconds.observe({ outcome: rev.status }, Math.max(0, (Date.now() - Date.parse(rev.startedAt)) / 1000));
        }
      }
      return ok;
    },
  });
}
