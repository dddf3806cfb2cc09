/**
 * The readers' own capacity, measured as the raw ceiling is (bench/fleet/raw.ts): during a rollout
 * our readers can only apply what the simulated agents publish, which on one 2-core machine shared
 * with every process is far below what the readers take. So after the rollout, with the agents
 * stopped as the ceiling has them stopped, the same number of status events (per instance of the
 * row: UPDATING, then ACTIVE, both on the revision it runs, with newer clocks) goes to the real
 * status stream the same way the ceiling publishes its own, and each of our three readers is timed
 * from the first publish to its last acknowledgement. The events are real ones for real instances:
 * each reader writes them and nvcf evaluates their specification and version, as for any event.
 */
import { connect } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { subjects, type StatusEvent } from '@nvcf/contracts';
import { publishPairs } from './raw.js';

/** Events for a burst: two per instance, clocks above each instance's newest. */
export function burstEvents(newest: Iterable<StatusEvent>): StatusEvent[][] {
  const base = Date.now() * 1000;
  return [...newest].map((e, i) => {
    const clock = Math.max(base, e.clock + 1) + i * 2;
    const ref = {
      ncaId: e.ncaId,
      functionId: e.functionId,
      versionId: e.versionId,
      gpuSpecificationId: e.gpuSpecificationId,
      clusterId: e.clusterId,
      instanceId: e.instanceId,
    };
    const at = (c: number) => new Date(Math.floor(c / 1000)).toISOString();
    return [
      {
        ...ref,
        state: 'UPDATING',
        previousState: 'ACTIVE',
        revisionId: e.revisionId,
        targetRevisionId: e.revisionId ?? undefined,
        at: at(clock),
        clock,
      },
      {
        ...ref,
        state: 'ACTIVE',
        previousState: 'UPDATING',
        revisionId: e.revisionId,
        at: at(clock + 1),
        clock: clock + 1,
      },
    ];
  });
}

/** Publishes the burst on the status stream; resolves with the time the first publish began. */
export async function publishBurst(natsUrl: string, events: StatusEvent[][]): Promise<number> {
  const nc = await connect({ servers: natsUrl.split(','), name: 'fleet-bench-burst' });
  try {
    const t0 = Date.now();
    await publishPairs(jetstream(nc), events, subjects.status);
    return t0;
  } finally {
    await nc.close();
  }
}
