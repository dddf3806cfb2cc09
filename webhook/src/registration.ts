import { INSTANCE_NAMESPACE_LABEL } from './identity.js';

export type FailurePolicy = 'Fail' | 'Ignore';

/** The name of the webhook inside its configuration, as the API server's errors quote it. */
export const WEBHOOK_NAME = 'inject.nvca.nvcf.nvidia.com';

/** What the webhook is called for: pods, what holds a pod template, and services. */
export const RULES = [
  { apiGroups: [''], apiVersions: ['v1'], resources: ['pods', 'services', 'replicationcontrollers'] },
  { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments', 'statefulsets', 'daemonsets', 'replicasets'] },
  { apiGroups: ['batch'], apiVersions: ['v1'], resources: ['jobs', 'cronjobs'] },
].map((r) => ({ ...r, operations: ['CREATE', 'UPDATE'], scope: 'Namespaced' }));

export interface RegistrationOptions {
  name: string;
  /** in a cluster: the webhook's Service; elsewhere (`npm start`, tests) a URL */
  clientConfig:
    | { url: string; caBundle: string }
    | { service: { name: string; namespace: string; path: string; port: number }; caBundle?: string };
  failurePolicy?: FailurePolicy;
  timeoutSeconds?: number;
  /** more namespace label requirements (the tests keep each suite's webhook to its own namespaces) */
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

/**
 * The MutatingWebhookConfiguration the chart renders (deploy/helm/nvca-agent), for registering
 * the webhook outside a chart. Only instance namespaces are selected, so an unavailable webhook
 * can block nothing else, not even its own pods.
 */
export function mutatingWebhookConfiguration(o: RegistrationOptions) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: o.name },
    webhooks: [
      {
        name: WEBHOOK_NAME,
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        failurePolicy: o.failurePolicy ?? 'Fail',
        timeoutSeconds: o.timeoutSeconds ?? 5,
        matchPolicy: 'Equivalent',
        // another webhook that rewrites pods after ours (an operator's own) gets ours run again
        reinvocationPolicy: 'IfNeeded',
        clientConfig: 'url' in o.clientConfig ? o.clientConfig : { ...o.clientConfig },
        namespaceSelector: {
          matchExpressions: [{ key: INSTANCE_NAMESPACE_LABEL, operator: 'Exists' }, ...(o.matchExpressions ?? [])],
        },
        rules: RULES,
      },
    ],
  };
}
