import type { OperatorWorkload } from '@nvcf/messaging';
import { injectIdentity, LABEL, nvcfLabels, notReady, REVISION_ANNOTATION, type KindSpec, type OperatorRegistry } from '@nvcf/operators';
import { PermanentFailure, type DesiredInstance } from '../../driver.js';
import type { KubeClient, KubeObject } from './client.js';
import { CLUSTER_LABEL, NAMESPACE } from './names.js';
import { desiredAnnotations } from './record.js';

/** The instance's namespace, which also holds its record (desired, reported state, clock). */
export function instanceNamespace(name: string, d: DesiredInstance): KubeObject {
  return { ...NAMESPACE, metadata: { name, labels: { ...nvcfLabels(d), [CLUSTER_LABEL]: d.clusterId }, annotations: desiredAnnotations(d) } };
}

/** The merged manifests with NVCF labels (the cluster's too, so operators copy it), in the namespace. */
export function operatorObjects(namespace: string, d: DesiredInstance, w: OperatorWorkload, registry: OperatorRegistry): KubeObject[] {
  for (const m of w.manifests as KubeObject[]) {
    if (!registry.kindOf(m.apiVersion, m.kind, w.operatorTypes)) {
      throw new PermanentFailure(`${m.apiVersion}/${m.kind} ${m.metadata?.name} is not a kind of operator types ${w.operatorTypes.join(', ')}`);
    }
  }
  return (injectIdentity(w.manifests, d, registry) as KubeObject[]).map((m) => ({
    ...m, metadata: { ...m.metadata, namespace, labels: { ...m.metadata.labels, [CLUSTER_LABEL]: d.clusterId } },
  }));
}

/** The kinds the instance's operators create for what we apply (found by the instance label). */
export function secondaryKinds(registry: OperatorRegistry, w: OperatorWorkload): KindSpec[] {
  const out = new Map<string, KindSpec>();
  for (const t of registry.types.filter((t) => w.operatorTypes.includes(t.name))) {
    for (const k of t.secondary) out.set(`${k.apiVersion}/${k.kind}`, k);
  }
  return [...out.values()];
}

const staleStatus = (o: KubeObject) => typeof o.status?.observedGeneration === 'number' && o.status.observedGeneration < (o.metadata.generation ?? 0);

/**
 * What is not ready yet (empty: the instance is ready): read fresh, not from a watch cache,
 * so that the secondary objects an operator created before it marked the primary ready are
 * always seen together with that mark.
 */
export async function operatorPending(client: KubeClient, registry: OperatorRegistry, namespace: string, d: DesiredInstance, w: OperatorWorkload, applied: KubeObject[]): Promise<string[]> {
  const pending: string[] = [];
  const primaries: KubeObject[] = [];
  for (const a of applied) {
    const cur = await client.get(a);
    const id = `${a.kind}/${a.metadata.name}`;
    if (!cur) pending.push(`${id} (missing)`);
    else if (cur.metadata.annotations?.[REVISION_ANNOTATION] !== d.revisionId || (cur.metadata.generation ?? 0) < (a.metadata.generation ?? 0)) pending.push(`${id} (not at revision ${d.revisionId})`);
    else if (staleStatus(cur)) pending.push(`${id} (status of an older generation)`);
    else primaries.push(cur);
  }
  const seen = new Set(applied.map((a) => a.metadata.uid));
  const secondaries: KubeObject[] = [];
  for (const k of secondaryKinds(registry, w)) {
    const list = await client.list(k.apiVersion, k.kind, { namespace, labelSelector: `${LABEL.instanceId}=${d.instanceId}` });
    for (const item of list.items) {
      if (seen.has(item.metadata.uid)) continue;
      const obj = { ...item, apiVersion: k.apiVersion, kind: k.kind } as KubeObject;
      if (staleStatus(obj)) pending.push(`${k.kind}/${obj.metadata.name} (status of an older generation)`);
      else secondaries.push(obj);
    }
  }
  return [...pending, ...notReady([...primaries, ...secondaries], registry)];
}
