import { type Bus, type Consumer, type StartAt } from '@nvcf/bus';
import { Streams, readerOf, statusEventOf } from '@nvcf/contracts';
import type { Nvcf } from './nvcf.js';
import { retryHandoffs } from './handoff.js';
import { createLogger } from '@nvcf/logging';
import { periodic } from '@nvcf/lifecycle';

const log = createLogger('nvcf');

/**
 * Handlers in flight at once. Each waits for its spec's next coalesced evaluation (up to a tick
 * plus one evaluation) before it acks, so the reader needs more in flight than the others to keep
 * the same pace: throughput is this divided by that wait.
 */
const IN_FLIGHT = 1024;

/**
 * nvcf's own durable reader of the status stream: records each instance's newest state
 * and moves revisions and function status. Idempotent, so redelivery is harmless.
 */
export async function consumeStatus(nvcf: Nvcf, bus: Bus, consumer = 'nvcf', startAt?: StartAt): Promise<Consumer> {
  return bus.consume(readerOf(Streams.status, consumer, startAt, IN_FLIGHT), async ({ data }) => {
    const e = statusEventOf(data);
    await nvcf.store.recordInstance(e.gpuSpecificationId, {
      instanceId: e.instanceId,
      state: e.state,
      revisionId: e.revisionId,
      clock: e.clock,
      failedRevisionId: e.failedRevisionId ?? null,
      targetRevisionId: e.targetRevisionId ?? null,
      message: e.message ?? null,
    });
    await Promise.all([
      nvcf.rollouts.evaluate(e.gpuSpecificationId),
      nvcf.rollouts.evaluateVersion(e.versionId, e.state),
    ]);
  });
}

/** Periodically fails revisions past their deadline, and hands off those ICMS could not take yet. */
export function sweepDeadlines(nvcf: Nvcf, everyMs: number): { stop(): void } {
  return periodic(
    everyMs,
    () => nvcf.rollouts.sweepDeadlines().then(() => retryHandoffs(nvcf)),
    (err) => log.error('deadline sweep failed', err),
  );
}
