/**
 * The NIM and Dynamo operators we do not own, and the Deployment controller of a cluster
 * that has none: each new generation of a CR is pending, then ready after a delay. Before
 * marking a primary ready, an operator creates its secondary objects, labelled like the
 * owner, which become ready later still.
 */
import { dnsLabel, type KubeClient, type KubeObject } from '@nvcf/agent/kubernetes';
import { SIM_ANNOTATION } from '@nvcf/operators';
import { applyStatus, generationController, stillAt, type Controller } from './controller.js';

export interface OperatorDelays {
  /** an applied CR becomes ready */
  operatorMs: number;
  /** an object an operator created becomes ready */
  secondaryMs: number;
}

interface StateKind {
  apiVersion: string;
  kind: string;
  manager: string;
  pending: string;
  ready: string;
  delayMs(obj: KubeObject): number;
  /** what the operator creates before it calls the object ready */
  beforeReady?(obj: KubeObject): Promise<void>;
}

function stateController(
  client: KubeClient,
  k: StateKind,
  labelSelector: string,
  log: (m: string) => void,
): Controller {
  const status = (obj: KubeObject, state: string) =>
    applyStatus(client, obj, { state, observedGeneration: obj.metadata.generation }, k.manager);
  return generationController(client, {
    apiVersion: k.apiVersion,
    kind: k.kind,
    labelSelector,
    log,
    settled: (obj) => obj.status?.observedGeneration === obj.metadata.generation && obj.status?.state === k.ready,
    async start(obj, steps, key) {
      const gen = obj.metadata.generation ?? 1;
      await status(obj, k.pending);
      const ready = async () => {
        const cur = await stillAt(client, obj, gen);
        if (!cur) return;
        await k.beforeReady?.(cur);
        await status(cur, k.ready);
      };
      steps.after(key, k.delayMs(obj), async () => {
        // told to fail: the status of the annotation (a state, conditions with the operator's
        // message), for good or, with status-for-ms, for that long before it gets ready after all
        const cur = await stillAt(client, obj, gen);
        const failure = cur?.metadata.annotations?.[SIM_ANNOTATION.status];
        if (!cur || !failure) return ready();
        await applyStatus(client, cur, { ...(JSON.parse(failure) as object), observedGeneration: gen }, k.manager);
        const forMs = Number(cur.metadata.annotations?.[SIM_ANNOTATION.statusForMs] ?? NaN);
        if (Number.isFinite(forMs)) steps.after(key, forMs, ready);
      });
    },
  });
}

/** A child in the owner's namespace with the owner's labels (NVCF's included) and an owner reference. */
function child(
  owner: KubeObject,
  apiVersion: string,
  kind: string,
  name: string,
  spec: Record<string, unknown>,
): KubeObject {
  const { name: ownerName = '', uid = '' } = owner.metadata;
  return {
    apiVersion,
    kind,
    metadata: {
      name,
      namespace: owner.metadata.namespace,
      labels: { ...owner.metadata.labels },
      ownerReferences: [{ apiVersion: owner.apiVersion, kind: owner.kind, name: ownerName, uid, controller: true }],
    },
    spec,
  };
}

const ownedBy = (obj: KubeObject, kind: string) =>
  (obj.metadata.ownerReferences as { kind: string }[] | undefined)?.some((r) => r.kind === kind) ?? false;

export function operatorControllers(
  client: KubeClient,
  d: OperatorDelays,
  labelSelector: string,
  log: (m: string) => void,
): Controller[] {
  const nim = 'apps.nvidia.com/v1alpha1';
  const dynamo = 'nvidia.com/v1alpha1';
  const kinds: StateKind[] = [
    {
      apiVersion: nim,
      kind: 'NIMService',
      manager: 'nvcf-sim-nim-operator',
      pending: 'NotReady',
      ready: 'Ready',
      delayMs: () => d.operatorMs,
      async beforeReady(svc) {
        const image = svc.spec?.image as { repository?: string; tag?: string } | undefined;
        const app = { 'app.kubernetes.io/name': svc.metadata.name! };
        await client.apply(
          child(svc, 'apps/v1', 'Deployment', svc.metadata.name!, {
            replicas: (svc.spec?.replicas as number | undefined) ?? 1,
            selector: { matchLabels: app },
            template: {
              metadata: { labels: { ...app, ...((svc.spec?.labels as object) ?? {}) } },
              spec: { containers: [{ name: 'nim', image: `${image?.repository}:${image?.tag}` }] },
            },
          }),
          'nvcf-sim-nim-operator',
        );
      },
    },
    {
      apiVersion: nim,
      kind: 'NIMCache',
      manager: 'nvcf-sim-nim-operator',
      pending: 'NotReady',
      ready: 'Ready',
      delayMs: () => d.operatorMs,
    },
    {
      apiVersion: nim,
      kind: 'NIMPipeline',
      manager: 'nvcf-sim-nim-operator',
      pending: 'NotReady',
      ready: 'Ready',
      delayMs: () => d.operatorMs,
    },
    {
      apiVersion: dynamo,
      kind: 'DynamoGraphDeployment',
      manager: 'nvcf-sim-dynamo-operator',
      pending: 'pending',
      ready: 'successful',
      delayMs: () => d.operatorMs,
      async beforeReady(dgd) {
        for (const [service, s] of Object.entries(
          (dgd.spec?.services ?? {}) as Record<string, { replicas?: number; componentType?: string }>,
        )) {
          const spec = {
            ...(s.replicas !== undefined ? { replicas: s.replicas } : {}),
            ...(s.componentType ? { componentType: s.componentType } : {}),
          };
          await client.apply(
            child(dgd, dynamo, 'DynamoComponentDeployment', dnsLabel(dgd.metadata.name!, service.toLowerCase()), spec),
            'nvcf-sim-dynamo-operator',
          );
        }
      },
    },
    {
      apiVersion: dynamo,
      kind: 'DynamoComponentDeployment',
      manager: 'nvcf-sim-dynamo-operator',
      pending: 'pending',
      ready: 'successful',
      delayMs: (o) => (ownedBy(o, 'DynamoGraphDeployment') ? d.secondaryMs : d.operatorMs),
    },
  ];
  const deployments = generationController(client, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    labelSelector,
    log,
    settled: (o) =>
      o.status?.observedGeneration === o.metadata.generation &&
      (o.status?.readyReplicas ?? 0) >= ((o.spec?.replicas as number | undefined) ?? 1),
    async start(obj, steps, key) {
      const gen = obj.metadata.generation ?? 1;
      steps.after(key, d.secondaryMs, async () => {
        const cur = await stillAt(client, obj, gen);
        const n = (cur?.spec?.replicas as number | undefined) ?? 1;
        if (cur)
          await applyStatus(
            client,
            cur,
            { observedGeneration: gen, replicas: n, updatedReplicas: n, readyReplicas: n, availableReplicas: n },
            'nvcf-sim-kubelet',
          );
      });
    },
  });
  return [...kinds.map((k) => stateController(client, k, labelSelector, log)), deployments];
}
