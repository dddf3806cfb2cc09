import { PoisonMessage, type Consumer, type StartAt } from '@nvcf/bus';
import { Streams, readerOf, type IcmsRpc, type TaskPlacement, type TaskReport, type Workload } from '@nvcf/contracts';
import type { GraphQLError } from 'graphql';
import type { OperatorRegistry } from '@nvcf/operators';
import { createLogger } from '@nvcf/logging';
import { rpcClient } from '@nvcf/subgraph-kit';
import type { TaskRecord } from './model.js';
import { stopWhereSent, transition, type Decision, type TaskDeps } from './lifecycle.js';

const log = createLogger('nvct');

/** The one ICMS call nvct makes (POST /internal/rpc/placeTask). */
export type PlaceTask = (tenant: string, input: TaskPlacement) => Promise<IcmsRpc['placeTask']['output']>;

/** placeTask over ICMS's internal RPC; the URL is resolved late so services may start in any order. */
export function httpPlaceTask(baseUrl: () => string, secret: string): PlaceTask {
  const call = rpcClient(baseUrl, secret, 'icms');
  return (tenant, input) => call(tenant, 'placeTask', input);
}

/** What the agent runs for a task: always complete (Helm values are the task's configuration). */
export function taskWorkload(t: TaskRecord): Workload {
  switch (t.workloadType) {
    case 'HELM':
      return { kind: 'helm', chart: t.helmChart, serviceName: t.helmChartServiceName, values: t.configuration ?? {} };
    case 'CONTAINER':
      return { kind: 'container', image: t.containerImage, args: t.containerArgs, environment: t.containerEnvironment };
    case 'OPERATOR':
      // a task serves nothing: no service to name
      return {
        kind: 'operator',
        operatorTypes: t.operatorTypes,
        manifests: t.manifests,
        serviceName: '',
        servicePort: 0,
      };
  }
}

/** Where a task may run (the cluster attributes its operator types need, as for a function) and what runs there. */
export function taskPlacement(t: TaskRecord, registry: OperatorRegistry): TaskPlacement {
  const operatorTypes = t.workloadType === 'OPERATOR' ? t.operatorTypes : [];
  return {
    placement: {
      gpu: t.gpu,
      instanceType: t.instanceType,
      clusters: t.clusters,
      regions: t.regions,
      attributes: [...new Set(operatorTypes.map((o) => registry.get(o)!.clusterAttribute))],
      singleTenant: t.workloadType === 'OPERATOR',
    },
    run: {
      ncaId: t.ncaId,
      taskId: t.id,
      gpu: t.gpu,
      instanceType: t.instanceType,
      workload: taskWorkload(t),
      configuration: t.configuration,
      terminationGracePeriodDuration: t.terminationGracePeriodDuration,
    },
  };
}

const code = (err: unknown) => (err as GraphQLError).extensions?.code;

/**
 * One pass over the queued tasks, oldest first: each is placed by ICMS (which sends it to its
 * cluster) and marked LAUNCHED there. One no cluster can take yet (none eligible, or every
 * eligible one full) stays QUEUED and is tried again next pass,
 * until the deadline sweep ends it. A task that ended while it was being placed (a cancel, its
 * deadline) is stopped on the cluster it was sent to. `open`: the open tasks, when already read.
 */
export async function placeQueued(
  deps: TaskDeps,
  place: PlaceTask,
  registry: OperatorRegistry,
  open?: TaskRecord[],
): Promise<number> {
  let launched = 0;
  // oldest first: when a full cluster frees GPUs, the task that has waited longest takes them
  const queued = (open ?? (await deps.store.listOpen()))
    .filter((t) => t.status === 'QUEUED')
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  for (const t of queued) {
    let clusterId: string;
    try {
      ({ clusterId } = await place(t.ncaId, taskPlacement(t, registry)));
    } catch (err) {
      if (code(err) !== 'NO_ELIGIBLE_CLUSTER') log.warn(`placing task ${t.id} failed; retrying`, err);
      continue;
    }
    const moved = await transition(deps, t.id, (cur) =>
      cur.status === 'QUEUED' ? { status: 'LAUNCHED', message: null, clusterId } : null,
    );
    if (moved) launched++;
    else {
      const [cur] = await deps.store.get([t.id]);
      if (cur) await stopWhereSent(deps, cur, clusterId);
    }
  }
  return launched;
}

function taskReportOf(data: unknown): TaskReport {
  const r = data as TaskReport;
  if (
    !r ||
    r.type !== 'task-report' ||
    typeof r.taskId !== 'string' ||
    typeof r.ncaId !== 'string' ||
    !['RUNNING', 'COMPLETED', 'ERRORED'].includes(r.status)
  )
    throw new PoisonMessage('not a TaskReport');
  return r;
}

/**
 * Applies one agent report by compare-and-set from where the task is now: a repeated report, or a
 * late RUNNING after the end, finds no edge and changes nothing. A report that overtook the
 * LAUNCHED of its placement launches the task first, and an end that overtook its RUNNING marks
 * it running first: the agent's report is the proof.
 */
export async function applyReport(deps: TaskDeps, r: TaskReport): Promise<TaskRecord | null> {
  // reports of one task may be applied side by side: one that overtook the LAUNCHED of its placement,
  // or an end that overtook its RUNNING, first moves the task through the states it implies
  const step: Decision = (cur) => {
    if (cur.ncaId !== r.ncaId) return null;
    if (cur.status === 'QUEUED') return { status: 'LAUNCHED', message: null, clusterId: r.clusterId };
    if (cur.status === 'LAUNCHED' && r.status !== 'RUNNING') return { status: 'RUNNING', message: null };
    return { status: r.status, message: r.message };
  };
  let last: TaskRecord | null = null;
  for (let moved = await transition(deps, r.taskId, step); moved; moved = await transition(deps, r.taskId, step)) {
    last = moved;
    if (moved.status === r.status) break;
  }
  return last;
}

/** nvct's durable reader of the agents' task reports. */
export function consumeReports(deps: TaskDeps, consumer = 'nvct', startAt?: StartAt): Promise<Consumer> {
  return deps.bus.consume(readerOf(Streams.taskReport, consumer, startAt), async ({ data }) => {
    await applyReport(deps, taskReportOf(data));
  });
}
