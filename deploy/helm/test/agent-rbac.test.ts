/**
 * The agent's Kubernetes driver as the nvca-agent chart's ServiceAccount: the chart's
 * ServiceAccount, ClusterRole and ClusterRoleBinding are applied to the real API server of the
 * test run, and the driver runs with the admin's credentials impersonating that ServiceAccount,
 * so every call it makes (applies, gets, lists, watches, merge patches, deletes) is authorized by
 * the rendered role and nothing else. The cluster simulator plays the MiniService controller and
 * the operators, as for the agent's own suites.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { KubeConfig } from '@kubernetes/client-node';
import { createKubeClient, createKubernetesDriver, type KubeClient, type KubernetesDriver } from '@nvcf/agent/kubernetes';
import type { RunTaskMessage, Workload } from '@nvcf/contracts';
import { jobController } from '../../../test/services/cluster-sim/index.js';
import { cleanupCluster, desired, dynamo, helm, never, next, nim, registry } from '../../../agent/test/kube-fixtures.js';
import { describeKube, HELM_BUILD_TIMEOUT_MS, helmBinary, named, render, type K8sObject } from './helm-fixtures.js';
import { adminClient, adminConfig, dropNamespace, impersonating, kubeRequest, objectPath, serverSideApply, waitFor } from './kube.js';

describeKube('the agent as the nvca-agent chart\'s ServiceAccount (impersonated) on the real API server', () => {
  const id = randomBytes(3).toString('hex');
  const namespace = `nvca-rbac-${id}`;
  const clusterId = `rbac-${id}`;
  let admin: KubeConfig;
  let adminKube: KubeClient;
  let agentConfig: KubeConfig;
  let agentKube: KubeClient;
  let rbacObjects: K8sObject[] = [];
  let serviceAccount: string;
  let driver: KubernetesDriver | undefined;
  const logs: string[] = [];

  const can = async (verb: string, resource: string, group = '', ns?: string) => {
    const review = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb, resource, group, namespace: ns } } };
    const r = await kubeRequest(agentConfig, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', review);
    return r.body?.status?.allowed === true;
  };

  beforeAll(async () => {
    await helmBinary();
    admin = adminConfig();
    adminKube = adminClient(admin);
    const objs = await render('agent', { release: clusterId, namespace });
    const sa = named(objs, 'ServiceAccount', '-nvca-agent');
    serviceAccount = `system:serviceaccount:${namespace}:${sa.metadata.name}`;
    rbacObjects = [sa, named(objs, 'ClusterRole', '-nvca-agent'), named(objs, 'ClusterRoleBinding', '-nvca-agent')];
    const ns = await kubeRequest(admin, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: { 'nvcf.nvidia.com/test': 'helm' } } });
    if (ns.status >= 300) throw new Error(`namespace ${namespace}: ${ns.body?.message}`);
    for (const o of rbacObjects) {
      const r = await serverSideApply(admin, adminKube, o, namespace, { dryRun: false });
      if (r.status >= 300) throw new Error(`${o.kind}/${o.metadata.name}: ${r.body?.message}`);
    }
    agentConfig = impersonating(admin, serviceAccount);
    agentKube = createKubeClient(agentConfig);
    // the RBAC authorizer sees new bindings through its informers: wait until it does
    await waitFor(() => can('watch', 'miniservices', 'nvca.nvcf.nvidia.io'), 10_000, 'the ClusterRoleBinding in effect');
  }, HELM_BUILD_TIMEOUT_MS);

  afterEach(async () => {
    await driver?.dispose();
    driver = undefined;
  });

  afterAll(async () => {
    if (!admin) return;
    await cleanupCluster(adminKube, clusterId).catch(() => {});
    for (const o of [...rbacObjects].reverse()) await kubeRequest(admin, 'DELETE', await objectPath(adminKube, o, namespace)).catch(() => {});
    await dropNamespace(admin, namespace).catch(() => {});
  });

  const startDriver = () => {
    driver = createKubernetesDriver({ clusterId, client: agentKube, registry, pollMs: 300, log: (m) => logs.push(m) });
    return driver;
  };
  /** every watch the driver started has listed, and nothing it logged was a refusal */
  const noRefusal = async (d: KubernetesDriver) => {
    for (const w of d.watchers.values()) await w.synced;
    expect(logs.filter((l) => /forbidden|403|cannot (get|list|watch|patch|create|delete)/i.test(l))).toEqual([]);
  };

  it('whoami: the requests are the ServiceAccount\'s', async () => {
    const r = await kubeRequest(agentConfig, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    expect(r.body.status.userInfo.username).toBe(serviceAccount);
    expect(r.body.status.userInfo.groups).toEqual(expect.arrayContaining(['system:serviceaccounts', `system:serviceaccounts:${namespace}`]));
  });

  it('a Helm instance: applied, ready, updated in place, noted, observed after a restart, removed: no 403', async () => {
    const d = startDriver();
    const d1 = desired(clusterId, helm({ replicas: 1 }));
    await d.apply(d1, never());
    const d2 = next(d1, helm({ replicas: 2 }));
    await d.apply(d2, never());
    await d.noteReported(d1.instanceId, 'ACTIVE', 7);
    const restarted = createKubernetesDriver({ clusterId, client: agentKube, registry });
    expect(await restarted.observe(d1.instanceId)).toMatchObject({ desired: d2, readyRevisionId: d2.revisionId, reportedState: 'ACTIVE', lastClock: 7 });
    await restarted.dispose();
    await d.remove(d1.instanceId, true);
    expect(await d.observe(d1.instanceId)).toBeNull();
    await noRefusal(d);
    expect([...d.watchers.keys()]).toEqual(['nvca.nvcf.nvidia.io/v1alpha1/MiniService']);
  });

  // in operator mode the agent applies the instance's MiniService and reads its status; the manifests
  // and their secondary objects are the MiniService controller's (here the simulator, as admin)
  it.each([
    ['nim', nim],
    ['dynamo', dynamo],
  ] as const)('an operator instance (%s): its namespace and MiniService applied, ready from its status, removed with the namespace: no 403', async (_type, workload) => {
    const d = startDriver();
    const inst = desired(clusterId, workload());
    await d.apply(inst, never());
    expect(await d.observe(inst.instanceId)).toMatchObject({ readyRevisionId: inst.revisionId });
    await d.noteReported(inst.instanceId, 'ACTIVE', 1);
    await d.remove(inst.instanceId, false);
    expect(await d.observe(inst.instanceId)).toBeNull();
    await noRefusal(d);
    expect([...d.watchers.keys()]).toEqual(['nvca.nvcf.nvidia.io/v1alpha1/MiniService']);
    await waitFor(async () => (await adminKube.get({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `nvcf-${clusterId}-${inst.instanceId}` } })) === null, 20_000, 'the instance namespace gone');
  });

  it('tasks: a container task\'s Job run to its end and one stopped, an operator task\'s MiniService to its end, all removed: no 403', async () => {
    // the Job controller plays as admin, as the simulator plays the MiniService controller
    const jobs = jobController(adminKube, `nvcf.nvidia.com/cluster-id=${clusterId}`, () => {});
    try {
      await jobs.watcher.synced;
      const d = startDriver();
      const task = (workload: Workload, nvcfSimulate: object | null): RunTaskMessage => ({ type: 'run-task', ncaId: 'nca-a', taskId: randomUUID(), clusterId, gpu: 'L40S', instanceType: 'gl40s_1.br25_2xlarge', workload, configuration: nvcfSimulate && { nvcfSimulate }, terminationGracePeriodDuration: 'PT30S' });
      const container: Workload = { kind: 'container', image: 'nvcr.io/nca-a/eval:1', args: [], environment: {} };
      const cache: Workload = { kind: 'operator', operatorTypes: ['nim'], serviceName: '', servicePort: 0, manifests: [{ apiVersion: 'apps.nvidia.com/v1alpha1', kind: 'NIMCache', metadata: { name: 'cache' }, spec: { source: { ngc: { modelPuller: 'nvcr.io/nim/llama:1.0' } } } }] };
      const ran = [task(container, { runMs: 300 }), task(cache, null)];
      for (const t of ran) expect(await d.runTask!(t, never(), async () => {})).toEqual({ exitCode: 0, message: null });
      const stopped = task(container, { runMs: 60_000 });
      const ctl = new AbortController();
      await expect(d.runTask!(stopped, ctl.signal, async () => ctl.abort(new Error('task CANCELED')))).rejects.toThrow('task CANCELED');
      for (const t of [...ran, stopped])
        await waitFor(async () => (await adminKube.get({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `nvcf-${clusterId}-${t.taskId}` } })) === null, 20_000, 'the task namespace gone');
      await noRefusal(d);
      expect(logs.filter((l) => /removing its objects failed/.test(l))).toEqual([]);
      expect([...d.watchers.keys()].sort()).toEqual(['apps.nvidia.com/v1alpha1/NIMCache', 'batch/v1/Job', 'nvca.nvcf.nvidia.io/v1alpha1/MiniService']);
    } finally {
      await jobs.dispose();
    }
  });

  it('refuses what the agent does not need: secrets, pods cluster-wide, update (it applies), status, delete of manifests, RBAC', async () => {
    const refused = [
      ['DELETE', `/api/v1/namespaces/${namespace}/secrets/anything`],
      ['GET', '/api/v1/secrets'],
      ['GET', '/api/v1/pods'],
      ['PUT', `/apis/nvca.nvcf.nvidia.io/v1alpha1/miniservices/x-${id}`, { apiVersion: 'nvca.nvcf.nvidia.io/v1alpha1', kind: 'MiniService', metadata: { name: `x-${id}` } }],
      ['PATCH', `/apis/nvca.nvcf.nvidia.io/v1alpha1/miniservices/x-${id}/status`, {}],
      ['DELETE', `/apis/apps.nvidia.com/v1alpha1/namespaces/${namespace}/nimservices/llama`],
      ['DELETE', `/apis/apps/v1/namespaces/${namespace}/deployments/llama`],
      ['POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: `x-${id}` }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ kind: 'ServiceAccount', name: 'x', namespace }] }],
    ] as const;
    const answers = [];
    for (const [method, path, body] of refused) {
      const r = await kubeRequest(agentConfig, method, path, body, method === 'PATCH' ? 'application/merge-patch+json' : 'application/json');
      answers.push(`${method} ${path} ${r.status}`);
      expect(r.body?.message).toContain(`User "${serviceAccount}" cannot`);
    }
    expect(answers).toEqual(refused.map(([method, path]) => `${method} ${path} 403`));
    expect(await can('delete', 'secrets', '', namespace)).toBe(false);
    expect(await can('list', 'pods')).toBe(false);
    // the manifests are the MiniService controller's to apply; the agent only lists them (a stuck removal)
    expect(await can('patch', 'nimservices', 'apps.nvidia.com', 'any-namespace')).toBe(false);
    expect(await can('create', 'nimservices', 'apps.nvidia.com', 'any-namespace')).toBe(false);
    expect(await can('list', 'nimservices', 'apps.nvidia.com', 'any-namespace')).toBe(true);
  });
});
