import type { KubeClient } from '@nvcf/agent/kubernetes';
import { metrics } from '@nvcf/telemetry';
import { makeLocalTls } from './local-tls.js';
import { cachedNamespaces, kubeNamespaces } from './namespaces.js';
import { mutatingWebhookConfiguration, type RegistrationOptions } from './registration.js';
import { createWebhookServer, type WebhookServer } from './server.js';

const WEBHOOK_CONFIGURATION = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration' };

export interface LocalWebhookOptions {
  client: KubeClient;
  /** the MutatingWebhookConfiguration's name; default nvca-webhook-local */
  name?: string;
  /** more namespace requirements (tests keep a shared API server's other suites out) */
  matchExpressions?: RegistrationOptions['matchExpressions'];
  /** the field manager of the registration */
  fieldManager?: string;
}

export interface LocalWebhook extends AsyncDisposable {
  /** https://127.0.0.1:port */
  readonly url: string;
  readonly name: string;
  readonly server: WebhookServer;
  /** unregisters first (failurePolicy Fail would refuse pods in instance namespaces once it is gone), then stops */
  dispose(): Promise<void>;
}

/**
 * The webhook as `npm start` serves it with CLUSTER_DRIVER=kubernetes: on loopback with a
 * throwaway CA, registered on the API server with the configuration the chart renders (its
 * failure policy and timeout), pointing at a URL instead of a Service.
 */
export async function startLocalWebhook(o: LocalWebhookOptions): Promise<LocalWebhook> {
  const name = o.name ?? 'nvca-webhook-local';
  const manager = o.fieldManager ?? 'nvcf-local';
  const tls = makeLocalTls();
  const server = createWebhookServer({
    certFile: tls.certFile,
    keyFile: tls.keyFile,
    namespaces: cachedNamespaces(kubeNamespaces(o.client, 2000), 5000),
    metrics: () => metrics().render(),
  });
  let url: string;
  try {
    url = await server.listen(0, '127.0.0.1');
    await o.client.apply(
      mutatingWebhookConfiguration({
        name,
        clientConfig: { url: `${url}/mutate`, caBundle: tls.caBundle },
        matchExpressions: o.matchExpressions,
      }),
      manager,
    );
  } catch (err) {
    await server.drain(0);
    tls[Symbol.dispose]();
    throw err;
  }
  let disposed: Promise<void> | undefined;
  const dispose = () =>
    (disposed ??= (async () => {
      try {
        await o.client.delete({ ...WEBHOOK_CONFIGURATION, metadata: { name } });
      } finally {
        await server.drain(1000);
        tls[Symbol.dispose]();
      }
    })());
  return { url, name, server, dispose, [Symbol.asyncDispose]: dispose };
}
