import { createHash } from 'node:crypto';
import { fail } from '@nvcf/errors';
import { type Bus } from '@nvcf/bus';
import {
  msgIds,
  subjects,
  type CreateInstanceMessage,
  type IcmsRpc,
  type LaunchSpec,
  type RunTaskMessage,
  type TerminateInstanceMessage,
  type UpdateInstancesMessage,
} from '@nvcf/contracts';
import type { RpcHandlers } from '@nvcf/subgraph-kit';
import type { IcmsStore } from './store/index.js';
import { isLive, type ClusterRecord, type InstanceRecord } from './model.js';
import { gpuUse, nodeSelectorOf, placeEach, type Occupant } from './placement.js';
import { dedicate, releaseIfUnused } from './tenancy.js';

type Handlers = RpcHandlers<IcmsRpc>;

/** ICMS's internal operations, called by nvcf over RPC. */
/** A UUID (version 8, RFC 9562) derived from a key: the same key, the same id. */
function derivedId(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The same revision, the same update action. */
const updateActionIdOf = (revisionId: string) => derivedId(`update-action:${revisionId}`);
/** The n-th instance a spec's launch creates: a repeated launch names the same instances. */
const launchedIdOf = (specId: string, revisionId: string, n: number) =>
  derivedId(`instance:${specId}:${revisionId}:${n}`);

export function icmsHandlers(store: IcmsStore, bus: Bus): Handlers {
  // what runs on each cluster, by tenant, and the GPUs it holds: live instances and tasks not ended
  // (but the task being placed: a repeated placeTask finds its own earlier placement)
  const liveByCluster = async (clusters: ClusterRecord[], placing?: string) =>
    new Map<string, Occupant[]>(
      await Promise.all(
        clusters.map(async (c) => {
          const [instances, tasks] = await Promise.all([
            store.listInstancesByCluster(c.id),
            store.listTasksByCluster(c.id),
          ]);
          const open = tasks.filter((t) => !t.ended && t.id !== placing);
          return [c.id, [...instances.filter(isLive), ...open]] as [string, Occupant[]];
        }),
      ),
    );
  // Capacity is read, then taken by the records stored after it: placements one at a time, so
  // that two of them do not both take the last GPUs (within this process; see docs/tasks.md)
  let tail: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn);
    tail = run.catch(() => {});
    return run;
  };
  const taken = (c: ClusterRecord) =>
    fail('NO_ELIGIBLE_CLUSTER', `cluster ${c.name} was taken by another tenant's operator workload meanwhile; retry`);

  /**
   * Places and stores what a launch misses, every spec or none (a refusal of any creates nothing);
   * each spec's instances, kept and created.
   */
  const storeLaunch = async (tenant: string, specs: LaunchSpec[]) => {
    const clusters = await store.listClusters();
    const live = await liveByCluster(clusters);
    // A launch is repeated when its answer was lost (nvcf's call timed out while this one went on, or
    // ICMS went away part-way): the instances it already stored are kept and their messages sent again
    // (the streams drop the duplicates by msgId); only what is missing is placed
    const existing = await store.listInstancesBySpec(specs.map((s) => s.ref.gpuSpecificationId));
    const plans = specs.map((s, i) => {
      const kept = existing[i].filter((x) => x.ncaId === tenant && x.launchRevisionId === s.revisionId);
      const missing = Math.max(0, s.count - kept.length);
      return { s, kept, targets: placeEach(clusters, live, tenant, s.placement, `gpuSpecifications[${i}]`, missing) };
    });
    for (const { s, targets } of plans) {
      if (!s.placement.singleTenant) continue;
      for (const c of new Set(targets)) if (!(await dedicate(store, c, tenant))) throw taken(c);
    }
    const now = new Date().toISOString();
    const stored: { s: LaunchSpec; all: InstanceRecord[] }[] = [];
    for (const { s, targets, kept } of plans) {
      const keptIds = new Set(kept.map((k) => k.id));
      const created: InstanceRecord[] = [];
      for (let n = 0; created.length < targets.length; n++) {
        const id = launchedIdOf(s.ref.gpuSpecificationId, s.revisionId, n);
        if (keptIds.has(id)) continue;
        const target = targets[created.length];
        created.push({
          id,
          ...s.ref,
          clusterId: target.id,
          launchRevisionId: s.revisionId,
          state: 'REQUESTED',
          revisionId: null,
          clock: 0,
          singleTenant: s.placement.singleTenant,
          createdAt: now,
          updatedAt: now,
          gpus: gpuUse(target, s.placement),
        });
      }
      if (created.length) await store.putInstances(created);
      stored.push({ s, all: [...kept, ...created] });
    }
    return stored;
  };

  return {
    async launch(tenant, { specs }) {
      for (const s of specs) if (s.ref.ncaId !== tenant) throw fail('FORBIDDEN', 'launch for another tenant');
      const out: Record<string, string[]> = {};
      for (const { s, all } of await oneAtATime(() => storeLaunch(tenant, specs))) {
        if (s.count > 0) await store.markAccepted(s.ref.gpuSpecificationId);
        // in parallel, a window at a time: one at a time, each publish waits for its replicated
        // acknowledgement (R3: a round trip through the stream's leader and a follower), so a
        // launch would take a round trip per instance and a large one outlast the gateway's request limit
        await inWindows(all, PUBLISH_WINDOW, async (inst) => {
          const msg: CreateInstanceMessage = {
            type: 'create',
            instanceId: inst.id,
            ...s.ref,
            clusterId: inst.clusterId,
            gpu: s.placement.gpu,
            instanceType: s.placement.instanceType,
            revisionId: s.revisionId,
            revisionCreatedAt: s.revisionCreatedAt,
            workload: s.workload,
          };
          await bus.publish(subjects.create(inst.clusterId), msg, { msgId: msgIds.create(inst.id) });
        });
        out[s.ref.gpuSpecificationId] = all.map((i) => i.id);
      }
      return { instances: out };
    },

    async update(tenant, { ref, revisionId, revisionCreatedAt, workload }) {
      if (ref.ncaId !== tenant) throw fail('FORBIDDEN', 'update for another tenant');
      const [all] = await store.listInstancesBySpec([ref.gpuSpecificationId]);
      // the full current set: never a subset, never a canary (rule 6); an update creates nothing (rule 7)
      const targets = all.filter((i) => i.ncaId === tenant && isLive(i));
      const action = {
        // one action per revision: nvcf hands a revision off again when an answer was lost, and the
        // same id makes the repeat's messages duplicates the streams drop
        id: updateActionIdOf(revisionId),
        ncaId: tenant,
        gpuSpecificationId: ref.gpuSpecificationId,
        revisionId,
        targets: targets.map((t) => t.id),
        createdAt: new Date().toISOString(),
      };
      await store.putUpdateAction(action);
      const byCluster = new Map<string, string[]>();
      for (const t of targets) byCluster.set(t.clusterId, [...(byCluster.get(t.clusterId) ?? []), t.id]);
      // one message per cluster, in flight together: awaited one after another, the replicated
      // acknowledgements of a spec spread over many clusters would add up
      await inWindows([...byCluster], PUBLISH_WINDOW, async ([clusterId, ids]) => {
        const msg: UpdateInstancesMessage = {
          type: 'update',
          updateActionId: action.id,
          ...ref,
          clusterId,
          revisionId,
          revisionCreatedAt,
          workload,
          targets: ids,
        };
        await bus.publish(subjects.update(clusterId), msg, { msgId: msgIds.update(action.id, clusterId) });
      });
      return { updateActionId: action.id, targets: action.targets };
    },

    async accepted(tenant, { gpuSpecificationId, liveInstances: count = true }) {
      if (!count) {
        // one instance names the spec's tenant: they all share it
        const [owner, accepted] = await Promise.all([
          store.specTenant(gpuSpecificationId),
          store.isAccepted(gpuSpecificationId),
        ]);
        return { accepted: owner === tenant && accepted };
      }
      const [all] = await store.listInstancesBySpec([gpuSpecificationId]);
      const mine = all.filter((i) => i.ncaId === tenant);
      return {
        accepted: mine.length > 0 && (await store.isAccepted(gpuSpecificationId)),
        liveInstances: mine.filter(isLive).length,
      };
    },

    async terminate(tenant, { versionId, graceful }) {
      // live ones, and FAILED ones too: on a real cluster their objects remain until the agent removes them
      const all = (await store.listInstancesByVersion(versionId)).filter((i) => i.ncaId === tenant);
      const live = all.filter(isLive);
      for (const i of [...live, ...all.filter((i) => i.state === 'FAILED')]) {
        const msg: TerminateInstanceMessage = { type: 'terminate', instanceId: i.id, clusterId: i.clusterId, graceful };
        await bus.publish(subjects.terminate(i.clusterId), msg, { msgId: msgIds.terminate(i.id) });
      }
      return { terminated: live.length };
    },

    async placeTask(tenant, { placement, run }) {
      if (run.ncaId !== tenant) throw fail('FORBIDDEN', 'a task of another tenant');
      const { taskId, ncaId } = run;
      const gpus = (c: ClusterRecord) => gpuUse(c, placement);
      const target = await oneAtATime(async () => {
        const clusters = await store.listClusters();
        const live = await liveByCluster(clusters, taskId);
        const [target] = placeEach(clusters, live, tenant, placement, `task ${taskId}`, 1);
        // an operator task dedicates its cluster to its tenant while it runs, as an operator instance
        // does; the lock ends with the last operator workload there (releaseIfUnused)
        if (placement.singleTenant && !(await dedicate(store, target, tenant))) throw taken(target);
        await store.putTask({
          id: taskId,
          ncaId,
          clusterId: target.id,
          singleTenant: placement.singleTenant,
          ended: false,
          createdAt: new Date().toISOString(),
          gpus: gpus(target),
        });
        return target;
      });
      // its end was seen before its placement was stored (a cancel that overtook it): nothing holds the lock
      if (placement.singleTenant && (await store.getTask(taskId))?.ended) await releaseIfUnused(store, target.id);
      const nodeSelector = nodeSelectorOf(target, placement);
      const msg: RunTaskMessage = {
        type: 'run-task',
        ...run,
        clusterId: target.id,
        gpuCount: gpus(target).count,
        ...(nodeSelector ? { nodeSelector } : {}),
      };
      await bus.publish(subjects.taskWork(target.id), msg, { msgId: msgIds.runTask(run.taskId) });
      return { clusterId: target.id };
    },
  };
}

/** Messages published at once by a launch or an update; each carries a msgId, so a retry repeats none. */
const PUBLISH_WINDOW = 64;

/** Runs `fn` over `items`, at most `window` at a time; rejects with the first failure. */
async function inWindows<T>(items: T[], window: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(window, items.length) }, worker));
}
