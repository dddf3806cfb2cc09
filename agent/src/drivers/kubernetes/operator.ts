import type { OperatorSupport, OperatorWorkload } from '@nvcf/contracts';
import {
  crdName,
  field,
  failures,
  injectIdentity,
  LABEL,
  notReady,
  REVISION_ANNOTATION,
  show,
  type KindSpec,
  type NvcfIdentity,
  type Obj,
  type OperatorObservation,
  type OperatorRegistry,
} from '@nvcf/operators';
import { MissingCrds, PermanentFailure, type DesiredInstance } from '../../driver.js';
import { KubeApiError } from './errors.js';
import type { KubeClient, KubeObject } from './client.js';
import { CLUSTER_LABEL, NAMESPACE } from './names.js';
import { recordMetadata } from './record.js';

/** The instance's namespace, which also holds its record (desired, reported state, clock). */
export function instanceNamespace(name: string, d: DesiredInstance): KubeObject {
  return {
    ...NAMESPACE,
    metadata: recordMetadata(name, d),
  };
}

/** Every manifest is a kind of the instance's operator types (the API checked it; a MiniService edited by hand may not be). */
export function checkKinds(
  manifests: readonly Obj[],
  operatorTypes: readonly string[],
  registry: OperatorRegistry,
): void {
  for (const m of manifests) {
    if (!registry.kindOf(String(m.apiVersion), String(m.kind), [...operatorTypes])) {
      throw new PermanentFailure(
        `${show(m.apiVersion)}/${show(m.kind)} ${show(field(m.metadata, 'name'))} is not a kind of operator types ${operatorTypes.join(', ')}`,
      );
    }
  }
}

/** The merged manifests with NVCF labels (the cluster's too, so operators copy it), in the namespace. */
export function operatorObjects(
  namespace: string,
  id: NvcfIdentity,
  clusterId: string,
  operatorTypes: readonly string[],
  manifests: Obj[],
  registry: OperatorRegistry,
): KubeObject[] {
  checkKinds(manifests, operatorTypes, registry);
  return (injectIdentity(manifests, id, registry) as KubeObject[]).map((m) => ({
    ...m,
    metadata: { ...m.metadata, namespace, labels: { ...m.metadata.labels, [CLUSTER_LABEL]: clusterId } },
  }));
}

/** The kinds the instance's operators create for what we apply (found by the instance label). */
export function secondaryKinds(registry: OperatorRegistry, operatorTypes: readonly string[]): KindSpec[] {
  const out = new Map<string, KindSpec>();
  for (const t of registry.types.filter((t) => operatorTypes.includes(t.name))) {
    for (const k of t.secondary) out.set(`${k.apiVersion}/${k.kind}`, k);
  }
  return [...out.values()];
}

const staleStatus = (o: KubeObject) => {
  const observed = field(o.status, 'observedGeneration');
  return typeof observed === 'number' && observed < (o.metadata.generation ?? 0);
};

/**
 * What the instance's objects say, for its MiniService's status: read fresh, not from a watch
 * cache, so that the secondary objects an operator created before it marked the primary ready
 * are always seen together with that mark.
 */
export async function operatorObservation(
  client: KubeClient,
  registry: OperatorRegistry,
  namespace: string,
  id: NvcfIdentity,
  operatorTypes: readonly string[],
  applied: KubeObject[],
): Promise<OperatorObservation> {
  const pending: string[] = [];
  const primaries: KubeObject[] = [];
  for (const a of applied) {
    const cur = await client.get(a);
    const name = `${a.kind}/${a.metadata.name}`;
    if (!cur) pending.push(`${name} (missing)`);
    else if (
      cur.metadata.annotations?.[REVISION_ANNOTATION] !== id.revisionId ||
      (cur.metadata.generation ?? 0) < (a.metadata.generation ?? 0)
    )
      pending.push(`${name} (not at revision ${id.revisionId})`);
    else if (staleStatus(cur)) pending.push(`${name} (status of an older generation)`);
    else primaries.push({ ...cur, apiVersion: a.apiVersion, kind: a.kind });
  }
  const seen = new Set(applied.map((a) => a.metadata.uid));
  const secondaries: KubeObject[] = [];
  let total = 0;
  for (const k of secondaryKinds(registry, operatorTypes)) {
    const list = await client.list(k.apiVersion, k.kind, {
      namespace,
      labelSelector: `${LABEL.instanceId}=${id.instanceId}`,
    });
    for (const item of list.items) {
      if (seen.has(item.metadata.uid)) continue;
      total++;
      const obj = { ...item, apiVersion: k.apiVersion, kind: k.kind } as KubeObject;
      if (staleStatus(obj)) pending.push(`${k.kind}/${obj.metadata.name} (status of an older generation)`);
      else secondaries.push(obj);
    }
  }
  const notReadyNow = notReady([...primaries, ...secondaries], registry);
  const notReadySecondaries = notReady(secondaries, registry).length;
  return {
    pending: [...pending, ...notReadyNow.map((n) => `${n} (not ready)`)],
    failures: failures([...primaries, ...secondaries], registry),
    secondaries: { ready: secondaries.length - notReadySecondaries, total },
  };
}

/**
 * Whether the API server serves a kind, by discovery (GET /apis/<group>/<version>): a group
 * version it does not know is a 404; a known one lists its resources by kind.
 */
export async function served(client: KubeClient, apiVersion: string, kind: string): Promise<boolean> {
  const path = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  try {
    const list = await client.request<{ resources?: { name: string; kind: string }[] }>('GET', path);
    return (list.resources ?? []).some((r) => r.kind === kind && !r.name.includes('/'));
  } catch (err) {
    if (err instanceof KubeApiError && err.code === 404) return false;
    throw err;
  }
}

/** Fails at once, naming the CRDs, when a kind of the workload is not served by the API server. */
export async function requireCrds(
  client: KubeClient,
  registry: OperatorRegistry,
  clusterId: string,
  w: OperatorWorkload,
): Promise<void> {
  const missing: { crd: string; what: string; type: string }[] = [];
  const seen = new Set<string>();
  for (const m of w.manifests as KubeObject[]) {
    const key = `${m.apiVersion}/${m.kind}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (await served(client, m.apiVersion, m.kind)) continue;
    const found = registry.kindOf(m.apiVersion, m.kind, w.operatorTypes);
    missing.push({ crd: crdName(found?.spec ?? m), what: `${m.apiVersion} ${m.kind}`, type: found?.type.name ?? '?' });
  }
  if (!missing.length) return;
  const types = [...new Set(missing.map((x) => x.type))];
  throw new MissingCrds(
    `operator type${types.length > 1 ? 's' : ''} ${types.map((t) => `'${t}'`).join(', ')} not installed on cluster ${clusterId}: the API server serves no CRD ${missing.map((x) => `${x.crd} (${x.what})`).join(', ')}`,
    missing.map((x) => x.crd),
    types,
  );
}

/** Every operator type of the registry, with the CRDs of its kinds the API server does not serve. */
export async function operatorSupport(client: KubeClient, registry: OperatorRegistry): Promise<OperatorSupport[]> {
  const out: OperatorSupport[] = [];
  for (const t of registry.types) {
    const missingCrds: string[] = [];
    for (const k of t.kinds) if (!(await served(client, k.apiVersion, k.kind))) missingCrds.push(crdName(k));
    out.push({ operatorType: t.name, clusterAttribute: t.clusterAttribute, missingCrds });
  }
  return out;
}
