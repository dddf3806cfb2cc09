import { PoisonMessage, type Bus, type Consumer, type StartAt } from '@nvcf/bus';
import {
  Streams,
  readerOf,
  statusEventOf,
  taskEnded,
  type ClusterOperatorsMessage,
  type TaskStatusEvent,
} from '@nvcf/contracts';
import type { IcmsStore } from './store/index.js';
import { releaseIfUnused } from './tenancy.js';

/** ICMS tracks instance state (for the current set and placement) from the status stream. */
export async function consumeStatus(
  store: IcmsStore,
  bus: Bus,
  consumer = 'icms',
  startAt?: StartAt,
): Promise<Consumer> {
  return bus.consume(readerOf(Streams.status, consumer, startAt), async ({ data }) => {
    const e = statusEventOf(data);
    await store.recordState(e.instanceId, e.state, e.revisionId, e.clock, e.at);
    if (e.state !== 'TERMINATED') return;
    // the single-tenant lock ends with the last operator workload on the cluster, once the agent
    // reported it TERMINATED (its objects gone): a FAILED one still has its namespace there
    await releaseIfUnused(store, e.clusterId);
  });
}

/**
 * ICMS ends a placed task when nvct publishes its terminal status, and with its end the cluster's
 * single-tenant lock when it was the last operator workload there.
 */
export async function consumeTaskEnds(
  store: IcmsStore,
  bus: Bus,
  consumer = 'icms',
  startAt?: StartAt,
): Promise<Consumer> {
  return bus.consume<TaskStatusEvent>(readerOf(Streams.taskStatus, consumer, startAt), async ({ data: e }) => {
    if (!e || e.type !== 'task-status' || typeof e.taskId !== 'string' || typeof e.status !== 'string')
      throw new PoisonMessage('not a TaskStatusEvent');
    if (!taskEnded(e.status)) return;
    // the end first: a placement stored after it (a cancel that overtook its placement) stays ended
    await store.endTask(e.taskId);
    const placed = await store.getTask(e.taskId);
    if (placed?.singleTenant) await releaseIfUnused(store, placed.clusterId);
  });
}

/** ICMS keeps each agent's newest report of the operator CRDs its cluster serves (placement reads it). */
export async function consumeClusterReports(
  store: IcmsStore,
  bus: Bus,
  consumer = 'icms',
  startAt?: StartAt,
): Promise<Consumer> {
  return bus.consume<ClusterOperatorsMessage>(readerOf(Streams.cluster, consumer, startAt, 64), async ({ data: m }) => {
    if (
      !m ||
      m.type !== 'operators' ||
      typeof m.clusterId !== 'string' ||
      !Array.isArray(m.operators) ||
      typeof m.clock !== 'number'
    ) {
      throw new PoisonMessage('not a ClusterOperatorsMessage');
    }
    await store.setOperatorReport(m.clusterId, { clock: m.clock, at: m.at, operators: m.operators });
  });
}
