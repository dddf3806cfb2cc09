import { createKubeClient, loadKubeConfig } from '@nvcf/agent/kubernetes';
import { runMain, processMetrics } from '@nvcf/service';
import { readWebhookConfig } from './config.js';
import { cachedNamespaces, kubeNamespaces } from './namespaces.js';
import { createWebhookServer } from './server.js';

/** The NVCF metadata webhook of one compute cluster: POST /mutate, /health, /ready and /metrics over HTTPS on PORT. */
runMain(
  'nvca-webhook',
  () => readWebhookConfig(process.env),
  async (c) => {
    const client = createKubeClient(loadKubeConfig(c.kubeconfig || undefined));
    const webhook = createWebhookServer({
      certFile: c.certFile,
      keyFile: c.keyFile,
      certCheckMs: c.certCheckMs,
      namespaces: cachedNamespaces(kubeNamespaces(client, c.namespaceTimeoutMs), c.namespaceCacheMs),
      metrics: processMetrics('nvca_webhook'),
    });
    const url = await webhook.listen(c.port, c.host);
    return { describe: `admission webhook ${url}/mutate`, drain: () => webhook.drain(c.drainGraceMs) };
  },
  { graceMs: (c) => c.drainGraceMs },
);
