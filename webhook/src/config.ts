import { int, str, type Env } from '@nvcf/config';
import { readServiceConfig } from '@nvcf/service';

/** Everything the webhook process reads, once, at start (docs/configuration.md). */
export const readWebhookConfig = (env: Env) => ({
  ...readServiceConfig(env, { port: 8443 }),
  certFile: str(env, 'WEBHOOK_TLS_CERT_FILE', '/etc/nvca-webhook/tls/tls.crt'),
  keyFile: str(env, 'WEBHOOK_TLS_KEY_FILE', '/etc/nvca-webhook/tls/tls.key'),
  /** how often the certificate files are read again for a renewal */
  certCheckMs: int(env, 'WEBHOOK_TLS_CHECK_MS', 30_000, { min: 0 }),
  /** in a pod: the service account's in-cluster config; elsewhere KUBECONFIG */
  kubeconfig: str(env, 'KUBECONFIG', ''),
  /** how long a namespace's ids are reused before it is read again */
  namespaceCacheMs: int(env, 'WEBHOOK_NAMESPACE_CACHE_MS', 5_000, { min: 0, max: 600_000 }),
  /** a namespace read slower than this refuses the object: inside the configuration's timeoutSeconds */
  namespaceTimeoutMs: int(env, 'WEBHOOK_NAMESPACE_TIMEOUT_MS', 2_000, { min: 100, max: 30_000 }),
});
export type WebhookConfig = ReturnType<typeof readWebhookConfig>;
