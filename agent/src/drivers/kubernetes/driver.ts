import type { HelmWorkload, InstanceState, OperatorWorkload } from '@nvcf/contracts';
import { LABEL, type OperatorRegistry } from '@nvcf/operators';
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
import { miniService, miniServiceReady } from './helm.js';
import { CLUSTER_LABEL, FIELD_MANAGER, instanceNames, MINISERVICE, NAMESPACE } from './names.js';
import {
  instanceNamespace,
  operatorObjects,
  operatorPending,
  operatorSupport,
  requireCrds,
  secondaryKinds,
} from './operator.js';
import { RemovalStuck } from '../../driver.js';
import { observedFrom, readyPatch, reportedPatch } from './record.js';
import { startWatch, type Watcher } from './watcher.js';

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
 * The agent's port on a real API server. Helm instances are one cluster-scoped MiniService
 * each; operator instances are their merged manifests in a namespace of their own. Both are
 * server-side applied under one field manager, so re-applying a revision changes nothing,
 * and the record a restarted agent needs lives on that MiniService or namespace.
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

  const applyOperator = async (d: DesiredInstance, w: OperatorWorkload, signal: AbortSignal) => {
    const namespace = names.namespace(d.instanceId);
    const objects = operatorObjects(namespace, d, w, registry);
    const ns = await client.apply(instanceNamespace(namespace, d), FIELD_MANAGER);
    records.set(d.instanceId, nsRef(d.instanceId));
    // before any manifest: a kind the API server does not serve fails at once, by name (the
    // namespace, the instance's record, is there for the undeploy to remove)
    await requireCrds(client, registry, clusterId, w);
    for (const k of [...objects, ...secondaryKinds(registry, w)]) watch(k.apiVersion, k.kind, LABEL.instanceId);
    const applied: KubeObject[] = [];
    for (const m of objects)
      applied.push({ ...(await client.apply(m, FIELD_MANAGER)), apiVersion: m.apiVersion, kind: m.kind });
    await until(
      d.instanceId,
      async () => (await operatorPending(client, registry, namespace, d, w, applied)).length === 0,
      signal,
    );
    await client.mergePatch(ns, readyPatch(d.revisionId), FIELD_MANAGER);
  };

  const driver: KubernetesDriver = {
    clusterId,
    watchers,
    async observe(instanceId): Promise<ObservedInstance | null> {
      return observedFrom(await locate(instanceId), clusterId);
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
      const ref = records.get(instanceId)!;
      // a namespace takes the operators' objects with it, once their finalizers are done
      if (!obj.metadata.deletionTimestamp) await client.delete(ref, { gracePeriodSeconds: graceful ? undefined : 0 });
      const end = Date.now() + removalTimeoutMs;
      while (await client.get(ref)) {
        if (Date.now() >= end) throw new RemovalStuck(await stuckReport(ref));
        await new Promise((r) => setTimeout(r, Math.min(250, pollMs)));
      }
      records.delete(instanceId);
    },
    operatorSupport: () => operatorSupport(client, registry),
    async dispose() {
      disposed = true;
      await Promise.all([...watchers.values()].map((w) => w.dispose()));
      watchers.clear();
    },
    [Symbol.asyncDispose]: () => driver.dispose(),
  };
  return driver;
}
