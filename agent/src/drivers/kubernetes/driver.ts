import type { HelmWorkload, InstanceState, OperatorWorkload } from '@nvcf/contracts';
import type { OperatorRegistry } from '@nvcf/operators';
import { createLogger } from '@nvcf/logging';
import {
  PermanentFailure,
  TemporaryFailure,
  type ClusterDriver,
  type DesiredInstance,
  type ObservedInstance,
} from '../../driver.js';
import { Changes } from './changes.js';
import type { KubeClient, KubeObject, ObjectRef } from './client.js';
import { classify, KubeApiError } from './errors.js';
import { miniService, miniServiceReady, statusAt } from './helm.js';
import { CLUSTER_LABEL, FIELD_MANAGER, instanceNames, MINISERVICE, NAMESPACE, RECORD } from './names.js';
import { checkKinds, instanceNamespace, operatorSupport, requireCrds } from './operator.js';
import { isOperatorMode, operatorMiniService } from './operator-mode.js';
import {
  forgetOperatorStatus,
  noteOperatorStatus,
  operatorVerdict,
  type ObservedOperatorStatus,
} from '../../operator-phases.js';
import { RemovalStuck } from '../../driver.js';
import { observedFrom, readyPatch, reportedPatch } from './record.js';
import { startWatch, type Watcher } from './watcher.js';
import { createTaskRunner } from './tasks.js';

export interface KubernetesDriverOptions {
  clusterId: string;
  client: KubeClient;
  registry: OperatorRegistry;
  /** objects are named `<prefix>-<instanceId>`; default `nvcf-<clusterId>` */
  namePrefix?: string;
  /** re-read this often while no watch event arrives (a watch may be reconnecting) */
  pollMs?: number;
  /**
   * How long an undeploy waits for the instance's objects and namespace to be gone (finalizers
   * honoured) before it reports them stuck (RemovalStuck; the agent keeps waiting). Default 120 s.
   */
  removalTimeoutMs?: number;
  log?: (msg: string) => void;
}

export type KubernetesDriver = ClusterDriver & {
  /** the driver's list+watches, by kind (for tests of resume and re-list) */
  readonly watchers: ReadonlyMap<string, Watcher>;
};

/**
 * The agent's port on a real API server. Every instance is one cluster-scoped MiniService:
 * Helm mode for a chart, operator mode for merged manifests (which the controller applies into
 * a namespace of their own). The agent server-side applies it under one field manager, so
 * re-applying a revision changes nothing, and keeps there the record a restarted agent needs.
 * Tasks run in a namespace each, as a Job or a MiniService (tasks.ts).
 */
export function createKubernetesDriver(o: KubernetesDriverOptions): KubernetesDriver {
  const { client, clusterId, registry } = o;
  const logger = createLogger(`kubernetes ${clusterId}`);
  const log = o.log ?? ((m: string) => logger.debug(m));
  const names = instanceNames(o.namePrefix ?? `nvcf-${clusterId}`);
  const pollMs = o.pollMs ?? 2000;
  const removalTimeoutMs = o.removalTimeoutMs ?? 120_000;

  /** What still holds a terminating instance: its objects that remain, with their finalizers. */
  const stuckReport = async (ref: ObjectRef): Promise<string> => {
    const secs = Math.round(removalTimeoutMs / 1000);
    if (ref.kind !== 'Namespace') {
      const cur = await client.get(ref);
      return `${ref.kind} ${ref.metadata.name} still there ${secs} s after its deletion (finalizers: ${(cur?.metadata.finalizers ?? []).join(', ') || 'none'})`;
    }
    const namespace = ref.metadata.name!;
    const kinds = new Map<string, { apiVersion: string; kind: string }>();
    for (const t of registry.types)
      for (const k of [...t.kinds, ...t.extraTypes, ...t.secondary]) kinds.set(`${k.apiVersion}/${k.kind}`, k);
    const stuck: string[] = [];
    for (const k of kinds.values()) {
      const list = await client.list(k.apiVersion, k.kind, { namespace }).catch(() => ({ items: [] as KubeObject[] }));
      for (const item of list.items) {
        const f = item.metadata.finalizers ?? [];
        stuck.push(`${k.kind}/${item.metadata.name} (finalizers: ${f.join(', ') || 'none'})`);
      }
    }
    return `namespace ${namespace} still terminating ${secs} s after its deletion; stuck: ${stuck.join(', ') || 'no known objects (the namespace finalizer)'}`;
  };
  const changes = new Changes();
  const watchers = new Map<string, Watcher>();
  const records = new Map<string, ObjectRef>();
  let disposed = false;

  /**
   * MiniServices carry our cluster label; what operators create carries the labels of the pod
   * templates we stamp, of which the instance label is the one we can count on.
   */
  const watch = (apiVersion: string, kind: string, labelSelector: string) => {
    const key = `${apiVersion}/${kind}`;
    if (disposed || watchers.has(key)) return;
    watchers.set(
      key,
      startWatch(client, { apiVersion, kind, labelSelector, onEvent: (_t, obj) => changes.seen(obj), log }),
    );
  };
  const msRef = (id: string): ObjectRef => ({ ...MINISERVICE, metadata: { name: names.miniService(id) } });
  const nsRef = (id: string): ObjectRef => ({ ...NAMESPACE, metadata: { name: names.namespace(id) } });

  /** The instance's record object: its MiniService, or its namespace. */
  const locate = async (id: string): Promise<KubeObject | null> => {
    const known = records.get(id);
    for (const ref of known ? [known] : [msRef(id), nsRef(id)]) {
      const obj = await client.get(ref);
      if (obj) {
        records.set(id, ref);
        return obj;
      }
    }
    return null;
  };

  /** Re-reads on every change the watches see; an API server away meanwhile only delays it. */
  const until = async (id: string, ready: () => Promise<boolean>, signal: AbortSignal) => {
    try {
      for (;;) {
        const seen = changes.version(id);
        let away = false;
        try {
          if (await ready()) return;
        } catch (err) {
          // what the controller reported (Failed, Retrying) goes to the agent; so does a refusal
          if (
            err instanceof TemporaryFailure ||
            err instanceof PermanentFailure ||
            classify(err, '') instanceof PermanentFailure
          )
            throw err;
          log(`instance ${id}: cannot read its objects (${(err as Error).message}); waiting for the API server`);
          away = true;
        }
        await changes.next(id, seen, away ? Math.min(pollMs, 1000) : pollMs, signal);
      }
    } finally {
      changes.forget(id);
    }
  };

  const applyHelm = async (d: DesiredInstance, w: HelmWorkload, signal: AbortSignal) => {
    watch(MINISERVICE.apiVersion, MINISERVICE.kind, `${CLUSTER_LABEL}=${clusterId}`);
    const obj = miniService(names.miniService(d.instanceId), d, w);
    const applied = await client.apply(obj, FIELD_MANAGER);
    records.set(d.instanceId, msRef(d.instanceId));
    await until(
      d.instanceId,
      async () => miniServiceReady(await client.get(obj), d.revisionId, applied.metadata.generation ?? 0),
      signal,
    );
    await client.mergePatch(obj, readyPatch(d.revisionId), FIELD_MANAGER);
  };

  /**
   * An operator instance is a MiniService in operator mode: the agent makes its namespace
   * (labelled for the admission webhook) and applies the MiniService; the controller applies
   * the manifests and writes phase and readiness, which is all the agent reads back.
   */
  const applyOperator = async (d: DesiredInstance, w: OperatorWorkload, signal: AbortSignal) => {
    const namespace = names.namespace(d.instanceId);
    checkKinds(w.manifests, w.operatorTypes, registry);
    await client.apply(instanceNamespace(namespace, d), FIELD_MANAGER);
    // before the MiniService: a kind the API server does not serve fails at once, by name (the
    // namespace is there for the undeploy to remove)
    records.set(d.instanceId, nsRef(d.instanceId));
    await requireCrds(client, registry, clusterId, w);
    watch(MINISERVICE.apiVersion, MINISERVICE.kind, `${CLUSTER_LABEL}=${clusterId}`);
    const obj = operatorMiniService(names.miniService(d.instanceId), namespace, d, w);
    const applied = await client.apply(obj, FIELD_MANAGER);
    records.set(d.instanceId, msRef(d.instanceId));
    await until(
      d.instanceId,
      async () => {
        const status = statusAt<ObservedOperatorStatus & { observedGeneration?: number }>(
          await client.get(obj),
          d.revisionId,
          applied.metadata.generation ?? 0,
        );
        if (!status) return false;
        noteOperatorStatus(d.instanceId, w.operatorTypes, status);
        return operatorVerdict(status);
      },
      signal,
    );
    await client.mergePatch(obj, readyPatch(d.revisionId), FIELD_MANAGER);
  };

  /**
   * An operator instance of the loose-manifest layout (its record on the namespace, no
   * MiniService) gets its MiniService, carrying the record over: the controller then applies
   * the same objects under its own field manager, which changes none of them.
   */
  const adopt = async (id: string, ns: KubeObject): Promise<KubeObject> => {
    const observed = observedFrom(ns, clusterId);
    const w = observed?.desired.workload;
    if (!observed || w?.kind !== 'operator') return ns;
    const obj = operatorMiniService(names.miniService(id), ns.metadata.name!, observed.desired, w);
    const carried = Object.fromEntries(
      [RECORD.readyRevision, RECORD.reportedState, RECORD.lastClock].flatMap((k) => {
        const v = ns.metadata.annotations?.[k];
        return v === undefined ? [] : [[k, v]];
      }),
    );
    await client.apply(obj, FIELD_MANAGER);
    const ms = await client.mergePatch(obj, { metadata: { annotations: carried } }, FIELD_MANAGER);
    records.set(id, msRef(id));
    log(`instance ${id}: adopted its namespace ${ns.metadata.name} as MiniService ${obj.metadata.name}`);
    return ms;
  };

  /** Deletes what is not being deleted yet and waits until all of it is gone; RemovalStuck past the timeout. */
  const deleteAndWait = async (
    refs: ObjectRef[],
    opts: { gracePeriodSeconds?: number; propagationPolicy?: 'Foreground' } = {},
  ) => {
    for (const ref of refs) {
      const cur = await client.get(ref);
      if (cur && !cur.metadata.deletionTimestamp) await client.delete(ref, opts);
    }
    const end = Date.now() + removalTimeoutMs;
    for (;;) {
      const left = (await Promise.all(refs.map(async (r) => ((await client.get(r)) ? r : null)))).filter((r) => r);
      if (!left.length) return;
      if (Date.now() >= end) throw new RemovalStuck(await stuckReport(left.at(-1)!));
      await new Promise((r) => setTimeout(r, Math.min(250, pollMs)));
    }
  };

  const tasks = createTaskRunner({
    client,
    registry,
    names,
    watch,
    until,
    deleteAndWait,
    log,
  });

  const driver: KubernetesDriver = {
    clusterId,
    watchers,
    async observe(instanceId): Promise<ObservedInstance | null> {
      let obj = await locate(instanceId);
      if (obj?.kind === NAMESPACE.kind && observedFrom(obj, clusterId)) obj = await adopt(instanceId, obj);
      return observedFrom(obj, clusterId);
    },
    async apply(d, signal) {
      const w = d.workload;
      try {
        if (w.kind === 'helm') await applyHelm(d, w, signal);
        else if (w.kind === 'operator') await applyOperator(d, w, signal);
        else throw new PermanentFailure('container workloads are not run by the Kubernetes driver');
      } catch (err) {
        if (signal.aborted) throw err;
        throw classify(err, `apply of instance ${d.instanceId} at revision ${d.revisionId}`);
      }
    },
    async noteReported(instanceId: string, state: InstanceState, clock: number) {
      if (!records.has(instanceId) && !(await locate(instanceId))) return;
      try {
        await client.mergePatch(records.get(instanceId)!, reportedPatch(state, clock), FIELD_MANAGER);
      } catch (err) {
        if (!(err instanceof KubeApiError && err.code === 404)) throw err; // removed meanwhile: nothing to remember
      }
    },
    async remove(instanceId, graceful) {
      const obj = await locate(instanceId);
      if (!obj || obj.metadata.labels?.[CLUSTER_LABEL] !== clusterId) {
        records.delete(instanceId);
        return;
      } // gone, or not ours
      forgetOperatorStatus(instanceId);
      // an operator instance is its MiniService and its namespace, which takes the operators'
      // objects with it once their finalizers are done; the controller's own finalizer keeps the
      // MiniService (phase Deleting) until then
      const refs = [records.get(instanceId)!];
      if (obj.kind === MINISERVICE.kind && isOperatorMode(obj)) refs.push(nsRef(instanceId));
      await deleteAndWait(refs, { gracePeriodSeconds: graceful ? undefined : 0 });
      records.delete(instanceId);
    },
    operatorSupport: () => operatorSupport(client, registry),
    async runTask(t, signal, running) {
      try {
        return await tasks.runTask(t, signal, running);
      } catch (err) {
        if (signal.aborted) throw err;
        throw classify(err, `task ${t.taskId}`);
      }
    },
    removeTask: (taskId) => tasks.remove(taskId),
    runsTask: (taskId) => tasks.runs(taskId),
    async dispose() {
      await tasks.settled();
      disposed = true;
      await Promise.all([...watchers.values()].map((w) => w.dispose()));
      watchers.clear();
    },
    [Symbol.asyncDispose]: () => driver.dispose(),
  };
  return driver;
}
