import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { decodeCursor } from '@nvcf/auth';
import { DisposalStack } from '@nvcf/lifecycle';
import type { System } from '@nvcf/local';
import { waitUntil } from '@nvcf/testing';
import {
  describeReal,
  startRealSystem,
  httpClient,
  ok,
  deployedHelm,
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
} from '@nvcf/test';
import { startPrivateCassandra, type PrivateCassandra } from '../services/cassandra-private.js';
import { transitionsOf } from './suites/faults.suite.js';
import { fast } from './suites/system.js';

const OUTAGE_MS = 180_000;

type StatusEvent = { instanceStatusChanged: { cursor: string; state: string; instance: { id: string } } };
/** Only what the stream carries (the instance's key, no field of another subgraph): what a client reads while the store is frozen. */
const StatusDocument = parse(
  'subscription S($gpuSpecificationId: ID, $after: String) { instanceStatusChanged(gpuSpecificationId: $gpuSpecificationId, after: $after) { cursor state instance { id } } }',
) as TypedDocumentNode<StatusEvent, { gpuSpecificationId: string; after?: string }>;
const INSTANCES = 100;

describeReal('NATS JetStream and Cassandra: a long fault', () => {
  describe('real: Cassandra frozen (SIGSTOP) for 3 minutes during a 100-instance rollout', () => {
    // a private node: freezing the shared one would stall every other test file using it
    const stack = new DisposalStack();
    let cassandra: PrivateCassandra;
    let system: System;
    let suffix: string;
    beforeAll(async () => {
      cassandra = stack.use(await startPrivateCassandra());
      suffix = `_${Date.now().toString(36)}`;
      system = await startRealSystem(
        // the deadline outlasts the outage: what is tested is that nothing is lost, not the deadline
        { ...fast, revisionDeadlineMs: 15 * 60_000 },
        { cassandra: { contactPoints: cassandra.contactPoints, localDataCenter: cassandra.localDataCenter }, suffix },
      );
      stack.defer(() => system.dispose());
    }, 120_000);
    afterAll(() => stack.disposeAsync(), 120_000);

    it('the readers hold every event until it is back: nothing dead-lettered, the revision APPLIED, each transition seen once by every subscriber', async () => {
      const a = httpClient(system.url, 'dev-token-a');
      const d = await deployedHelm(a, { minInstances: INSTANCES, maxInstances: INSTANCES });
      expect(d.instanceIds).toHaveLength(INSTANCES);
      const watch = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
      await using log = await statusLog(system.backends.bus, 'nca-a');
      const vars = { gpuSpecificationId: d.specId };
      await using ws = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', StatusDocument, vars);
      await using sse = sseSubscribe(system.url, 'dev-token-a', StatusDocument, vars);
      // one more that goes away during the outage and resumes after it from its last cursor
      const first = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', StatusDocument, vars);
      await watch.opened(3);

      // each instance stays UPDATING for a while: most transitions are published while the store is frozen
      const rev = ok(await submit(a, d.specId, { model: 'v2', nvcfSimulate: { delayMs: 3000 } })).updateGpuSpecification
        .latestRevision!;
      cassandra.freeze();
      const frozenAt = Date.now();
      try {
        await waitUntil(
          () =>
            d.instanceIds.every((id) =>
              log.events.some((e) => e.instanceId === id && e.state === 'ACTIVE' && e.revisionId === rev.id),
            ),
          { what: 'every instance ACTIVE on the bus (agents need NATS only)', timeoutMs: 60_000 },
        );
        // every reader noticed and is holding its messages, not redelivering them
        const durables = statusDurables(suffix);
        await readersWaiting(system.gateway.metricsUrl, durables, true);
        await first.until((e) => e.length >= 10, 'the resumed subscriber saw part of the rollout', 30_000);
        await first.dispose();
        const resumeAfter = first.events.at(-1)!.instanceStatusChanged.cursor;
        // the outage's length is the point here: past the old give-up point (20 deliveries, ~90 s) twice over
        await new Promise((r) => setTimeout(r, Math.max(0, OUTAGE_MS - (Date.now() - frozenAt))));
        expect(await deadLettersOf(system, durables)).toEqual([]);
        cassandra.thaw();

        const resumed = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', StatusDocument, {
          ...vars,
          after: resumeAfter,
        });
        stack.defer(() => resumed.dispose());
        const s = await waitRevision(a, d.specId, 'APPLIED', 180_000);
        expect(s.latestRevision!.id).toBe(rev.id);
        await waitUntil(
          async () =>
            (await readSpec(a, d.specId))!.instances.every((i) => i.revisionId === rev.id && i.state === 'ACTIVE'),
          { what: 'every instance ACTIVE on the revision in every reader', timeoutMs: 120_000 },
        );
        await readersWaiting(system.gateway.metricsUrl, durables, false);
        expect(await deadLettersOf(system, durables)).toEqual([]);

        // every transition as stored, to every subscriber: complete, once each, in stream order
        const mine = log.events.filter((e) => d.instanceIds.includes(e.instanceId));
        expect(log.transitions(d.instanceIds)).toEqual(
          Object.fromEntries(d.instanceIds.map((id) => [id, ['UPDATING', 'ACTIVE']])),
        );
        const seqs = mine.map((e) => e.seq);
        const cursorSeq = (c: string) => decodeCursor(system.secret, 'nca-a', c);
        for (const sub of [ws, sse]) {
          await sub.until((e) => e.length >= seqs.length, 'every transition', 60_000);
          expect(sub.errors).toEqual([]);
          expect(sub.events.map((e) => cursorSeq(e.instanceStatusChanged.cursor))).toEqual(seqs);
          for (const states of Object.values(transitionsOf(sub, d.instanceIds)))
            expect(states).toEqual(['UPDATING', 'ACTIVE']);
        }
        const before = first.events.map((e) => cursorSeq(e.instanceStatusChanged.cursor));
        await resumed.until((e) => before.length + e.length >= seqs.length, 'the rest after resuming', 60_000);
        expect(resumed.errors).toEqual([]);
        expect([...before, ...resumed.events.map((e) => cursorSeq(e.instanceStatusChanged.cursor))]).toEqual(seqs);
      } finally {
        try {
          cassandra.thaw();
        } catch {
          /* already running */
        }
      }
    }, 480_000);
  });
});
