/**
 * The runbooks' rules, checked on what `helm template` renders for the defaults and for the
 * production examples: non-root containers with probes and resources, rolling updates that
 * never lose a ready pod, grace periods longer than the drain, no wildcard in RBAC, secrets
 * only referenced, dev tokens off, subgraphs reachable only from the gateway.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { EXAMPLES, byKind, countByKind, envOf, HELM_BUILD_TIMEOUT_MS, helmBinary, named, podSpecs, render, ROOT, type K8sObject } from './helm-fixtures.js';

const cases: [string, { controlPlane: string[]; agent: string[] }][] = [
  ['defaults', { controlPlane: [], agent: [] }],
  ['production', { controlPlane: [EXAMPLES.controlPlane], agent: [EXAMPLES.agent] }],
];

const rendered = new Map<string, { controlPlane: K8sObject[]; agent: K8sObject[] }>();
beforeAll(async () => {
  await helmBinary();
  for (const [name, values] of cases) {
    rendered.set(name, {
      controlPlane: await render('controlPlane', { values: values.controlPlane }),
      agent: await render('agent', { release: 'gpu-west-1', namespace: 'nvca', values: values.agent }),
    });
  }
  for (const [name, r] of rendered) process.stderr.write(`[helm] ${name}: nvcf-control-plane ${r.controlPlane.length} objects ${JSON.stringify(countByKind(r.controlPlane))}; nvca-agent ${r.agent.length} objects ${JSON.stringify(countByKind(r.agent))}\n`);
}, HELM_BUILD_TIMEOUT_MS);

const SERVICES = ['gateway', 'nvcf', 'icms', 'nvca-status', 'nvct'];
const metricsFrom = (name: string) => (name === 'production' ? (parse(fs.readFileSync(EXAMPLES.controlPlane, 'utf8')).networkPolicy.metricsFrom as object[]) : []);
const all = (name: string) => [...rendered.get(name)!.controlPlane, ...rendered.get(name)!.agent];

describe.each(cases.map(([name]) => [name]))('rendered objects (%s)', (name) => {
  const cp = () => rendered.get(name)!.controlPlane;
  const agent = () => rendered.get(name)!.agent;

  it('every container: non-root, read-only root, no privilege escalation, no capabilities, RuntimeDefault seccomp, resources', () => {
    const problems: string[] = [];
    for (const { owner, spec } of podSpecs(all(name))) {
      const pod = spec.securityContext ?? {};
      for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
        const sc = c.securityContext ?? {};
        const at = `${owner} ${c.name}`;
        if ((sc.runAsNonRoot ?? pod.runAsNonRoot) !== true) problems.push(`${at}: runAsNonRoot`);
        if (!((sc.runAsUser ?? pod.runAsUser) > 0)) problems.push(`${at}: runAsUser`);
        if (sc.readOnlyRootFilesystem !== true) problems.push(`${at}: readOnlyRootFilesystem`);
        if (sc.allowPrivilegeEscalation !== false) problems.push(`${at}: allowPrivilegeEscalation`);
        if (!sc.capabilities?.drop?.includes('ALL') || sc.capabilities?.add?.length) problems.push(`${at}: capabilities`);
        if ((sc.seccompProfile ?? pod.seccompProfile)?.type !== 'RuntimeDefault') problems.push(`${at}: seccompProfile`);
        if (sc.privileged) problems.push(`${at}: privileged`);
        const r = c.resources ?? {};
        if (!r.requests?.cpu || !r.requests?.memory || !r.limits?.memory) problems.push(`${at}: resources (requests cpu+memory, limits memory)`);
      }
      if (spec.hostNetwork || spec.hostPID || spec.hostIPC) problems.push(`${owner}: host namespaces`);
    }
    expect(problems).toEqual([]);
    expect(podSpecs(all(name)).length).toBe(10); // 5 services, 3 hook Jobs, the agent, its webhook
  });

  it('every Deployment container has startup, readiness (/ready) and liveness (/health) probes', () => {
    const problems: string[] = [];
    for (const { owner, kind, spec } of podSpecs(all(name))) {
      if (kind !== 'Deployment') continue;
      for (const c of spec.containers) {
        if (!c.startupProbe) problems.push(`${owner} ${c.name}: startupProbe`);
        if (c.readinessProbe?.httpGet?.path !== '/ready') problems.push(`${owner} ${c.name}: readinessProbe /ready`);
        if (c.livenessProbe?.httpGet?.path !== '/health') problems.push(`${owner} ${c.name}: livenessProbe /health`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('no wildcard in any RBAC rule; the only roles are the agent\'s and its webhook\'s', () => {
    const roles = all(name).filter((o) => o.kind === 'ClusterRole' || o.kind === 'Role');
    expect(roles.map((r) => `${r.kind}/${r.metadata.name}`)).toEqual(['ClusterRole/gpu-west-1-nvca-agent', 'ClusterRole/gpu-west-1-nvca-agent-webhook']);
    const wild = roles.flatMap((r) => (r.rules as Record<string, string[]>[]).flatMap((rule, i) =>
      ['apiGroups', 'resources', 'verbs', 'resourceNames', 'nonResourceURLs'].filter((f) => (rule[f] ?? []).some((v) => v.includes('*'))).map((f) => `${r.metadata.name} rule ${i} ${f}`)));
    expect(wild).toEqual([]);
  });

  it('control plane Deployments: maxUnavailable 0 / maxSurge 1, preStop pause, grace > preStop + drain, spread, PDB', () => {
    for (const svc of SERVICES) {
      const d = named(cp(), 'Deployment', `-${svc}`);
      expect(d.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } });
      const pod = d.spec.template.spec;
      const c = pod.containers[0];
      expect(c.args).toEqual([svc]);
      const preStop = c.lifecycle?.preStop?.sleep?.seconds;
      expect(preStop).toBeGreaterThan(0);
      const drainMs = Number(envOf(c).DRAIN_GRACE_MS);
      expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(drainMs + preStop * 1000);
      expect(pod.topologySpreadConstraints.map((t: { topologyKey: string }) => t.topologyKey)).toContain('kubernetes.io/hostname');
      expect(pod.topologySpreadConstraints.every((t: { labelSelector: { matchLabels: object } }) => JSON.stringify(t.labelSelector.matchLabels) === JSON.stringify(d.spec.selector.matchLabels))).toBe(true);
      expect(pod.automountServiceAccountToken).toBe(false);
      const pdb = named(cp(), 'PodDisruptionBudget', `-${svc}`);
      expect(pdb.spec.selector.matchLabels).toEqual(d.spec.selector.matchLabels);
      expect(pdb.spec.maxUnavailable).toBe(1);
    }
  });

  it('gateway: at least 2 replicas (or an HPA with minReplicas ≥ 2), metrics on 0.0.0.0 on a port the public Service does not expose', () => {
    const d = named(cp(), 'Deployment', '-gateway');
    const hpa = byKind(cp(), 'HorizontalPodAutoscaler');
    if (hpa.length) {
      expect(d.spec.replicas).toBeUndefined(); // the HPA owns it
      expect(hpa[0].spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: d.metadata.name });
      expect(hpa[0].spec.minReplicas).toBeGreaterThanOrEqual(2);
    } else expect(d.spec.replicas).toBeGreaterThanOrEqual(2);
    const c = d.spec.template.spec.containers[0];
    const env = envOf(c);
    expect(env.METRICS_HOST).toBe('0.0.0.0');
    const metricsPort = c.ports.find((p: { name: string }) => p.name === 'metrics').containerPort;
    expect(String(metricsPort)).toBe(env.METRICS_PORT);
    const svc = named(cp(), 'Service', '-gateway');
    expect(svc.spec.ports.map((p: { targetPort: string }) => p.targetPort)).toEqual(['http']);
    expect(named(cp(), 'Service', '-gateway-metrics').spec.ports).toEqual([{ name: 'metrics', port: metricsPort, targetPort: 'metrics', protocol: 'TCP' }]);
  });

  it('production auth: JWT, no dev token anywhere, secrets only referenced (no Secret rendered but the webhook\'s own certificate)', () => {
    const env = envOf(named(cp(), 'Deployment', '-gateway').spec.template.spec.containers[0]);
    expect(env.AUTH_MODE).toBe('jwt');
    expect(env).not.toHaveProperty('AUTH_TOKENS');
    // the chart-generated serving certificate of the webhook, unless cert-manager issues it (production)
    const secrets = all(name).filter((o) => o.kind === 'Secret').map((o) => `${o.type} ${o.metadata.name}`);
    expect(secrets).toEqual(name === 'production' ? [] : ['kubernetes.io/tls gpu-west-1-nvca-agent-webhook-tls']);
    expect(JSON.stringify(all(name))).not.toMatch(/dev-token/);
    for (const svc of SERVICES) {
      const pod = named(cp(), 'Deployment', `-${svc}`).spec.template.spec;
      const e = envOf(pod.containers[0]);
      expect(e).not.toHaveProperty('NVCF_INTERNAL_SECRET');
      const mount = pod.containers[0].volumeMounts.find((m: { name: string }) => m.name === 'internal-secret');
      const vol = pod.volumes.find((v: { name: string }) => v.name === 'internal-secret');
      expect(e.NVCF_INTERNAL_SECRET_FILE).toBe(`${mount.mountPath}/${vol.secret.items[0].path}`);
      expect(vol.secret.defaultMode).toBe(0o440);
    }
  });

  it('subgraphs accept traffic only from the gateway (icms also from nvcf and nvct); metrics only from metricsFrom', () => {
    const podLabels = (svc: string) => named(cp(), 'Deployment', `-${svc}`).spec.template.metadata.labels;
    const allowed = { nvcf: ['gateway'], icms: ['gateway', 'nvcf', 'nvct'], 'nvca-status': ['gateway'], nvct: ['gateway'] } as Record<string, string[]>;
    for (const svc of Object.keys(allowed)) {
      const np = named(cp(), 'NetworkPolicy', `-${svc}`);
      expect(np.spec.policyTypes).toEqual(['Ingress']);
      expect(np.spec.podSelector.matchLabels).toEqual(podLabels(svc));
      const api = np.spec.ingress.find((r: { ports: { port: string }[]; from?: { podSelector?: unknown }[] }) => r.ports[0].port === 'http' && r.from?.some((f: { podSelector?: unknown }) => f.podSelector));
      expect(api.from).toEqual(allowed[svc].map((caller) => ({ podSelector: { matchLabels: podLabels(caller) } })));
      // the only other rule: /metrics, from the configured scrapers (none by default)
      expect(np.spec.ingress.filter((r: unknown) => r !== api)).toEqual(metricsFrom(name).length ? [{ ports: [{ port: 'http', protocol: 'TCP' }], from: metricsFrom(name) }] : []);
    }
  });

  it('hook Jobs: streams, then migrate up, before install and upgrade; preflight before upgrade only', () => {
    const jobs = byKind(cp(), 'Job').map((j) => ({
      name: j.metadata.name.replace(/^.*-control-plane-/, ''), hook: j.metadata.annotations?.['helm.sh/hook'], weight: Number(j.metadata.annotations?.['helm.sh/hook-weight']),
      args: j.spec.template.spec.containers[0].args, backoffLimit: j.spec.backoffLimit,
    })).sort((a, b) => a.weight - b.weight);
    expect(jobs.map(({ name, hook, args }) => ({ name, hook, args: args.slice(0, 2) }))).toEqual([
      { name: 'streams', hook: 'pre-install,pre-upgrade', args: ['streams', 'ensure'] },
      { name: 'migrate', hook: 'pre-install,pre-upgrade', args: ['migrate', 'up'] },
      { name: 'preflight', hook: 'pre-upgrade', args: ['preflight', '--stream-replicas'] },
    ]);
    expect(jobs.find((j) => j.name === 'migrate')?.backoffLimit).toBe(0); // a failed migration leaves a dirty ledger: no blind retry
  });

  it('the agent: one replica, Recreate, its ServiceAccount bound to its ClusterRole, its cluster id', () => {
    const d = named(agent(), 'Deployment', '-nvca-agent');
    expect(d.spec.replicas).toBe(1);
    expect(d.spec.strategy).toEqual({ type: 'Recreate' });
    const pod = d.spec.template.spec;
    expect(envOf(pod.containers[0])).toMatchObject({ CLUSTER_ID: 'gpu-west-1', CLUSTER_DRIVER: 'kubernetes' });
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(Number(envOf(pod.containers[0]).DRAIN_GRACE_MS));
    const binding = named(agent(), 'ClusterRoleBinding', '-nvca-agent');
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: named(agent(), 'ClusterRole', '-nvca-agent').metadata.name });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: pod.serviceAccountName, namespace: 'nvca' }]);
    expect(named(agent(), 'ServiceAccount', '-nvca-agent').metadata.name).toBe(pod.serviceAccountName);
  });
});

describe('what the charts carry', () => {
  it('the supergraph ConfigMap is the committed schema/supergraph.graphql, mounted where SUPERGRAPH_FILE points', () => {
    const cp = rendered.get('defaults')!.controlPlane;
    const cm = named(cp, 'ConfigMap', '-supergraph');
    expect(cm.data['supergraph.graphql']).toBe(fs.readFileSync(path.join(ROOT, 'schema', 'supergraph.graphql'), 'utf8'));
    const pod = named(cp, 'Deployment', '-gateway').spec.template.spec;
    const vol = pod.volumes.find((v: { configMap?: { name: string } }) => v.configMap?.name === cm.metadata.name);
    const mount = pod.containers[0].volumeMounts.find((m: { name: string }) => m.name === vol.name);
    expect(envOf(pod.containers[0]).SUPERGRAPH_FILE).toBe(`${mount.mountPath}/supergraph.graphql`);
    // a directory mount: the kubelet never updates a subPath mount, and the gateway reloads live
    expect(mount.subPath).toBeUndefined();
    const gateway = named(cp, 'Deployment', '-gateway').spec.template.metadata.annotations ?? {};
    expect(gateway['checksum/supergraph']).toBeUndefined();
  });

  it('gateway.supergraph: a ConfigMap managed elsewhere is mounted instead; restartOnChange rolls the gateways', async () => {
    const own = await render('controlPlane', { set: { 'gateway.supergraph.existingConfigMap': 'my-supergraph' } });
    expect(own.filter((o) => o.kind === 'ConfigMap' && o.metadata.name.endsWith('-supergraph'))).toEqual([]);
    const pod = named(own, 'Deployment', '-gateway').spec.template.spec;
    expect(pod.volumes.find((v: { name: string }) => v.name === 'supergraph').configMap).toEqual({ name: 'my-supergraph' });
    const rolling = await render('controlPlane', { set: { 'gateway.supergraph.restartOnChange': true } });
    const annotations = named(rolling, 'Deployment', '-gateway').spec.template.metadata.annotations;
    expect(annotations['checksum/supergraph']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the agent chart\'s CRD is deploy/crds\' MiniService, and only it (operators install their own CRDs)', async () => {
    const objs = await render('agent', { includeCrds: true });
    const crds = byKind(objs, 'CustomResourceDefinition');
    expect(crds.map((c) => c.metadata.name)).toEqual(['miniservices.nvca.nvcf.nvidia.io']);
    expect(fs.readFileSync(path.join(ROOT, 'deploy/helm/nvca-agent/crds/miniservices.nvca.nvcf.nvidia.io.yaml'), 'utf8'))
      .toBe(fs.readFileSync(path.join(ROOT, 'deploy/crds/miniservices.nvca.nvcf.nvidia.io.yaml'), 'utf8'));
  });

  it('dev tokens exist only with auth.dev.enabled, from the named Secret (NOTES warn: dry-run.test.ts)', async () => {
    const objs = await render('controlPlane', { set: { 'auth.dev.enabled': true, 'auth.dev.tokensSecret.name': 'nvcf-dev-tokens' } });
    const env = envOf(named(objs, 'Deployment', '-gateway').spec.template.spec.containers[0]);
    expect(env.AUTH_MODE).toBe('dev');
    expect(env.AUTH_TOKENS).toEqual({ secretKeyRef: { name: 'nvcf-dev-tokens', key: 'tokens' } });
    expect(env).not.toHaveProperty('JWT_ISSUER');
  });
});
