import type { ClusterDriver } from '@nvcf/agent';
import { required, type Env } from '@nvcf/config';
import type { OperatorRegistry } from '@nvcf/operators';

/** Where the API server is; `.services/env` fills in what the environment does not say. */
export function readKubernetesConfig(env: Env) {
  return {
    kubeconfig: required(
      env,
      'KUBECONFIG',
      'start a local API server with `npm run services:up -- kubernetes` (it writes .services/env) or point to yours',
    ),
  };
}

/**
 * `CLUSTER_DRIVER=kubernetes`: every simulated cluster's agent on one API server, kept apart by
 * the cluster id in its objects' names and labels (operator instances get a namespace each).
 */
export async function kubernetesDrivers(
  kubeconfigPath: string,
  registry: OperatorRegistry,
): Promise<(clusterId: string) => ClusterDriver> {
  // loaded only when asked for: the client is slow to import
  const { createKubeClient, createKubernetesDriver, loadKubeConfig } = await import('@nvcf/agent/kubernetes');
  const client = createKubeClient(loadKubeConfig(kubeconfigPath));
  return (clusterId) => createKubernetesDriver({ clusterId, client, registry });
}
