import { RollbackGpuSpecificationDocument } from '@nvcf/client';
import { ok, type HttpClient } from '../src/client.js';
import { readSpec, submit } from '../src/rollout.js';
import { sleep, type Random } from './random.js';

export const TERMINAL = ['APPLIED', 'FAILED', 'SUPERSEDED'];

export interface RolloutTally {
  updates: number;
  rollbacks: number;
  /** rollbacks refused: the rollout had ended already, or a fault was on */
  rollbacksTooLate: number;
  /** how each rollout the workload waited for ended */
  ended: Record<string, number>;
  /** mutations or reads refused or unanswered while a fault was on (retried) */
  refused: number;
}

/**
 * Continuous in-place updates of one specification, a quarter of them rolled back mid-rollout, one
 * at a time: each waits for its revision to end (APPLIED, FAILED or SUPERSEDED), then the next begins.
 */
export async function rollouts(
  specId: string,
  client: () => HttpClient,
  random: Random,
  stopped: () => boolean,
  tally: RolloutTally,
) {
  let n = 0;
  while (!stopped()) {
    let revisionId: string;
    try {
      revisionId = ok(await submit(client(), specId, { replicas: 1, model: `m${++n}` })).updateGpuSpecification
        .latestRevision!.id;
      tally.updates++;
    } catch {
      tally.refused++;
      await sleep(1000);
      continue;
    }
    if (random.next() < 0.25) {
      // a rollback mid-rollout: a new revision with the last applied configuration supersedes it
      await sleep(random.between(100, 700));
      try {
        revisionId = ok(await client()(RollbackGpuSpecificationDocument, { id: specId })).rollbackGpuSpecification
          .latestRevision!.id;
        tally.rollbacks++;
      } catch {
        tally.rollbacksTooLate++; // the rollout ended first (nothing to roll back) or a fault: it is waited for as it is
      }
    }
    const until = Date.now() + 180_000;
    while (Date.now() < until) {
      await sleep(500);
      try {
        const latest = (await readSpec(client(), specId))?.latestRevision;
        if (latest && (latest.id !== revisionId || TERMINAL.includes(latest.status))) {
          const status = latest.id === revisionId ? latest.status : 'SUPERSEDED';
          tally.ended[status] = (tally.ended[status] ?? 0) + 1;
          break;
        }
      } catch {
        tally.refused++;
      }
    }
    await sleep(random.between(200, 1500));
  }
}
