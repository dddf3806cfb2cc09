/**
 * The namespace controller of a cluster without kube-controller-manager: a deleted instance
 * namespace stays Terminating until its objects are gone and its finalizer is cleared.
 */
import { startWatch, type KubeClient, type KubeObject } from '@nvcf/agent/kubernetes';
import type { Controller } from './controller.js';
import { Steps } from './timers.js';

/** what NVCF instances, tasks and their operators put in a namespace (the Job controller a default ServiceAccount) */
const KINDS = [
  ['apps.nvidia.com/v1alpha1', 'NIMService'],
  ['apps.nvidia.com/v1alpha1', 'NIMCache'],
  ['apps.nvidia.com/v1alpha1', 'NIMPipeline'],
  ['nvidia.com/v1alpha1', 'DynamoGraphDeployment'],
  ['nvidia.com/v1alpha1', 'DynamoComponentDeployment'],
  ['batch/v1', 'Job'],
  ['apps/v1', 'Deployment'],
  ['v1', 'Pod'],
  ['v1', 'ServiceAccount'],
  ['v1', 'Service'],
  ['v1', 'ConfigMap'],
] as const;

export function namespaceController(client: KubeClient, labelSelector: string, log: (m: string) => void): Controller {
  const steps = new Steps(log);
  const finalize = async (ns: KubeObject) => {
    const namespace = ns.metadata.name!;
    for (const [apiVersion, kind] of KINDS) {
      const list = await client.list(apiVersion, kind, { namespace });
      for (const item of list.items)
        await client.delete(
          { apiVersion, kind, metadata: { name: item.metadata.name, namespace } },
          { gracePeriodSeconds: 0 },
        );
    }
    // like the real namespace controller: the namespace goes only once its objects are gone, so
    // an object held by a finalizer keeps it Terminating (the step runs again shortly)
    const left: string[] = [];
    for (const [apiVersion, kind] of KINDS) {
      for (const item of (await client.list(apiVersion, kind, { namespace })).items)
        left.push(`${kind}/${item.metadata.name}`);
    }
    if (left.length) throw new Error(`namespace ${namespace}: waiting for ${left.join(', ')} (finalizers)`);
    await client.request('PUT', `/api/v1/namespaces/${namespace}/finalize`, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: namespace },
      spec: { finalizers: [] },
    });
  };
  const watcher = startWatch(client, {
    apiVersion: 'v1',
    kind: 'Namespace',
    labelSelector,
    log,
    onEvent: (type, ns) => {
      if (type !== 'DELETED' && ns.metadata.deletionTimestamp && !steps.has(ns.metadata.name!))
        steps.after(ns.metadata.name!, 0, () => finalize(ns));
    },
  });
  return {
    watcher,
    async dispose() {
      steps.stop();
      await watcher.dispose();
    },
  };
}
