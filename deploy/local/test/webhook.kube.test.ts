/**
 * `npm start` with CLUSTER_DRIVER=kubernetes serves the admission webhook and registers it on the
 * API server (kubernetesWebhook, what main.ts calls): a pod created by hand in an instance
 * namespace of the shared kube-apiserver comes back with the instance's labels and env.
 */
import { randomUUID } from 'node:crypto';
import { FIELD_MANAGER, instanceNamespace } from '@nvcf/agent/kubernetes';
import { desired, kubeEnabled, sharedClient } from '@nvcf/agent/test/kube-fixtures';
import { LABEL } from '@nvcf/operators';
import { kubernetesWebhook } from '../src/kubernetes.js';

const describeKube = kubeEnabled ? describe : describe.skip;
const CONFIG = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration' };

describeKube('npm start on Kubernetes: the admission webhook', () => {
  it("registers the chart's webhook configuration, injects a pod created by hand, and unregisters on stop", async () => {
    const client = sharedClient();
    const clusterId = `lw-${randomUUID().slice(0, 8)}`;
    const name = `nvca-webhook-${clusterId}`;
    const d = desired(
      clusterId,
      { kind: 'operator', operatorTypes: ['nim'], serviceName: 's', servicePort: 8000, manifests: [] },
      { revisionId: 'rev-1' },
    );
    const ns = `${clusterId}-inst`;
    await client.apply(instanceNamespace(ns, d), FIELD_MANAGER);
    await client.apply(
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: ns } },
      'test',
    );
    const webhook = await kubernetesWebhook(process.env.KUBECONFIG!, {
      name,
      // the shared API server serves other suites: only this test's namespace goes to this webhook
      matchExpressions: [{ key: 'nvcf.nvidia.com/cluster-id', operator: 'In', values: [clusterId] }],
    });
    try {
      const config = await client.get({ ...CONFIG, metadata: { name } });
      expect(config?.webhooks[0]).toMatchObject({
        failurePolicy: 'Fail',
        timeoutSeconds: 5,
        clientConfig: { url: `${webhook.url}/mutate` },
        namespaceSelector: {
          matchExpressions: expect.arrayContaining([{ key: LABEL.instanceId, operator: 'Exists' }]),
        },
      });
      // as `kubectl run` would: a create, with no NVCF label or env of its own
      await client.request('POST', `/api/v1/namespaces/${ns}/pods`, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'by-hand', namespace: ns },
        spec: { containers: [{ name: 'main', image: 'busybox', env: [{ name: 'A', value: '1' }] }] },
      });
      const pod = await client.get({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'by-hand', namespace: ns } });
      expect(pod?.metadata.labels).toMatchObject({
        [LABEL.ncaId]: d.ncaId,
        [LABEL.functionId]: d.functionId,
        [LABEL.versionId]: d.versionId,
        [LABEL.instanceId]: d.instanceId,
      });
      expect(pod?.metadata.annotations).toMatchObject({ 'nvcf.nvidia.com/revision-id': 'rev-1' });
      expect(pod?.spec.containers[0].env).toEqual([
        { name: 'NVCF_NCA_ID', value: d.ncaId },
        { name: 'NVCF_FUNCTION_ID', value: d.functionId },
        { name: 'NVCF_FUNCTION_VERSION_ID', value: d.versionId },
        { name: 'NVCF_INSTANCE_ID', value: d.instanceId },
        { name: 'A', value: '1' },
      ]);
    } finally {
      await webhook.dispose();
      await client.delete(
        { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'by-hand', namespace: ns } },
        { gracePeriodSeconds: 0 },
      );
      await client.delete({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    }
    // stopped: the configuration is gone, so nothing in instance namespaces waits on a webhook that is not there
    expect(await client.get({ ...CONFIG, metadata: { name } })).toBeNull();
  }, 30_000);
});
