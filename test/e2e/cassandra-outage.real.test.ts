import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { System } from '@nvcf/local';
import {
  CreateFunctionDocument,
  FunctionsDocument,
  InstanceStatusChangedDocument,
  UpdateGpuSpecificationDocument,
} from '@nvcf/client';
import { waitUntil } from '@nvcf/testing';
import { decodeCursor } from '@nvcf/auth';
import { DisposalStack } from '@nvcf/lifecycle';
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
  type GraphQLResponse,
} from '@nvcf/test';
import { startPrivateCassandra, type PrivateCassandra } from '../services/cassandra-private.js';
import { transitionsOf } from './suites/faults.suite.js';
import { fast } from './suites/system.js';

const InstancesDocument = parse(
  'query Instances($ids: [ID!]!) { instances(ids: $ids) { id state } }',
) as TypedDocumentNode<{ instances: unknown[] }, { ids: string[] }>;

/** What a client must see while the store is down: the registry code, a message to act on, quickly. */
function expectUnavailable(r: GraphQLResponse<unknown>, tookMs: number) {
  expect(r.errors?.map((e) => e.extensions?.code)).toEqual(['UNAVAILABLE']);
  const message = r.errors![0].message;
  expect(message).toMatch(/retry/i);
  expect(message).not.toMatch(/\d+\.\d+\.\d+\.\d+|NoHostAvailable|Error:/); // no addresses, no driver internals
  expect(Object.values(r.data ?? {}).every((v) => v === null)).toBe(true);
  expect(tookMs).toBeLessThan(10_000);
}

describeReal('NATS JetStream and Cassandra', () => {
  describe('real: Cassandra stopped for 20 s during a rollout', () => {
    // a private node: stopping the shared one would fail every other test file (and process) using it
    const stack = new DisposalStack();
    let cassandra: PrivateCassandra;
    let system: System;
    beforeAll(async () => {
      cassandra = stack.use(await startPrivateCassandra());
      system = await startRealSystem(
        { ...fast, revisionDeadlineMs: 120_000 },
        { cassandra: { contactPoints: cassandra.contactPoints, localDataCenter: cassandra.localDataCenter } },
      );
      stack.defer(() => system.dispose());
    }, 90_000);
    afterAll(() => stack.disposeAsync(), 90_000);

    it('mutations meanwhile get UNAVAILABLE and write nothing; the rollout completes once it is back, every transition delivered once', async () => {
      const watchA = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
      const a = httpClient(system.url, 'dev-token-a');
      const d = await deployedHelm(a, { minInstances: 4, maxInstances: 4 });
      await using log = await statusLog(system.backends.bus, 'nca-a');
      await using ws = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, {
        gpuSpecificationId: d.specId,
      });
      await using sse = sseSubscribe(system.url, 'dev-token-a', InstanceStatusChangedDocument, {
        gpuSpecificationId: d.specId,
      });
      await watchA.opened(2);
      // each instance stays UPDATING for 4 s: its ACTIVE is published while Cassandra is down
      const rev = ok(await submit(a, d.specId, { model: 'v2', nvcfSimulate: { delayMs: 4000 } })).updateGpuSpecification
        .latestRevision!;
      await ws.until(
        (e) => e.filter((x) => x.instanceStatusChanged.state === 'UPDATING').length === 4,
        'every instance UPDATING',
      );

      const downAt = Date.now(); // a stopping node closes its client connections first, then flushes
      await cassandra.stop();
      const name = `fn-outage-${Date.now().toString(36)}`;
      const create = {
        input: {
          name,
          inferenceUrl: '/v1/infer',
          inferencePort: 8000,
          helm: { chart: 'oci://nvcr.io/nca-a/echo-1.2.3.tgz', serviceName: 'echo' },
        },
      };
      const update = {
        id: d.specId,
        input: { maxInstances: 5, revision: { configuration: { replicas: 1, model: 'v3' } } },
      };
      let t = Date.now();
      expectUnavailable(await a(CreateFunctionDocument, create), Date.now() - t);
      t = Date.now();
      expectUnavailable(await a(UpdateGpuSpecificationDocument, update), Date.now() - t);
      // a read says so too, rather than "no such instance"
      t = Date.now();
      expectUnavailable(await a(InstancesDocument, { ids: d.instanceIds }), Date.now() - t);
      // the agents finish the rollout meanwhile: they need NATS only
      await waitUntil(
        () =>
          d.instanceIds.every((id) =>
            log.events.some((e) => e.instanceId === id && e.state === 'ACTIVE' && e.revisionId === rev.id),
          ),
        { what: 'every instance ACTIVE on the bus', timeoutMs: 10_000 },
      );
      // the outage's length is the point here, not a guess at readiness
      await new Promise((r) => setTimeout(r, Math.max(0, 20_000 - (Date.now() - downAt))));
      // still down: the rollout cannot have been recorded as applied
      t = Date.now();
      expectUnavailable(await a(UpdateGpuSpecificationDocument, update), Date.now() - t);
      await cassandra.start();

      const s = await waitRevision(a, d.specId, 'APPLIED', 40_000);
      expect(s.latestRevision!.id).toBe(rev.id);
      expect(s.maxInstances).toBe(4); // the refused update changed no bound
      // the other status readers redelivered their events too (nvca-status answers Instance.state)
      await waitUntil(
        async () =>
          (await readSpec(a, d.specId))!.instances.every((i) => i.revisionId === rev.id && i.state === 'ACTIVE'),
        { what: 'every instance ACTIVE on the revision', timeoutMs: 20_000 },
      );
      expect(ok(await a(FunctionsDocument, {})).functions.map((f) => f.name)).not.toContain(name);
      // every transition as stored, to both subscribers: complete, once each, in stream order
      expect(log.transitions(d.instanceIds)).toEqual(
        Object.fromEntries(d.instanceIds.map((id) => [id, ['UPDATING', 'ACTIVE']])),
      );
      const seqs = log.events.filter((e) => d.instanceIds.includes(e.instanceId)).map((e) => e.seq);
      for (const sub of [ws, sse]) {
        await sub.until(
          (e) => e.length >= seqs.length,
          'every transition, the ACTIVE ones held back during the outage',
          30_000,
        );
        expect(sub.errors).toEqual([]);
        expect(sub.events.map((e) => decodeCursor(system.secret, 'nca-a', e.instanceStatusChanged.cursor))).toEqual(
          seqs,
        );
        for (const states of Object.values(transitionsOf(sub, d.instanceIds)))
          expect(states).toEqual(['UPDATING', 'ACTIVE']);
      }
      // what the client was told to do works: the same mutation succeeds now
      expect(ok(await a(CreateFunctionDocument, create)).createFunction.function.name).toBe(name);
    }, 120_000); // about 45 s on an idle 2-core machine; the rest absorbs a busy one
  });
});
