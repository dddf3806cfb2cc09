/**
 * The admission webhook as the nvca-agent chart deploys it: the rendered MutatingWebhookConfiguration
 * is the one mutatingWebhookConfiguration() of @nvcf/webhook builds (the chart and the code cannot
 * drift), with either certificate (chart-generated, or cert-manager's); the generated certificate
 * is one the webhook serves and the caBundle verifies; its pods, Service and PDB hang together;
 * and on the real API server an upgrade keeps the generated certificate (lookup) and the webhook's
 * ServiceAccount may read namespaces and nothing more.
 */
import { randomBytes, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { createKubeClient, type KubeClient } from '@nvcf/agent/kubernetes';
import { createWebhookServer, kubeNamespaces, mutatingWebhookConfiguration, readWebhookConfig, type FailurePolicy } from '@nvcf/webhook';
import { CHARTS, describeKube, envOf, helm, HELM_BUILD_TIMEOUT_MS, helmBinary, named, parseObjects, render, type K8sObject, type RenderOptions } from './helm-fixtures.js';
import { adminClient, adminConfig, dropNamespace, impersonating, kubeRequest, objectPath, serverSideApply, waitFor } from './kube.js';

const RELEASE = 'gpu-west-1';
const NAMESPACE = 'nvca';
const renderAgent = (o: RenderOptions = {}) => render('agent', { release: RELEASE, namespace: NAMESPACE, ...o });
const isWebhook = (o: K8sObject) => o.metadata.labels?.['app.kubernetes.io/component'] === 'webhook';
const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

beforeAll(async () => { await helmBinary(); }, HELM_BUILD_TIMEOUT_MS);

/** What registration.ts builds for the rendered Service, with the chart's CA (when it has one). */
const expected = (objs: K8sObject[], o: { failurePolicy?: FailurePolicy; timeoutSeconds?: number; caBundle?: string }) => {
  const svc = named(objs, 'Service', '-webhook');
  return mutatingWebhookConfiguration({
    name: named(objs, 'MutatingWebhookConfiguration', '-webhook').metadata.name,
    clientConfig: { service: { name: svc.metadata.name, namespace: NAMESPACE, path: '/mutate', port: svc.spec.ports[0].port }, ...(o.caBundle ? { caBundle: o.caBundle } : {}) },
    failurePolicy: o.failurePolicy,
    timeoutSeconds: o.timeoutSeconds,
  });
};

describe('the MutatingWebhookConfiguration the chart renders is registration.ts\'s', () => {
  it('defaults: Fail, 5 s, the Service on 443, the caBundle of the Secret rendered beside it', async () => {
    const objs = await renderAgent();
    const mwc = named(objs, 'MutatingWebhookConfiguration', '-webhook');
    const secret = named(objs, 'Secret', '-webhook-tls');
    const want = expected(objs, { caBundle: secret.data['ca.crt'] });
    expect({ apiVersion: mwc.apiVersion, kind: mwc.kind, name: mwc.metadata.name, webhooks: mwc.webhooks }).toEqual({ apiVersion: want.apiVersion, kind: want.kind, name: want.metadata.name, webhooks: want.webhooks });
    expect(mwc.webhooks[0]).toMatchObject({ failurePolicy: 'Fail', timeoutSeconds: 5, sideEffects: 'None', reinvocationPolicy: 'IfNeeded', namespaceSelector: { matchExpressions: [{ key: 'nvcf.nvidia.com/instance-id', operator: 'Exists' }] } });
    expect(mwc.metadata.annotations?.['cert-manager.io/inject-ca-from']).toBeUndefined();
  });

  it('webhook.failurePolicy and timeoutSeconds are the options of the same name', async () => {
    const objs = await renderAgent({ set: { 'webhook.failurePolicy': 'Ignore', 'webhook.timeoutSeconds': 10 } });
    const mwc = named(objs, 'MutatingWebhookConfiguration', '-webhook');
    expect(mwc.webhooks).toEqual(expected(objs, { failurePolicy: 'Ignore', timeoutSeconds: 10, caBundle: named(objs, 'Secret', '-webhook-tls').data['ca.crt'] }).webhooks);
  });

  it('cert-manager: a Certificate into the Secret the pods mount, its CA injected by annotation, no caBundle and no Secret rendered', async () => {
    const objs = await renderAgent({ set: { 'webhook.certManager.enabled': true } });
    const mwc = named(objs, 'MutatingWebhookConfiguration', '-webhook');
    expect(mwc.webhooks).toEqual(expected(objs, {}).webhooks);
    const cert = named(objs, 'Certificate', '-webhook');
    expect(mwc.metadata.annotations?.['cert-manager.io/inject-ca-from']).toBe(`${NAMESPACE}/${cert.metadata.name}`);
    expect(objs.filter((o) => o.kind === 'Secret')).toEqual([]);
    const pod = named(objs, 'Deployment', '-webhook').spec.template.spec;
    expect(pod.volumes.find((v: { name: string }) => v.name === 'tls').secret.secretName).toBe(cert.spec.secretName);
    const svc = named(objs, 'Service', '-webhook').metadata.name;
    expect(cert.spec.dnsNames).toContain(`${svc}.${NAMESPACE}.svc`);
    // no issuer given: the chart's self-signed Issuer; one given: used, and no Issuer rendered
    const issuer = named(objs, 'Issuer', '-selfsigned');
    expect(issuer.spec).toEqual({ selfSigned: {} });
    expect(cert.spec.issuerRef).toEqual({ name: issuer.metadata.name, kind: 'Issuer', group: 'cert-manager.io' });
    const given = await renderAgent({ set: { 'webhook.certManager.enabled': true, 'webhook.certManager.issuerRef.name': 'internal-ca', 'webhook.certManager.issuerRef.kind': 'ClusterIssuer' } });
    expect(named(given, 'Certificate', '-webhook').spec.issuerRef).toEqual({ name: 'internal-ca', kind: 'ClusterIssuer', group: 'cert-manager.io' });
    expect(given.filter((o) => o.kind === 'Issuer')).toEqual([]);
  });

  it('webhook.enabled=false renders none of it', async () => {
    const objs = await renderAgent({ set: { 'webhook.enabled': false } });
    expect(objs.filter(isWebhook).map((o) => o.kind)).toEqual([]);
    expect(objs.map((o) => o.kind).sort()).toEqual(['ClusterRole', 'ClusterRoleBinding', 'Deployment', 'NetworkPolicy', 'ServiceAccount']);
  });
});

describe('the webhook\'s workload', () => {
  let objs: K8sObject[];
  beforeAll(async () => { objs = await renderAgent(); });

  it('2 replicas rolled one at a time, spread by preferred anti-affinity, a PDB of minAvailable 1, the Service on 443 → https', () => {
    const d = named(objs, 'Deployment', '-webhook');
    expect(d.spec.replicas).toBe(2);
    expect(d.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } });
    const pod = d.spec.template;
    expect(pod.metadata.labels).toEqual(d.spec.selector.matchLabels);
    expect(pod.metadata.labels['app.kubernetes.io/component']).toBe('webhook');
    const anti = pod.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm;
    expect(anti).toEqual({ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: d.spec.selector.matchLabels } });
    const pdb = named(objs, 'PodDisruptionBudget', '-webhook');
    expect(pdb.spec).toEqual({ minAvailable: 1, selector: { matchLabels: d.spec.selector.matchLabels } });
    const svc = named(objs, 'Service', '-webhook');
    expect(svc.spec.selector).toEqual(d.spec.selector.matchLabels);
    expect(svc.spec.ports).toEqual([{ name: 'https', port: 443, targetPort: 'https', protocol: 'TCP' }]);
    const c = pod.spec.containers[0];
    expect(c.args).toEqual(['nvca-webhook']);
    expect(c.ports).toEqual([{ name: 'https', containerPort: 8443 }]);
    for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) expect(c[probe].httpGet.scheme).toBe('HTTPS');
    // its own ServiceAccount, bound to its own role; the agent's role is not its
    expect(pod.spec.serviceAccountName).toBe(named(objs, 'ServiceAccount', '-webhook').metadata.name);
    const binding = named(objs, 'ClusterRoleBinding', '-webhook');
    expect(binding.roleRef.name).toBe(named(objs, 'ClusterRole', '-webhook').metadata.name);
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: pod.spec.serviceAccountName, namespace: NAMESPACE }]);
  });

  it('the webhook reads the environment the chart gives it, with the certificate where the Secret is mounted', () => {
    const pod = named(objs, 'Deployment', '-webhook').spec.template.spec;
    const c = pod.containers[0];
    const config = readWebhookConfig(envOf(c) as Record<string, string>);
    expect(config).toMatchObject({ port: 8443, host: '0.0.0.0', namespaceCacheMs: 5000, namespaceTimeoutMs: 2000, drainGraceMs: 10000 });
    const mount = c.volumeMounts.find((m: { name: string }) => m.name === 'tls');
    const vol = pod.volumes.find((v: { name: string }) => v.name === 'tls');
    expect(vol.secret.secretName).toBe(named(objs, 'Secret', '-webhook-tls').metadata.name);
    expect([config.certFile, config.keyFile]).toEqual(vol.secret.items.map((i: { path: string }) => `${mount.mountPath}/${i.path}`));
    expect(mount.subPath).toBeUndefined(); // a renewed certificate reaches the pod
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(config.drainGraceMs + c.lifecycle.preStop.sleep.seconds * 1000);
  });

  it('the generated certificate names the Service, is signed by the caBundle\'s CA, and the webhook serves it', async () => {
    const secret = named(objs, 'Secret', '-webhook-tls');
    const host = `${named(objs, 'Service', '-webhook').metadata.name}.${NAMESPACE}.svc`;
    const ca = new X509Certificate(decode(secret.data['ca.crt']));
    const cert = new X509Certificate(decode(secret.data['tls.crt']));
    expect(cert.checkHost(host)).toBe(host);
    expect(cert.checkIssued(ca) && cert.verify(ca.publicKey)).toBe(true);
    expect(secret.data['ca.crt']).toBe(named(objs, 'MutatingWebhookConfiguration', '-webhook').webhooks[0].clientConfig.caBundle);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chart-webhook-'));
    try {
      fs.writeFileSync(path.join(dir, 'tls.crt'), decode(secret.data['tls.crt']));
      fs.writeFileSync(path.join(dir, 'tls.key'), decode(secret.data['tls.key']));
      await using server = createWebhookServer({ certFile: path.join(dir, 'tls.crt'), keyFile: path.join(dir, 'tls.key'), certCheckMs: 0, namespaces: () => Promise.resolve(null), metrics: () => '' });
      const url = new URL(await server.listen(0, '127.0.0.1'));
      // as the API server calls it: the Service's name, verified against the caBundle alone
      const status = await new Promise<number>((resolve, reject) => {
        https.get({ host: '127.0.0.1', port: url.port, path: '/health', servername: host, ca: decode(secret.data['ca.crt']) }, (res) => { res.resume(); resolve(res.statusCode ?? 0); }).on('error', reject);
      });
      expect(status).toBe(200);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('NetworkPolicy: the HTTPS port open to the API server (every source unless apiServerFrom names it), metricsFrom added', async () => {
    expect(named(objs, 'NetworkPolicy', '-webhook').spec.ingress).toEqual([{ ports: [{ port: 'https', protocol: 'TCP' }] }]);
    const narrowed = await renderAgent({ set: { 'webhook.networkPolicy.apiServerFrom[0].ipBlock.cidr': '10.0.0.0/24', 'networkPolicy.metricsFrom[0].namespaceSelector.matchLabels.team': 'monitoring' } });
    expect(named(narrowed, 'NetworkPolicy', '-webhook').spec.ingress).toEqual([{ ports: [{ port: 'https', protocol: 'TCP' }], from: [{ ipBlock: { cidr: '10.0.0.0/24' } }, { namespaceSelector: { matchLabels: { team: 'monitoring' } } }] }]);
  });

  it('a namespace read that would outlast the API server\'s timeout is refused, as is a single replica', async () => {
    await expect(renderAgent({ set: { 'webhook.namespaceTimeoutMs': 5000 } })).rejects.toThrow(/webhook\.namespaceTimeoutMs \(5000\) must be below webhook\.timeoutSeconds \(5 s\)/);
    await expect(renderAgent({ set: { 'webhook.replicas': 1 } })).rejects.toThrow(/at '\/webhook\/replicas': minimum: got 1, want 2/);
  });
});

describeKube('the webhook\'s Secret and ServiceAccount on the real API server', () => {
  const id = randomBytes(3).toString('hex');
  const namespace = `nvca-webhook-${id}`;
  const release = `wh-${id}`;
  let admin: KubeConfig;
  let adminKube: KubeClient;
  const applied: K8sObject[] = [];

  beforeAll(async () => {
    admin = adminConfig();
    adminKube = adminClient(admin);
    const ns = await kubeRequest(admin, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: { 'nvcf.nvidia.com/test': 'helm' } } });
    if (ns.status >= 300) throw new Error(`namespace ${namespace}: ${ns.body?.message}`);
  });

  afterAll(async () => {
    if (!admin) return;
    for (const o of [...applied].reverse()) await kubeRequest(admin, 'DELETE', await objectPath(adminKube, o, namespace)).catch(() => {});
    await dropNamespace(admin, namespace).catch(() => {});
  });

  const apply = async (o: K8sObject) => {
    const r = await serverSideApply(admin, adminKube, o, namespace, { dryRun: false });
    if (r.status >= 300) throw new Error(`${o.kind}/${o.metadata.name}: ${r.body?.message}`);
    applied.push(o);
  };

  it('an upgrade finds the generated Secret and keeps it: the same certificate, the same caBundle', async () => {
    const first = await render('agent', { release, namespace });
    const secret = named(first, 'Secret', '-webhook-tls');
    await apply(secret);
    // --dry-run=server: the templates' lookup reads the API server, as an upgrade's does
    const { stdout } = await helm(['template', release, CHARTS.agent, '--namespace', namespace, '--dry-run=server'], { kubeconfig: process.env.KUBECONFIG });
    const again = parseObjects(stdout);
    expect(named(again, 'Secret', '-webhook-tls').data).toEqual(secret.data);
    expect(named(again, 'MutatingWebhookConfiguration', '-webhook').webhooks[0].clientConfig.caBundle).toBe(secret.data['ca.crt']);
    // without it, a fresh pair
    expect(named(await render('agent', { release, namespace }), 'Secret', '-webhook-tls').data['ca.crt']).not.toBe(secret.data['ca.crt']);
  });

  it('its ServiceAccount reads a namespace\'s ids as the webhook does, and may do nothing else', async () => {
    const objs = await render('agent', { release, namespace });
    const sa = named(objs, 'ServiceAccount', '-webhook');
    for (const o of [sa, named(objs, 'ClusterRole', '-webhook'), named(objs, 'ClusterRoleBinding', '-webhook')]) await apply(o);
    const as = impersonating(admin, `system:serviceaccount:${namespace}:${sa.metadata.name}`);
    const read = kubeNamespaces(createKubeClient(as), 2000);
    // the RBAC authorizer sees new bindings through its informers: wait until it does
    await waitFor(async () => (await read(namespace).catch(() => null)) !== null, 10_000, 'the ClusterRoleBinding in effect');
    expect((await read(namespace))?.labels).toMatchObject({ 'nvcf.nvidia.com/test': 'helm' });
    expect(await read(`absent-${id}`)).toBeNull();
    for (const [method, p] of [['GET', '/api/v1/namespaces'], ['GET', `/api/v1/namespaces/${namespace}/secrets`], ['GET', `/api/v1/namespaces/${namespace}/pods`], ['PATCH', `/api/v1/namespaces/${namespace}`]] as const) {
      const r = await kubeRequest(as, method, p, method === 'PATCH' ? {} : undefined, 'application/merge-patch+json');
      expect(`${method} ${p} ${r.status}`).toBe(`${method} ${p} 403`);
    }
  });
});
