/**
 * Watches across an API server restart and an etcd compaction, and operator readiness with
 * known delays: a private etcd + kube-apiserver and an in-process cluster simulator, so that
 * restarting them disturbs no other test.
 */
import { startPrivateKubernetes, type PrivateKubernetes } from '../../test/services/kubernetes-private.js';
import { startClusterSim } from '../../test/services/cluster-sim/index.js';
import {
  createKubeClient,
  createKubernetesDriver,
  loadKubeConfig,
  type KubeClient,
  type KubernetesDriver,
} from '../src/drivers/kubernetes/index.js';
import {
  describeKube,
  desired,
  dynamo,
  helm,
  miniServiceOf,
  never,
  newClusterId,
  nim,
  registry,
  waitFor,
} from './kube-fixtures.js';

describeKube('kubernetes driver across API server restarts (private kube-apiserver)', () => {
  let kube: PrivateKubernetes;
  let client: KubeClient;
  let clusterId: string;
  let driver: KubernetesDriver;

  beforeAll(async () => {
    kube = await startPrivateKubernetes({ watchCache: false });
    client = createKubeClient(loadKubeConfig(kube.kubeconfig));
  }, 180_000);
  afterAll(async () => {
    await kube?.[Symbol.asyncDispose]();
  });
  beforeEach(() => {
    clusterId = newClusterId();
    // no polling to fall back on: only the watch can tell the apply that the status moved
    driver = createKubernetesDriver({ clusterId, client, registry, pollMs: 600_000 });
  });
  afterEach(() => driver.dispose());

  /** Starts a Helm apply and returns once the controller has taken it on (Installing). */
  async function applyInFlight() {
    const d = desired(clusterId, helm({ a: 1 }));
    const applying = driver.apply(d, never());
    await waitFor(
      async () => (await miniServiceOf(client, clusterId, d.instanceId))?.status?.phase === 'Installing',
      10_000,
      'Installing',
    );
    return { d, applying };
  }

  it('a watch resumes from its last resourceVersion after an API server restart; the apply in flight completes', async () => {
    await using _sim = startClusterSim({ client, delays: { installMs: 3000 } });
    const { d, applying } = await applyInFlight();
    const watcher = driver.watchers.get('nvca.nvcf.nvidia.io/v1alpha1/MiniService')!;
    await kube.stopApiserver();
    await kube.startApiserver();
    await applying;
    expect((await miniServiceOf(client, clusterId, d.instanceId))?.status?.phase).toBe('Running');
    expect(watcher.stats).toMatchObject({ lists: 1, gone: 0 });
    expect(watcher.stats.resumes).toBeGreaterThanOrEqual(1);
  }, 90_000);

  it('a resourceVersion compacted away meanwhile (410 Gone) costs one re-list, which brings what changed', async () => {
    await using _sim = startClusterSim({ client, delays: { installMs: 3000 } });
    const { d, applying } = await applyInFlight();
    const watcher = driver.watchers.get('nvca.nvcf.nvidia.io/v1alpha1/MiniService')!;
    await kube.stopApiserver();
    await kube.compactEtcd();
    await kube.startApiserver();
    await applying;
    expect((await miniServiceOf(client, clusterId, d.instanceId))?.status?.phase).toBe('Running');
    expect(watcher.stats.gone).toBeGreaterThanOrEqual(1);
    expect(watcher.stats.lists).toBe(1 + watcher.stats.gone);
  }, 90_000);

  it('operator readiness waits for the objects the operators create, not just the applied ones', async () => {
    await using _sim = startClusterSim({ client, delays: { operatorMs: 200, secondaryMs: 2000 } });
    const nimD = desired(clusterId, nim());
    const dynD = desired(clusterId, dynamo());
    let resolved = false;
    const applying = Promise.all([driver.apply(nimD, never()), driver.apply(dynD, never())]).then(() => {
      resolved = true;
    });
    const nsOf = (id: string) => `nvcf-${clusterId}-${id}`;
    const state = async (apiVersion: string, kind: string, name: string, id: string) =>
      (await client.get({ apiVersion, kind, metadata: { name, namespace: nsOf(id) } }))?.status?.state;
    await waitFor(
      async () => (await state('apps.nvidia.com/v1alpha1', 'NIMService', 'llama', nimD.instanceId)) === 'Ready',
      10_000,
      'NIMService Ready',
    );
    await waitFor(
      async () =>
        (await state('nvidia.com/v1alpha1', 'DynamoGraphDeployment', 'graph', dynD.instanceId)) === 'successful',
      10_000,
      'DGD successful',
    );
    expect(resolved).toBe(false); // the primaries are ready, their Deployment and components are not
    await applying;
    const deployment = await client.list('apps/v1', 'Deployment', {
      namespace: nsOf(nimD.instanceId),
      labelSelector: `nvcf.nvidia.com/instance-id=${nimD.instanceId}`,
    });
    expect(deployment.items.map((x) => x.status?.readyReplicas)).toEqual([1]);
    const components = await client.list('nvidia.com/v1alpha1', 'DynamoComponentDeployment', {
      namespace: nsOf(dynD.instanceId),
      labelSelector: `nvcf.nvidia.com/instance-id=${dynD.instanceId}`,
    });
    expect(components.items.map((x) => [x.metadata.name, x.status?.state]).sort()).toEqual([
      ['graph-frontend', 'successful'],
      ['graph-worker', 'successful'],
    ]);
  }, 60_000);
});
