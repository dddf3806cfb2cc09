/**
 * The webhook registered on the real kube-apiserver of `services:up -- kubernetes` (jest starts
 * it unless NVCF_TEST_KUBERNETES=0): objects created through the API server, as an operator
 * creates them, come back with NVCF's labels, annotations and env; the failure policy holds
 * both ways with the webhook down; a malformed review gets an answer, not a crash.
 */
import { desired } from '@nvcf/agent/test/kube-fixtures';
import { randomUUID } from 'node:crypto';
import {
  createKubeClient,
  FIELD_MANAGER,
  instanceNamespace,
  KubeApiError,
  loadKubeConfig,
  type KubeClient,
  type KubeObject,
} from '@nvcf/agent/kubernetes';
import { DisposalStack } from '@nvcf/lifecycle';
import { metrics } from '@nvcf/telemetry';
import { podAdmissionReview, waitUntil } from '@nvcf/testing';
import {
  createWebhookServer,
  kubeNamespaces,
  makeLocalTls,
  mutatingWebhookConfiguration,
  type FailurePolicy,
  type LocalTls,
  type WebhookServer,
} from '../src/index.js';
import { httpsCall } from './tls.js';

const kubeEnabled = process.env.NVCF_TEST_KUBERNETES !== '0' && process.env.NVCF_TEST_BACKENDS !== 'memory';
const describeKube = kubeEnabled ? describe : describe.skip;

const CLUSTER = 'nvcf.nvidia.com/cluster-id';
const WEBHOOK_CONFIG = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration' };
const NS = { apiVersion: 'v1', kind: 'Namespace' };

// an operator instance as the agent's tests describe one: the webhook injects what the agent labels
const instance = (clusterId: string) =>
  desired(
    clusterId,
    { kind: 'operator', operatorTypes: ['nim'], serviceName: 's', servicePort: 8000, manifests: [] },
    { revisionId: 'rev-1' },
  );
type Instance = ReturnType<typeof instance>;

const envOf = (d: Instance) => [
  { name: 'NVCF_NCA_ID', value: d.ncaId },
  { name: 'NVCF_FUNCTION_ID', value: d.functionId },
  { name: 'NVCF_FUNCTION_VERSION_ID', value: d.versionId },
  { name: 'NVCF_INSTANCE_ID', value: d.instanceId },
];
const labelsOf = (d: Instance) => ({
  'nvcf.nvidia.com/nca-id': d.ncaId,
  'nvcf.nvidia.com/function-id': d.functionId,
  'nvcf.nvidia.com/version-id': d.versionId,
  'nvcf.nvidia.com/instance-id': d.instanceId,
});

const pod = (name: string, namespace: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels: { app: 'worker' } },
  spec: {
    initContainers: [{ name: 'fetch', image: 'busybox' }],
    containers: [
      {
        name: 'main',
        image: 'busybox',
        env: [
          { name: 'NVCF_INSTANCE_ID', value: 'stale' },
          { name: 'A', value: '1' },
        ],
      },
    ],
  },
});

/** What an operator does: a plain create (POST), optionally a server-side dry run. */
const create = (
  client: KubeClient,
  obj: { kind: string; metadata: { name: string; namespace: string }; [field: string]: unknown },
  dryRun = false,
) => {
  const base =
    obj.kind === 'Pod'
      ? `/api/v1/namespaces/${obj.metadata.namespace}/pods`
      : `/apis/apps/v1/namespaces/${obj.metadata.namespace}/deployments`;
  return client.request<KubeObject>('POST', dryRun ? `${base}?dryRun=All` : base, obj);
};

/** The series' value in the process-wide registry (what /metrics renders). */
const admissionsOf = (result: string) => {
  const family = metrics()
    .snapshot()
    .find((f) => f.name === 'nvca_webhook_admissions_total');
  const point = family?.type === 'counter' ? family.points.find((p) => p.labels.result === result) : undefined;
  return point?.value ?? 0;
};

describeKube('the admission webhook on a real API server', () => {
  const stack = new DisposalStack();
  let client: KubeClient;
  let tls: LocalTls;
  const runId = `wh-${randomUUID().slice(0, 8)}`;

  /** An instance namespace as the agent makes it, a plain one beside it, each with its default service account. */
  async function namespaces(clusterId: string) {
    const d = instance(clusterId);
    const inst = `${clusterId}-inst`;
    const plain = `${clusterId}-plain`;
    await client.apply(instanceNamespace(inst, d), FIELD_MANAGER);
    await client.apply({ ...NS, metadata: { name: plain, labels: { [CLUSTER]: clusterId } } }, 'test');
    for (const ns of [inst, plain])
      await client.apply(
        { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: ns } },
        'test',
      );
    stack.defer(async () => {
      for (const ns of [inst, plain]) {
        for (const p of (await client.list('v1', 'Pod', { namespace: ns })).items)
          await client.delete(
            { apiVersion: 'v1', kind: 'Pod', metadata: { name: p.metadata.name, namespace: ns } },
            { gracePeriodSeconds: 0 },
          );
        // the cluster simulator finalizes namespaces with the cluster label (there is no namespace controller)
        await client.delete({ ...NS, metadata: { name: ns } });
      }
    });
    return { d, inst, plain };
  }

  async function startWebhook(): Promise<{ webhook: WebhookServer; url: string }> {
    const webhook = createWebhookServer({
      certFile: tls.certFile,
      keyFile: tls.keyFile,
      namespaces: kubeNamespaces(client, 2000),
      metrics: () => metrics().render(),
    });
    stack.use(webhook);
    return { webhook, url: await webhook.listen(0) };
  }

  async function register(name: string, url: string, clusterId: string, failurePolicy: FailurePolicy) {
    const config = mutatingWebhookConfiguration({
      name,
      clientConfig: { url: `${url}/mutate`, caBundle: tls.caBundle },
      failurePolicy,
      // the shared API server serves other suites: only this suite's namespaces go to this webhook
      matchExpressions: [{ key: CLUSTER, operator: 'In', values: [clusterId] }],
    });
    await client.apply(config, 'test');
    stack.defer(() => client.delete({ ...WEBHOOK_CONFIG, metadata: { name } }));
  }

  /** The API server picks up a new configuration a moment later: until a dry run comes back injected. */
  const untilInjecting = (namespace: string, d: Instance) =>
    waitUntil(
      async () =>
        (await create(client, pod(`probe-${randomUUID().slice(0, 6)}`, namespace), true)).metadata.labels?.[
          'nvcf.nvidia.com/instance-id'
        ] === d.instanceId,
      { timeoutMs: 20_000, intervalMs: 100, what: `the webhook configuration to take effect in ${namespace}` },
    );

  beforeAll(() => {
    client = createKubeClient(loadKubeConfig(process.env.KUBECONFIG));
    tls = makeLocalTls();
    stack.defer(() => tls[Symbol.dispose]());
  });
  afterAll(() => stack.disposeAsync());

  describe('with the webhook up', () => {
    let ns: Awaited<ReturnType<typeof namespaces>>;
    let url: string;
    beforeAll(async () => {
      const clusterId = `${runId}-up`;
      ns = await namespaces(clusterId);
      ({ url } = await startWebhook());
      await register(`${clusterId}`, url, clusterId, 'Fail');
      await untilInjecting(ns.inst, ns.d);
    });

    it('injects labels, the revision annotation and env into a pod an operator creates', async () => {
      await create(client, pod('worker-0', ns.inst));
      const got = await client.get({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'worker-0', namespace: ns.inst },
      });
      expect(got?.metadata.labels).toEqual({ app: 'worker', ...labelsOf(ns.d) });
      expect(got?.metadata.annotations).toMatchObject({ 'nvcf.nvidia.com/revision-id': 'rev-1' });
      expect(got?.spec.initContainers[0].env).toEqual(envOf(ns.d));
      // the stale value is replaced where it was, not added a second time
      expect(got?.spec.containers[0].env).toEqual([
        ...envOf(ns.d).filter((e) => e.name !== 'NVCF_INSTANCE_ID'),
        { name: 'NVCF_INSTANCE_ID', value: ns.d.instanceId },
        { name: 'A', value: '1' },
      ]);
    });

    it("injects into a Deployment's pod template", async () => {
      await create(client, {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'frontend', namespace: ns.inst },
        spec: {
          selector: { matchLabels: { app: 'frontend' } },
          template: {
            metadata: { labels: { app: 'frontend' } },
            spec: { containers: [{ name: 'web', image: 'nginx' }] },
          },
        },
      });
      const got = await client.get({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'frontend', namespace: ns.inst },
      });
      expect(got?.metadata.labels).toEqual(labelsOf(ns.d));
      expect(got?.spec.template.metadata.labels).toEqual({ app: 'frontend', ...labelsOf(ns.d) });
      expect(got?.spec.template.spec.containers[0].env).toEqual(envOf(ns.d));
    });

    it('changes nothing on a second admission (an update)', async () => {
      await create(client, pod('worker-1', ns.inst));
      const ref = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'worker-1', namespace: ns.inst } };
      const before = await client.get(ref);
      const unchanged = admissionsOf('unchanged');
      await client.mergePatch(ref, { metadata: { labels: { touched: 'yes' } } }, 'operator');
      const after = await client.get(ref);
      expect(admissionsOf('unchanged')).toBe(unchanged + 1);
      expect(after?.spec).toEqual(before?.spec);
      expect(after?.metadata.labels).toEqual({ ...before?.metadata.labels, touched: 'yes' });
    });

    it('leaves a pod outside instance namespaces alone', async () => {
      await create(client, pod('worker-0', ns.plain));
      const got = await client.get({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'worker-0', namespace: ns.plain },
      });
      expect(got?.metadata.labels).toEqual({ app: 'worker' });
      expect(got?.spec.containers[0].env).toEqual(pod('x', 'y').spec.containers[0].env);
      // and says so when asked directly: the namespaceSelector is not its only guard
      const direct = await httpsCall(`${url}/mutate`, tls.ca, {
        method: 'POST',
        body: podAdmissionReview({ namespace: ns.plain, object: pod('p', ns.plain) }),
      });
      expect(JSON.parse(direct.text)).toEqual({
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: { uid: 'u', allowed: true },
      });
    });

    it('answers malformed reviews with an AdmissionReview while /healthz keeps answering', async () => {
      const bad = [
        '{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionRev',
        JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }),
        JSON.stringify({
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          request: {
            uid: 'm',
            kind: { group: '', version: 'v1', kind: 'Pod' },
            operation: 'CREATE',
            namespace: ns.inst,
            object: { spec: { containers: 7 } },
          },
        }),
      ];
      const answers = Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          httpsCall(`${url}/mutate`, tls.ca, { method: 'POST', body: bad[i % bad.length] }),
        ),
      );
      const probes = Promise.all(Array.from({ length: 10 }, () => httpsCall(`${url}/healthz`, tls.ca)));
      for (const p of await probes) expect(p.status).toBe(200);
      const got = await answers;
      for (const a of got)
        expect(JSON.parse(a.text)).toMatchObject({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' });
      expect(JSON.parse(got[0].text).response).toMatchObject({ allowed: false, status: { code: 400 } });
      expect(JSON.parse(got[2].text).response).toEqual({
        uid: 'm',
        allowed: true,
        warnings: [
          `nvca-webhook: NVCF labels and env not injected into Pod ${ns.inst}/(generated name): /spec/containers is not a list`,
        ],
      });
      expect((await httpsCall(`${url}/healthz`, tls.ca)).status).toBe(200);
    });

    it('counts admissions by result on /metrics', async () => {
      const text = (await httpsCall(`${url}/metrics`, tls.ca)).text;
      for (const result of ['patched', 'unchanged', 'skipped', 'error'])
        expect(text).toMatch(new RegExp(`^nvca_webhook_admissions_total\\{result="${result}"\\} [1-9]`, 'm'));
      expect(text).toMatch(/^nvca_webhook_admission_seconds_count\{result="patched"\} [1-9]/m);
    });
  });

  describe.each<[FailurePolicy, string]>([
    ['Fail', 'refuses'],
    ['Ignore', 'admits uninjected'],
  ])('with the webhook down and failurePolicy %s', (failurePolicy, does) => {
    it(`${does} a pod in an instance namespace`, async () => {
      const clusterId = `${runId}-${failurePolicy.toLowerCase()}`;
      const ns = await namespaces(clusterId);
      const { webhook, url } = await startWebhook();
      await register(clusterId, url, clusterId, failurePolicy);
      await untilInjecting(ns.inst, ns.d);
      await webhook.drain(1000);

      const created = create(client, pod('worker-0', ns.inst));
      if (failurePolicy === 'Fail') {
        await expect(created).rejects.toThrow(KubeApiError);
        await expect(created).rejects.toThrow(/failed calling webhook "inject\.nvca\.nvcf\.nvidia\.com"/);
        expect(
          await client.get({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'worker-0', namespace: ns.inst } }),
        ).toBeNull();
      } else {
        await created;
        const got = await client.get({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'worker-0', namespace: ns.inst },
        });
        expect(got?.metadata.labels).toEqual({ app: 'worker' });
      }
    });
  });
});
