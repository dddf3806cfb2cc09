import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { System } from '@nvcf/local';
import {
  FunctionVersionDocument,
  GpuSpecificationDocument,
  InstanceStatusChangedDocument,
  UpdateGpuSpecificationDocument,
  type InstanceStatusChangedSubscription,
} from '@nvcf/client';
import { waitUntil } from '@nvcf/testing';
import {
  httpClient,
  ok,
  wsSubscribe,
  sseSubscribe,
  helmFunction,
  deployHelm,
  watchSubscriptions,
  type Collected,
} from '@nvcf/test';
import { fast, type MakeSystem } from './system.js';

type Sub = Collected<InstanceStatusChangedSubscription>;
type Keys = {
  instanceStatusChanged: {
    cursor: string;
    instance: { id: string; cluster: { id: string }; gpuSpecification: { id: string } };
  };
};
const KEYS_ONLY = parse(
  'subscription($functionId: ID) { instanceStatusChanged(functionId: $functionId) { cursor instance { id cluster { id } gpuSpecification { id } } } }',
) as TypedDocumentNode<Keys, { functionId: string }>;
const events = (c: Sub) => c.events.map((e) => e.instanceStatusChanged);

/** The happy path of the foundation issue, through the gateway, as a client that knows only API.md. */
export function happySuite(name: string, make: MakeSystem) {
  describe(`${name}: the happy path through the gateway`, () => {
    let system: System;
    beforeAll(async () => {
      system = await make(fast);
    });
    afterAll(async () => system?.dispose());

    async function run(subscribe: (functionId: string) => Sub) {
      const watchA = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
      const client = httpClient(system.url, 'dev-token-a');
      const { versionId, functionId } = await helmFunction(client);
      await using sub = subscribe(functionId);
      // only the keys of Instance's entities: answered from the event, no supergraph fetch
      await using keys = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', KEYS_ONLY, { functionId });
      await watchA.opened(2);

      const [specId] = await deployHelm(client, versionId);
      await waitUntil(
        async () => ok(await client(FunctionVersionDocument, { id: versionId })).functionVersion!.status === 'ACTIVE',
        { what: 'version ACTIVE' },
      );
      const spec = ok(await client(GpuSpecificationDocument, { id: specId })).gpuSpecification!;
      expect(spec.instances).toHaveLength(2);
      const first = spec.lastAppliedRevision!;
      expect(first.status).toBe('APPLIED');
      expect(first.configuration).toEqual({ replicas: 1, model: 'v1' });
      const ids = spec.instances.map((i) => i.id);
      await sub.until(
        (evs) =>
          ids.every((id) =>
            evs.some((e) => e.instanceStatusChanged.instance.id === id && e.instanceStatusChanged.state === 'ACTIVE'),
          ),
        'both instances ACTIVE',
      );

      // the in-place update: the whole configuration, every instance UPDATING → ACTIVE
      const updated = ok(
        await client(UpdateGpuSpecificationDocument, {
          id: specId,
          input: { revision: { configuration: { replicas: 1, model: 'v2' } } },
        }),
      );
      const revId = updated.updateGpuSpecification.latestRevision!.id;
      expect(revId).not.toBe(first.id);
      const applied = await waitUntil(
        async () => {
          const s = ok(await client(GpuSpecificationDocument, { id: specId })).gpuSpecification!;
          return s.latestRevision?.status === 'APPLIED' && s;
        },
        { what: 'revision APPLIED' },
      );
      expect(applied.lastAppliedRevision!.id).toBe(revId);
      expect(applied.configuration).toEqual({ replicas: 1, model: 'v2' });
      expect(applied.instances.map((i) => [i.state, i.revisionId])).toEqual([
        ['ACTIVE', revId],
        ['ACTIVE', revId],
      ]);
      expect(ok(await client(FunctionVersionDocument, { id: versionId })).functionVersion!.status).toBe('ACTIVE');

      await sub.until(
        (all) =>
          ids.every((id) =>
            all.some(
              (e) =>
                e.instanceStatusChanged.instance.id === id &&
                e.instanceStatusChanged.revisionId === revId &&
                e.instanceStatusChanged.state === 'ACTIVE',
            ),
          ),
        'updates observed',
      );
      for (const id of ids)
        expect(
          events(sub)
            .filter((e) => e.instance.id === id)
            .map((e) => e.state),
        ).toEqual(['STARTING', 'ACTIVE', 'UPDATING', 'ACTIVE']);
      const last = events(sub)
        .filter((e) => e.instance.id === ids[0])
        .at(-1)!;
      expect(last.previousState).toBe('UPDATING');
      expect(last.instance.gpuSpecification.id).toBe(specId);
      // the name lives in icms: fetched through the supergraph
      expect(last.instance.cluster.name).toBe(system.clusters.find((c) => c.id === last.instance.cluster.id)!.name);
      const keyed = (
        await keys.until((all) => all.length >= events(sub).length, 'the key-only subscription caught up')
      ).map((e) => e.instanceStatusChanged);
      const byCursor = new Map(keyed.map((e) => [e.cursor, e]));
      for (const e of events(sub)) {
        expect(byCursor.get(e.cursor)?.instance).toEqual({
          id: e.instance.id,
          cluster: { id: e.instance.cluster.id },
          gpuSpecification: { id: e.instance.gpuSpecification.id },
        });
      }
      expect(new Set(events(sub).map((e) => e.cursor)).size).toBe(events(sub).length);
    }

    it('create, deploy, update: observed over graphql-ws', async () => {
      await run((functionId) =>
        wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, { functionId }),
      );
    });

    it('the same, observed over SSE', async () => {
      await run((functionId) => sseSubscribe(system.url, 'dev-token-a', InstanceStatusChangedDocument, { functionId }));
    });
  });
}
