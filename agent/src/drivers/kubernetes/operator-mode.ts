import type { OperatorWorkload } from '@nvcf/contracts';
import { createLogger } from '@nvcf/logging';
import {
  LABEL,
  ManifestPatchRejected,
  mergeManifestPatches,
  parseReadiness,
  operatorStatus,
  REVISION_ANNOTATION,
  type NvcfIdentity,
  type Obj,
  type OperatorObservation,
  type OperatorRegistry,
  type OperatorStatus,
} from '@nvcf/operators';
import { PermanentFailure, type DesiredInstance } from '../../driver.js';
import type { KubeClient, KubeObject, ObjectRef } from './client.js';
import { classify } from './errors.js';
import { CLUSTER_LABEL, MINISERVICE, NAMESPACE } from './names.js';
import { operatorObjects, operatorObservation, secondaryKinds } from './operator.js';
import { recordMetadata } from './record.js';
import { startWatch, type Watcher } from './watcher.js';

/** The field manager of the MiniService controller's operator mode: it owns the instance's objects. */
export const OPERATOR_MODE_MANAGER = 'nvca-miniservice-controller';
/** Held by the controller until the instance namespace is gone, so a deleted MiniService shows Deleting. */
export const OPERATOR_FINALIZER = 'nvca.nvcf.nvidia.io/operator-instance';

/** The spec of a MiniService in operator mode (deploy/crds/miniservices.nvca.nvcf.nvidia.io.yaml). */
export interface OperatorMiniServiceSpec {
  operatorTypes: string[];
  manifests: Obj[];
  manifestMergePatches: Obj[];
  /** where the manifests go: the instance namespace the agent made */
  namespace: string;
  serviceName: string;
  servicePort: number;
  gpu: string;
  instanceType: string;
}

export const isOperatorMode = (ms: KubeObject) =>
  Array.isArray((ms.spec as Partial<OperatorMiniServiceSpec> | undefined)?.operatorTypes);

/**
 * The MiniService of one operator instance, as the agent applies it: the manifests as NVCF
 * merged them (so no patches of its own), the namespace they go to, the instance's ids.
 */
export function operatorMiniService(name: string, namespace: string, d: DesiredInstance, w: OperatorWorkload) {
  const spec: OperatorMiniServiceSpec = {
    operatorTypes: w.operatorTypes,
    manifests: w.manifests,
    manifestMergePatches: [],
    namespace,
    serviceName: w.serviceName,
    servicePort: w.servicePort,
    gpu: d.gpu,
    instanceType: d.instanceType,
  };
  return {
    ...MINISERVICE,
    metadata: {
      ...recordMetadata(name, d),
      // set with the object rather than by the controller's first reconcile: one write less
      // between the apply and the first status
      finalizers: [OPERATOR_FINALIZER],
    },
    spec,
  } satisfies KubeObject;
}

/** What the controller writes into `status` (with the Kubernetes bookkeeping around the shared status). */
function statusDocument(s: OperatorStatus, generation: number, previous: unknown, now = new Date()) {
  const prev = (previous ?? {}) as {
    phase?: string;
    lastTransitionTime?: string;
    conditions?: { status?: string; lastTransitionTime?: string }[];
  };
  const at = now.toISOString();
  const moved = prev.phase !== s.phase;
  return {
    observedGeneration: generation,
    phase: s.phase,
    readiness: s.readiness,
    message: s.message,
    lastTransitionTime: moved ? at : (prev.lastTransitionTime ?? at),
    conditions: s.conditions.map((c) => {
      const before = prev.conditions?.find((p) => p.status === c.status);
      return { ...c, observedGeneration: generation, lastTransitionTime: before?.lastTransitionTime ?? at };
    }),
  };
}

export interface OperatorModeOptions {
  client: KubeClient;
  registry: OperatorRegistry;
  /** which MiniServices to reconcile (a shared API server holds other clusters' too) */
  labelSelector: string;
  log?: (msg: string) => void;
  /** how soon a reconcile that failed (the API server away) runs again */
  retryMs?: number;
}

export interface OperatorModeController extends AsyncDisposable {
  readonly synced: Promise<void>;
  readonly watchers: ReadonlyMap<string, Watcher>;
  dispose(): Promise<void>;
}

/**
 * The MiniService controller's operator mode: for every MiniService with `spec.operatorTypes`
 * it applies the merged manifests with Server-Side Apply under its own field manager, watches
 * the objects and what the operators create for them (by the instance label), and writes
 * `status.phase`, `status.readiness` and `status.conditions`. Deleting one removes its namespace.
 */
export function startOperatorMode(o: OperatorModeOptions): OperatorModeController {
  const { client, registry } = o;
  const logger = createLogger('miniservice-operator-mode');
  const log = o.log ?? ((m: string) => logger.debug(m));
  const retryMs = o.retryMs ?? 500;
  const watchers = new Map<string, Watcher>();
  /** instance id → MiniService name, so an event on an operator's object finds its MiniService */
  const byInstance = new Map<string, string>();
  const latest = new Map<string, KubeObject>();
  const running = new Set<string>();
  const again = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;

  const enqueue = (name: string) => {
    if (stopped || !latest.has(name)) return;
    if (running.has(name)) return void again.add(name);
    running.add(name);
    void reconcile(name)
      .catch((err: unknown) => {
        log(`MiniService ${name}: ${(err as Error).message}; again in ${retryMs} ms`);
        const t = setTimeout(() => {
          timers.delete(t);
          enqueue(name);
        }, retryMs);
        timers.add(t);
      })
      .finally(() => {
        running.delete(name);
        if (again.delete(name)) enqueue(name);
      });
  };

  const watch = (apiVersion: string, kind: string, labelSelector: string) => {
    const key = `${apiVersion}/${kind}`;
    if (stopped || watchers.has(key)) return;
    const onEvent = (_t: string, obj: KubeObject) => {
      const ms = byInstance.get(obj.metadata.labels?.[LABEL.instanceId] ?? '');
      if (ms) enqueue(ms);
    };
    watchers.set(key, startWatch(client, { apiVersion, kind, labelSelector, onEvent, log }));
  };

  const ref = (name: string): ObjectRef => ({ ...MINISERVICE, metadata: { name } });

  const writeStatus = async (ms: KubeObject, s: OperatorStatus) => {
    const gen = ms.metadata.generation ?? 1;
    const cur = (ms.status ?? {}) as {
      observedGeneration?: number;
      phase?: string;
      readiness?: string;
      message?: string;
    };
    if (
      cur.observedGeneration === gen &&
      cur.phase === s.phase &&
      cur.readiness === s.readiness &&
      cur.message === s.message
    )
      return;
    await client.apply(
      { ...MINISERVICE, metadata: { name: ms.metadata.name }, status: statusDocument(s, gen, ms.status) },
      OPERATOR_MODE_MANAGER,
      'status',
    );
  };

  const finalizers = (ms: KubeObject) => ms.metadata.finalizers ?? [];

  const deleting = async (ms: KubeObject, spec: OperatorMiniServiceSpec) => {
    const observation = { pending: [], failures: [], secondaries: readinessOf(ms) };
    await writeStatus(ms, operatorStatus({ ...observation, deleting: true }));
    const nsRef = { ...NAMESPACE, metadata: { name: spec.namespace } };
    const ns = spec.namespace ? await client.get(nsRef) : null;
    if (ns && ns.metadata.labels?.[LABEL.instanceId] === ms.metadata.labels?.[LABEL.instanceId]) {
      if (!ns.metadata.deletionTimestamp) await client.delete(nsRef);
      throw new Error(`namespace ${spec.namespace} still terminating`); // retried until it is gone
    }
    await client.mergePatch(
      ref(ms.metadata.name!),
      { metadata: { finalizers: finalizers(ms).filter((f) => f !== OPERATOR_FINALIZER) } },
      OPERATOR_MODE_MANAGER,
    );
  };

  const reconcile = async (name: string) => {
    const ms = await client.get(ref(name));
    if (!ms || !isOperatorMode(ms)) return;
    const spec = ms.spec as OperatorMiniServiceSpec;
    if (ms.metadata.deletionTimestamp) {
      if (finalizers(ms).includes(OPERATOR_FINALIZER)) await deleting(ms, spec);
      return;
    }
    if (!finalizers(ms).includes(OPERATOR_FINALIZER))
      await client.mergePatch(
        ref(name),
        { metadata: { finalizers: [...finalizers(ms), OPERATOR_FINALIZER] } },
        OPERATOR_MODE_MANAGER,
      );
    const labels = ms.metadata.labels ?? {};
    const id: NvcfIdentity = {
      ncaId: labels[LABEL.ncaId] ?? '',
      functionId: labels[LABEL.functionId] ?? '',
      versionId: labels[LABEL.versionId] ?? '',
      instanceId: labels[LABEL.instanceId] ?? '',
      revisionId: ms.metadata.annotations?.[REVISION_ANNOTATION] ?? '',
    };
    let observation: OperatorObservation;
    try {
      const merged = mergeManifestPatches(spec.manifests, spec.manifestMergePatches ?? [], 'spec.manifestMergePatches');
      const objects = operatorObjects(
        spec.namespace,
        id,
        labels[CLUSTER_LABEL] ?? '',
        spec.operatorTypes,
        merged,
        registry,
      );
      for (const k of [...objects, ...secondaryKinds(registry, spec.operatorTypes)])
        watch(k.apiVersion, k.kind, LABEL.instanceId);
      const applied: KubeObject[] = [];
      for (const m of objects)
        applied.push({ ...(await client.apply(m, OPERATOR_MODE_MANAGER)), apiVersion: m.apiVersion, kind: m.kind });
      observation = await operatorObservation(client, registry, spec.namespace, id, spec.operatorTypes, applied);
    } catch (err) {
      // a refusal (a bad patch, a kind of another operator, an object the API server rejects)
      // will not pass by applying again, so it is the status; the API server away is retried
      if (!(err instanceof ManifestPatchRejected) && !(classify(err, '') instanceof PermanentFailure)) throw err;
      observation = { pending: [], failures: [], secondaries: readinessOf(ms), applyError: (err as Error).message };
    }
    await writeStatus(ms, operatorStatus(observation));
  };

  const msWatch = startWatch(client, {
    ...MINISERVICE,
    labelSelector: o.labelSelector,
    log,
    onEvent: (type, ms) => {
      const name = ms.metadata.name!;
      const instance = ms.metadata.labels?.[LABEL.instanceId];
      if (type === 'DELETED') {
        latest.delete(name);
        if (instance) byInstance.delete(instance);
        return;
      }
      if (!isOperatorMode(ms)) return;
      latest.set(name, ms);
      if (instance) byInstance.set(instance, name);
      enqueue(name);
    },
  });
  watchers.set(`${MINISERVICE.apiVersion}/${MINISERVICE.kind}`, msWatch);
  // deleting an instance waits for its namespace: its events wake the MiniService
  watch(NAMESPACE.apiVersion, NAMESPACE.kind, LABEL.instanceId);

  const dispose = async () => {
    stopped = true;
    for (const t of timers) clearTimeout(t);
    await Promise.all([...watchers.values()].map((w) => w.dispose()));
    watchers.clear();
  };
  return { synced: msWatch.synced, watchers, dispose, [Symbol.asyncDispose]: dispose };
}

const readinessOf = (ms: KubeObject) =>
  parseReadiness((ms.status as { readiness?: unknown } | undefined)?.readiness) ?? { ready: 0, total: 0 };
