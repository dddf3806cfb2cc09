import type { ClusterDriver } from '@nvcf/agent';
import { required, type Env } from '@nvcf/config';
import type { OperatorRegistry } from '@nvcf/operators';
import type { LocalWebhook, LocalWebhookOptions } from '@nvcf/webhook';

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

/**
 * `CLUSTER_DRIVER=kubernetes`: the NVCF metadata webhook, served by this process and registered
 * on the API server as the nvca-agent chart registers it, so that what an operator (or a person)
 * creates in an instance namespace carries the instance's labels and env. Unregistered on stop.
 */
export async function kubernetesWebhook(
  kubeconfigPath: string,
  o: Pick<LocalWebhookOptions, 'name' | 'matchExpressions'> = {},
): Promise<LocalWebhook> {
  const { createKubeClient, loadKubeConfig } = await import('@nvcf/agent/kubernetes');
  const { startLocalWebhook } = await import('@nvcf/webhook');
  return startLocalWebhook({ client: createKubeClient(loadKubeConfig(kubeconfigPath)), ...o });
}
