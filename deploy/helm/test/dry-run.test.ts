/**
 * Every object both charts render (CRDs first, hooks included), applied to the real
 * kube-apiserver of the test run with Server-Side Apply, dryRun=All and strict field
 * validation: the API server decodes, defaults, validates and admits each one and stores
 * nothing. Zero may be rejected, and none may draw a warning (a deprecated API, an unknown field).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeClient } from '@nvcf/agent/kubernetes';
import { CHARTS, countByKind, describeKube, EXAMPLES, helm, HELM_BUILD_TIMEOUT_MS, helmBinary, render, type ChartName, type K8sObject, type RenderOptions } from './helm-fixtures.js';
import { adminClient, adminConfig, dropNamespace, kubeRequest, serverSideApply, waitFor } from './kube.js';

const FIXTURE_CRDS = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures');

describeKube('helm template → server-side dry-run on the real kube-apiserver', () => {
  const id = randomBytes(3).toString('hex');
  const namespaces = { controlPlane: `nvcf-helm-${id}`, agent: `nvca-helm-${id}` } as const;
  let kc: KubeConfig;
  let client: KubeClient;
  const rejected: string[] = [];

  beforeAll(async () => {
    await helmBinary();
    kc = adminConfig();
    client = adminClient(kc);
    // stand-in CRDs: the Prometheus operator's ServiceMonitor (the production example's monitors), cert-manager's Certificate and Issuer (the webhook's)
    for (const f of fs.readdirSync(FIXTURE_CRDS)) {
      const crd = parse(fs.readFileSync(path.join(FIXTURE_CRDS, f), 'utf8')) as K8sObject;
      const r = await serverSideApply(kc, client, crd, '', { dryRun: false });
      if (r.status >= 300) throw new Error(`fixture CRD ${f}: ${r.body?.message ?? r.status}`);
      await waitFor(async () => (await client.get(crd))?.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True') ?? false, 30_000, `${crd.metadata.name} Established`);
    }
    for (const ns of Object.values(namespaces)) {
      const r = await kubeRequest(kc, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { 'nvcf.nvidia.com/test': 'helm' } } });
      if (r.status >= 300) throw new Error(`namespace ${ns}: ${r.body?.message ?? r.status}`);
    }
  }, HELM_BUILD_TIMEOUT_MS);

  afterAll(async () => {
    for (const ns of Object.values(namespaces)) await dropNamespace(kc, ns).catch(() => {});
  });

  const cases: [string, ChartName, RenderOptions][] = [
    ['nvcf-control-plane, default values', 'controlPlane', {}],
    ['nvcf-control-plane, the production example', 'controlPlane', { values: [EXAMPLES.controlPlane] }],
    ['nvcf-control-plane, dev tokens enabled from a Secret', 'controlPlane', { set: { 'auth.dev.enabled': true, 'auth.dev.tokensSecret.name': 'nvcf-dev-tokens', 'metrics.podAnnotations': true } }],
    ['nvca-agent, default values', 'agent', { release: `cluster-${id}` }],
    ['nvca-agent, the production example', 'agent', { release: `gpu-${id}`, values: [EXAMPLES.agent] }],
    ['nvca-agent, webhook certificate from cert-manager with the chart\'s self-signed Issuer', 'agent', { release: `cm-${id}`, set: { 'webhook.certManager.enabled': true, 'webhook.failurePolicy': 'Ignore' } }],
    ['nvca-agent, without the webhook', 'agent', { release: `nowh-${id}`, set: { 'webhook.enabled': false } }],
  ];

  it.each(cases)('%s: every object accepted, none with a warning', async (_name, chart, o) => {
    const namespace = namespaces[chart];
    const objs = await render(chart, { ...o, namespace, includeCrds: true });
    const crds = objs.filter((x) => x.kind === 'CustomResourceDefinition');
    const ordered = [...crds, ...objs.filter((x) => !crds.includes(x))];
    const warnings: string[] = [];
    for (const obj of ordered) {
      const r = await serverSideApply(kc, client, obj, namespace, { dryRun: true });
      const what = `${obj.kind}/${obj.metadata.name}`;
      if (r.status >= 300) rejected.push(`${what}: ${r.status} ${r.body?.message ?? JSON.stringify(r.body)}`);
      else expect(r.body).toMatchObject({ kind: obj.kind, metadata: { name: obj.metadata.name } }); // what the server would store
      warnings.push(...r.warnings.map((w) => `${what}: ${w}`));
    }
    // a CRD the chart carries is the one the API server serves (installed from deploy/crds by the test services)
    for (const crd of crds) expect((await client.get(crd))?.spec?.names).toEqual(crd.spec.names);
    process.stderr.write(`[helm] dry-run ${_name}: ${ordered.length} objects accepted ${JSON.stringify(countByKind(ordered))}\n`);
    expect(rejected).toEqual([]);
    expect(warnings).toEqual([]);
    expect(ordered.length).toBeGreaterThan(4);
  });

  it('helm install --dry-run against this API server: its version passes the charts\' kubeVersion, and NOTES say what is missing', async () => {
    const install = async (chart: ChartName, release: string, args: string[]) => (await helm(['install', release, CHARTS[chart], '--namespace', namespaces[chart], '--dry-run=client', ...args], { kubeconfig: process.env.KUBECONFIG })).stdout;
    const notes = (out: string) => out.slice(out.indexOf('NOTES:'));
    expect(notes(await install('controlPlane', 'nvcf', []))).toMatch(/WARNING: auth\.jwt\.issuer, auth\.jwt\.audience and auth\.jwt\.jwksUrl must all be set/);
    expect(notes(await install('controlPlane', 'nvcf', ['--values', EXAMPLES.controlPlane]))).not.toMatch(/WARNING/);
    expect(notes(await install('controlPlane', 'nvcf', ['--set', 'auth.dev.enabled=true', '--set', 'auth.dev.tokensSecret.name=nvcf-dev-tokens'])))
      .toMatch(/WARNING: auth\.dev\.enabled is true: the gateway accepts the static tokens of Secret\s+nvcf-dev-tokens/);
    expect(notes(await install('agent', `gpu-${id}`, ['--values', EXAMPLES.agent]))).toContain('NVCF agent of cluster gpu-west-1');
    expect(notes(await install('agent', `gpu-${id}`, ['--values', EXAMPLES.agent]))).toMatch(new RegExp(`Admission webhook gpu-${id}-nvca-agent-webhook: 2 replicas, failurePolicy Fail[^]*from cert-manager \\(Certificate gpu-${id}-nvca-agent-webhook`));
    expect(notes(await install('agent', `gpu-${id}`, []))).toContain(`generated by the chart (Secret gpu-${id}-nvca-agent-webhook-tls, kept across upgrades)`);
    expect(notes(await install('agent', `gpu-${id}`, ['--set', 'webhook.enabled=false']))).not.toMatch(/Admission webhook/);
  });

  it('and a broken object is rejected the same way (the check can fail)', async () => {
    const objs = await render('controlPlane', { namespace: namespaces.controlPlane });
    const good = objs.find((x) => x.kind === 'Deployment')!;
    const broken = structuredClone(good);
    broken.spec.strategy.rollingUpdate.maxSurge = 0; // with maxUnavailable 0 a rollout could never progress
    broken.spec.template.spec.containers[0].lifecycle.preStop.sleep.seconds = -1;
    const invalid = await serverSideApply(kc, client, broken, namespaces.controlPlane, { dryRun: true });
    expect(invalid.status).toBe(422);
    expect(invalid.body.message).toMatch(/rollingUpdate\.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0/);
    expect(invalid.body.message).toMatch(/preStop\.sleep: Invalid value: -1: must be non-negative and less than terminationGracePeriodSeconds/);
    const typo = await serverSideApply(kc, client, { ...good, spec: { ...good.spec, replicaz: 2 } }, namespaces.controlPlane, { dryRun: true });
    expect(typo.status).toBeGreaterThanOrEqual(400);
    expect(typo.body.message).toMatch(/replicaz/);
  });
});
