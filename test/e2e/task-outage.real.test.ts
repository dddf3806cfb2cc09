import { randomUUID } from 'node:crypto';
import { signTenant, TENANT_HEADER } from '@nvcf/auth';
import { createNatsBus } from '@nvcf/bus';
import { createCassandraTaskStore, createNvctServer, unannounced, type TaskStore } from '@nvcf/subgraph-nvct';
import {
  Streams,
  allStreams,
  durableName,
  subjects,
  type TaskStatusEvent,
  type TaskWorkMessage,
} from '@nvcf/contracts';
import { migratedClient } from '@nvcf/cassandra/test/harness';
import { DisposalStack } from '@nvcf/lifecycle';
import { defaultRegistryPath, loadRegistry } from '@nvcf/operators';
import { waitUntil } from '@nvcf/testing';
import { deleteDurables, describeReal, realEnv, startTcpProxy } from '@nvcf/test';

const SECRET = 'nvct-outage-secret-0123456789abcdef';

describeReal('NATS JetStream and Cassandra', () => {
  describe('real: nvct cut off from NATS while a task is canceled', () => {
    const stack = new DisposalStack();
    const tag = `outage${randomUUID().slice(0, 8)}`;
    const tenant = `nca-${tag}`;
    const clusterId = `cluster-${tag}`;
    let store: TaskStore;
    let graphqlUrl: string;
    let cut: () => Promise<void>;
    let restore: () => Promise<void>;
    const events: TaskStatusEvent[] = [];
    const work: TaskWorkMessage[] = [];

    beforeAll(async () => {
      const { natsUrl } = realEnv();
      // the ground truth: what the streams store, read on a connection the test never cuts
      const truth = stack.use(await createNatsBus({ servers: natsUrl, name: `${tag}-truth` }));
      await truth.ensureStreams(allStreams);
      const fromSeq = (await truth.streamInfo(Streams.taskStatus.name)).lastSeq + 1;
      const filterSubject = `Status.NVCT.${tenant}.>`;
      const tail = await truth.tail<TaskStatusEvent>({ stream: Streams.taskStatus.name, filterSubject, fromSeq }, (m) =>
        events.push(m.data),
      );
      stack.defer(() => tail.stop());
      // the agent of the cluster, as it reads its work queue (a durable of its own on its subject)
      const agent = await truth.consume<TaskWorkMessage>(
        {
          stream: Streams.taskWork.name,
          durable: durableName(Streams.taskWork.name, clusterId),
          filterSubject: subjects.taskWork(clusterId),
          ackWaitMs: 30_000,
          maxAckPending: 64,
        },
        async ({ data }) => {
          work.push(data);
        },
      );
      stack.defer(() => agent.stop());
      // nvct reaches NATS through a link the test cuts: an outage for nvct only, not for the
      // other test files sharing the server
      const u = new URL(natsUrl.split(',')[0]);
      const link = stack.use(await startTcpProxy({ host: u.hostname, port: Number(u.port) }));
      cut = () => link.cut();
      restore = () => link.restore();
      // a publish gives up after half a second instead of 10 s: the outage outlasts it sooner
      const bus = stack.use(
        await createNatsBus({ servers: `nats://${link.address}`, name: `${tag}-nvct`, publishRetryMs: 500 }),
      );
      const client = await migratedClient('nvct_api');
      stack.defer(() => client.dispose());
      store = createCassandraTaskStore(client);
      stack.defer(() => deleteDurables(natsUrl, tag));
      const server = stack.use(
        await createNvctServer({
          store,
          bus,
          registry: loadRegistry(defaultRegistryPath()),
          secret: SECRET,
          port: 0,
          host: '127.0.0.1',
          deadlineSweepMs: 200,
          // ICMS's answer: the run itself is not under test, the stop is
          placeTask: async () => ({ clusterId }),
          consumerName: `nvct-${tag}`,
          consumerStart: 'new',
        }),
      );
      graphqlUrl = server.graphqlUrl;
    });
    afterAll(() => stack.disposeAsync());

    const call = async (query: string, variables: Record<string, unknown>) => {
      const res = await fetch(graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TENANT_HEADER]: signTenant(SECRET, tenant, 'nvct') },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await res.json()) as { data?: Record<string, { id: string; status: string }>; errors?: unknown };
      expect(body.errors).toBeUndefined();
      return body.data!;
    };
    const stored = async (id: string) => (await store.get([id]))[0]!;

    it('publishes the stored cancel once NATS is back: its event once on the stream, its stop to the agent', async () => {
      const { createTask } = await call(
        'mutation ($input: CreateTaskInput!) { createTask(input: $input) { id status } }',
        {
          input: {
            name: 'outage',
            container: { image: 'nvcr.io/nca-a/train:1' },
            gpuSpecification: { gpu: 'L40S', instanceType: 'gl40s_1.br25_2xlarge' },
          },
        },
      );
      const id = createTask.id;
      const statuses = () => events.filter((e) => e.taskId === id).map((e) => e.status);
      await waitUntil(() => statuses().includes('LAUNCHED'), { what: 'the task LAUNCHED on the stream' });

      await cut();
      const { cancelTask } = await call('mutation ($id: ID!) { cancelTask(id: $id) { id status } }', { id });
      // the cancel is stored and answered although nothing of it could be published
      expect(cancelTask.status).toBe('CANCELED');
      const during = await stored(id);
      expect(during.status).toBe('CANCELED');
      expect(unannounced(during)).toBe(true);
      expect(statuses()).toEqual(['QUEUED', 'LAUNCHED']);
      expect(work).toEqual([]);

      await restore();
      await waitUntil(async () => !unannounced(await stored(id)), {
        what: 'the sweep to publish the cancel',
        timeoutMs: 30_000,
      });
      await waitUntil(() => statuses().includes('CANCELED') && work.length > 0, { what: 'the cancel on the streams' });
      // each transition once: the sweep's repeats of what did reach the stream are duplicates it dropped
      const mine = events.filter((e) => e.taskId === id);
      expect(mine.map((e) => [e.seq, e.status])).toEqual([
        [1, 'QUEUED'],
        [2, 'LAUNCHED'],
        [3, 'CANCELED'],
      ]);
      expect(work).toEqual([{ type: 'stop-task', ncaId: tenant, taskId: id, clusterId, reason: 'CANCELED' }]);
    });
  });
});
