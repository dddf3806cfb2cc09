/**
 * Node failures on the 3-node NATS cluster (streams R3) and the 3-node Cassandra ring (RF 3), through
 * the public API: a stream leader moved, a NATS server killed, a Cassandra node stopped, each in the
 * middle of a rollout. Every test restores the node it took away before it ends.
 */
import { CreateFunctionDocument, FunctionsDocument, InstanceStatusChangedDocument } from '@nvcf/client';
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { decodeCursor } from '@nvcf/auth';
import { Streams } from '@nvcf/contracts';
import { DisposalStack } from '@nvcf/lifecycle';
import { waitUntil } from '@nvcf/testing';
import cassandra from 'cassandra-driver';
import {
  httpClient,
  ok,
  helmFunction,
  deployHelm,
  l40s,
  submit,
  waitRevision,
  readSpec,
  wsSubscribe,
  sseSubscribe,
  watchSubscriptions,
  statusLog,
  readersWaiting,
  statusDurables,
  deadLettersOf,
  type HttpClient,
} from '@nvcf/test';
import {
  clusterEnv,
  clusterNodes,
  natsNodeOf,
  nothingPending,
  startClusterSystem,
  withJsm,
  type ClusterSystem,
  type Nodes,
} from './system.js';

const fast = {
  sim: { startDelayMs: 20, updateDelayMs: 20 },
  agentBackoff: { initialMs: 20, maxMs: 200, factor: 2 },
  // past the longest outage below: what they test is that nothing is lost, not the deadline
  revisionDeadlineMs: 600_000,
  deadlineSweepMs: 200,
};
const INSTANCES = 6;
const LONG_OUTAGE_MS = 180_000;

type Event = { instanceStatusChanged: { cursor: string; state: string; instance: { id: string } } };
/**
 * Only what the stream carries: without a quorum the instance fields of other subgraphs cannot be
 * read, and the gateway holds an event for them a minute at most (then UNAVAILABLE, resume by cursor).
 */
const StreamOnlyDocument = parse(
  'subscription S($gpuSpecificationId: ID) { instanceStatusChanged(gpuSpecificationId: $gpuSpecificationId) { cursor state instance { id } } }',
) as TypedDocumentNode<Event, { gpuSpecificationId: string }>;

describe('cluster: node failures during a rollout', () => {
  const stack = new DisposalStack();
  let system: ClusterSystem;
  let nodes: Nodes;
  let a: HttpClient;
  beforeAll(async () => {
    nodes = clusterNodes();
    system = await startClusterSystem(fast);
    stack.defer(() => system.dispose());
    a = httpClient(system.url, 'dev-token-a');
  }, 180_000);
  afterAll(() => stack.disposeAsync(), 120_000);

  /**
   * A rollout under way on a fresh deployment, watched by a WebSocket and an SSE subscriber and by a
   * read of the stream (the ground truth); `during` runs once every instance is UPDATING.
   */
  async function rolloutThrough(
    during: () => Promise<void>,
    doc: TypedDocumentNode<Event, { gpuSpecificationId: string }> = InstanceStatusChangedDocument,
  ) {
    const watch = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
    // deployedHelm's 20 s is for one node; every write here is a quorum of a ring sharing two cores
    const { versionId } = await helmFunction(a);
    const [specId] = await deployHelm(a, versionId, [l40s({ minInstances: INSTANCES, maxInstances: INSTANCES })]);
    const first = await waitRevision(a, specId, 'APPLIED', 120_000);
    const d = { specId, instanceIds: first.instances.map((i) => i.id) };
    const log = await statusLog(system.backends.bus, 'nca-a');
    const ws = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', doc, {
      gpuSpecificationId: d.specId,
    });
    const sse = sseSubscribe(system.url, 'dev-token-a', doc, {
      gpuSpecificationId: d.specId,
    });
    try {
      await watch.opened(2);
      // each instance stays UPDATING for 4 s: its ACTIVE is published after the failure
      const rev = ok(await submit(a, d.specId, { model: 'v2', nvcfSimulate: { delayMs: 4000 } })).updateGpuSpecification
        .latestRevision!;
      await ws.until(
        (e) => e.filter((x) => x.instanceStatusChanged.state === 'UPDATING').length === INSTANCES,
        'every instance UPDATING',
        30_000,
      );
      await during();
      const s = await waitRevision(a, d.specId, 'APPLIED', 120_000);
      expect(s.latestRevision!.id).toBe(rev.id);
      await waitUntil(
        async () =>
          (await readSpec(a, d.specId))!.instances.every((i) => i.revisionId === rev.id && i.state === 'ACTIVE'),
        {
          what: 'every instance ACTIVE on the revision',
          timeoutMs: 60_000,
        },
      );
      await waitUntil(
        () =>
          Promise.resolve(
            d.instanceIds.every((id) => log.events.some((e) => e.instanceId === id && e.state === 'ACTIVE')),
          ),
        { what: 'every ACTIVE read back from the stream', timeoutMs: 30_000 },
      );
      // stored once each: no duplicate publish survived the failure
      expect(log.transitions(d.instanceIds)).toEqual(
        Object.fromEntries(d.instanceIds.map((id) => [id, ['UPDATING', 'ACTIVE']])),
      );
      const seqs = log.events.filter((e) => d.instanceIds.includes(e.instanceId)).map((e) => e.seq);
      for (const sub of [ws, sse]) {
        await sub.until((e) => e.length >= seqs.length, 'every transition', 60_000);
        expect(sub.errors).toEqual([]);
        // exactly the stored events, once each, in stream order
        expect(sub.events.map((e) => decodeCursor(system.secret, 'nca-a', e.instanceStatusChanged.cursor))).toEqual(
          seqs,
        );
      }
      await waitUntil(
        async () => {
          const left = await nothingPending(clusterEnv().natsUrl, system);
          // thrown, so that a timeout names the durables still holding messages
          if (left.length) throw new Error(left.join('; '));
          return true;
        },
        {
          what: "no message pending or unacknowledged on any of the system's durables",
          // an ack lost with the killed server is redelivered after the durables' ack wait (30 s), then
          // acknowledged again by the idempotent handler: the bound must outlast one ack wait
          timeoutMs: 75_000,
        },
      );
      return { d, rev };
    } finally {
      await ws.dispose();
      await sse.dispose();
      await log.stop();
    }
  }

  it('the stream leaders move (step-down) mid-rollout: no loss, no duplicate delivery', async () => {
    const env = clusterEnv();
    const moved: string[] = [];
    await rolloutThrough(() =>
      withJsm(env.natsUrl, async (jsm, nc) => {
        for (const name of [Streams.status.name, Streams.update.name]) {
          const before = (await jsm.streams.info(name)).cluster?.leader;
          expect(before).toBeTruthy();
          const r = (await nc.request(`$JS.API.STREAM.LEADER.STEPDOWN.${name}`, '', { timeout: 10_000 })).json<{
            success?: boolean;
            error?: unknown;
          }>();
          expect(r.error).toBeUndefined();
          const after = await waitUntil(
            async () => {
              const l = (await jsm.streams.info(name)).cluster?.leader;
              return l && l !== before ? l : false;
            },
            { what: `a new leader of ${name}`, timeoutMs: 30_000 },
          );
          moved.push(`${name}: ${before} → ${after}`);
        }
      }),
    );
    expect(moved).toHaveLength(2);
  }, 300_000);

  it('a NATS server killed (SIGKILL) mid-rollout: the rollout completes, every transition once, nothing pending', async () => {
    const env = clusterEnv();
    let victim: Awaited<ReturnType<typeof natsNodeOf>> | undefined;
    try {
      await rolloutThrough(async () => {
        // the server the control plane's bus is connected to: its clients must reconnect to another
        victim = await natsNodeOf(`nvcf${system.suffix}`, nodes, env.monitorUrls);
        await nodes.stop(victim, 'kill');
      });
      // the bus now runs on another server
      const now = await natsNodeOf(`nvcf${system.suffix}`, nodes, env.monitorUrls);
      expect(now.name).not.toBe(victim!.name);
    } finally {
      if (victim) await nodes.start(victim);
      await nodes.natsHealthy();
    }
  }, 300_000);

  it('a Cassandra node stopped mid-rollout: mutations succeed at quorum, the rollout completes, and the node catches up by hints', async () => {
    const env = clusterEnv();
    const [n1, n2, n3] = nodes.cassandra as [Nodes['cassandra'][0], Nodes['cassandra'][0], Nodes['cassandra'][0]];
    const name = `fn-quorum-${Date.now().toString(36)}`;
    const n3Id = await nodes.hostId(n3);
    const hintsFor3 = () => nodes.hintFiles(n1, n3Id).length + nodes.hintFiles(n2, n3Id).length;
    let created: string | undefined;
    try {
      const { d } = await rolloutThrough(async () => {
        await nodes.stop(n3, 'stop');
        // a mutation while one replica of three is down: LOCAL_QUORUM (2 of 3) still answers
        const r = ok(
          await a(CreateFunctionDocument, {
            input: {
              name,
              inferenceUrl: '/v1/infer',
              inferencePort: 8000,
              helm: { chart: 'oci://nvcr.io/nca-a/echo-1.2.3.tgz', serviceName: 'echo' },
            },
          }),
        );
        created = r.createFunction.function.id;
        // the two live nodes keep hints for the stopped one (flushed to files every 2 s)
        await waitUntil(() => Promise.resolve(hintsFor3() > 0), {
          what: 'hints for the stopped node',
          timeoutMs: 30_000,
        });
      });
      // nothing half-written: the function and its version read back whole, the rollout's instances all on it
      const fns = ok(await a(FunctionsDocument, {})).functions;
      expect(fns.find((f) => f.name === name)?.id).toBe(created);
      expect((await readSpec(a, d.specId))!.instances).toHaveLength(INSTANCES);
    } finally {
      await nodes.start(n3);
    }
    await nodes.ringUp();
    // caught up: the hints were replayed to the node (logged by the senders) and their files removed
    await waitUntil(() => Promise.resolve(hintsFor3() === 0), {
      what: 'every hint delivered',
      timeoutMs: 120_000,
      intervalMs: 500,
    });
    const n3Address = n3.probe.split(':')[0];
    expect([nodes.logOf(n1), nodes.logOf(n2)].join('\n')).toMatch(
      new RegExp(`Finished hinted handoff of file .* to endpoint /${n3Address.replace(/\./g, '\\.')}`),
    );
    // and the node alone answers for a row written while it was down (ONE, coordinated by it)
    const port = Number(n3.probe.split(':')[1]);
    const only3 = new cassandra.Client({
      contactPoints: [n3.probe],
      localDataCenter: env.localDataCenter,
      protocolOptions: { port },
      policies: {
        loadBalancing: new cassandra.policies.loadBalancing.AllowListPolicy(
          new cassandra.policies.loadBalancing.RoundRobinPolicy(),
          [n3.probe],
        ),
      },
    });
    try {
      await only3.connect();
      const rs = await only3.execute(`SELECT id FROM nvcf_api${system.suffix}.functions WHERE id = ?`, [created], {
        prepare: true,
        consistency: cassandra.types.consistencies.one,
      });
      expect(rs.rowLength).toBe(1);
    } finally {
      await only3.shutdown();
    }
  }, 420_000);

  it('two Cassandra nodes of three down for 3 minutes mid-rollout: mutations fail fast, the readers wait, nothing is lost', async () => {
    const [n1, n2, n3] = nodes.cassandra as [Nodes['cassandra'][0], Nodes['cassandra'][0], Nodes['cassandra'][0]];
    const durables = statusDurables(system.suffix);
    const create = {
      input: {
        name: `fn-no-quorum-${Date.now().toString(36)}`,
        inferenceUrl: '/v1/infer',
        inferencePort: 8000,
        helm: { chart: 'oci://nvcr.io/nca-a/echo-1.2.3.tgz', serviceName: 'echo' },
      },
    };
    let down = false;
    try {
      await rolloutThrough(async () => {
        await Promise.all([nodes.stop(n2, 'kill'), nodes.stop(n3, 'kill')]);
        down = true;
        const downAt = Date.now();
        // before the survivor's failure detector convicts its peers, a write is sent to them and times
        // out with its outcome unknown (and says so); once it has, the write is refused up front
        await nodes.quorumLost(n1);
        // no quorum: a mutation is refused with the registry code, quickly, and stores nothing
        const t = Date.now();
        const r = await a(CreateFunctionDocument, create);
        expect(r.errors?.map((e) => e.extensions?.code)).toEqual(['UNAVAILABLE']);
        expect(r.errors?.[0]?.message).toMatch(/unavailable right now/);
        expect(Date.now() - t).toBeLessThan(15_000);
        // the status readers hold their events instead of redelivering them towards a give-up
        await readersWaiting(system.gateway.metricsUrl, durables, true);
        await new Promise((r) => setTimeout(r, Math.max(0, LONG_OUTAGE_MS - (Date.now() - downAt))));
        expect(await deadLettersOf(system, durables)).toEqual([]);
        await Promise.all([nodes.start(n2), nodes.start(n3)]);
        down = false;
        await nodes.ringUp();
      }, StreamOnlyDocument);
      expect(await deadLettersOf(system, durables)).toEqual([]);
      const fns = ok(await a(FunctionsDocument, {})).functions;
      expect(fns.map((f) => f.name)).not.toContain(create.input.name);
    } finally {
      if (down) {
        await Promise.all([nodes.start(n2), nodes.start(n3)]);
        await nodes.ringUp();
      }
    }
  }, 600_000);
});
