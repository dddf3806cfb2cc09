/**
 * The IDE's fetcher (console/web/ide/fetcher.ts), run in Node against a real gateway: its
 * subscriptions are SSE on the gateway's status path, so a connection cut under it resumes from
 * the last event's id (its cursor) with exactly the events it missed, like any other client.
 */
import { print, type ExecutionResult } from 'graphql';
import { startSystem, type System } from '@nvcf/local';
import { InstanceStatusChangedDocument, type InstanceStatusChangedSubscription } from '@nvcf/client';
import {
  deployedHelm,
  httpClient,
  ok,
  startTcpProxy,
  submit,
  waitRevision,
  watchSubscriptions,
  wsSubscribe,
  type TcpProxy,
} from '@nvcf/test';
import { waitUntil } from '@nvcf/testing';
import { gatewayFetcher } from '../../console/web/ide/fetcher.js';
import { fast } from './suites/system.js';

type Event = InstanceStatusChangedSubscription['instanceStatusChanged'];
interface Subscribable {
  subscribe(o: { next(r: ExecutionResult): void; error(e: unknown): void; complete(): void }): { unsubscribe(): void };
}
const isSubscribable = (x: unknown): x is Subscribable =>
  typeof x === 'object' && x !== null && typeof (x as Subscribable).subscribe === 'function';

describe('the IDE fetcher on the gateway', () => {
  let system: System;
  let proxy: TcpProxy;
  const a = () => httpClient(system.url, 'dev-token-a');
  beforeAll(async () => {
    system = await startSystem(fast);
    const gw = new URL(system.gateway.url);
    proxy = await startTcpProxy({ host: gw.hostname, port: Number(gw.port) });
  });
  afterAll(async () => {
    await proxy?.cut();
    await system?.dispose();
  });

  it("runs queries with the header editor's token, and the page's token for the schema read before the editor exists", async () => {
    const fetcher = gatewayFetcher(`${system.gateway.url}/graphql`, { Authorization: 'Bearer dev-token-b' });
    const asA = await fetcher({ query: '{ clusters { id } }' }, { headers: { Authorization: 'Bearer dev-token-a' } });
    expect(asA).toMatchObject({ data: { clusters: expect.any(Array) } });
    const schemaRead = await fetcher({ query: '{ __typename }' }, {});
    expect(schemaRead).toEqual({ data: { __typename: 'Query' } });
    const emptied = await fetcher({ query: '{ __typename }' }, { headers: undefined });
    expect(emptied).toMatchObject({ errors: [{ extensions: { code: 'UNAUTHENTICATED' } }] });
  });

  it('resumes a cut subscription from its last cursor: exactly the events a direct subscriber saw', async () => {
    const d = await deployedHelm(a());
    const variables = { gpuSpecificationId: d.specId };
    const watch = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
    await using control = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, variables);
    const fetcher = gatewayFetcher(`http://${proxy.address}/graphql`, {});
    const returned = await fetcher(
      { query: print(InstanceStatusChangedDocument), variables },
      { headers: { Authorization: 'Bearer dev-token-a' } },
    );
    if (!isSubscribable(returned)) throw new Error('a subscription should return an Observable');
    const events: Event[] = [];
    const problems: unknown[] = [];
    const sub = returned.subscribe({
      next: (r) =>
        r.errors
          ? problems.push(r.errors)
          : events.push((r.data as InstanceStatusChangedSubscription).instanceStatusChanged),
      error: (e) => problems.push(e),
      complete: () => problems.push('completed'),
    });
    try {
      await watch.opened(2);
      const rollout = async (model: string) => {
        ok(await submit(a(), d.specId, { model }));
        await waitRevision(a(), d.specId, 'APPLIED');
      };
      await rollout('v2');
      await waitUntil(() => events.length === 4, { what: "the first rollout's events" });
      await proxy.cut();
      await rollout('v3'); // while the IDE is cut off
      await proxy.restore();
      await rollout('v4');
      await control.until((e) => e.length === 12);
      await waitUntil(() => events.length >= 12, { what: 'the missed events, then live ones' });
      expect(events.map((e) => e.cursor)).toEqual(control.events.map((e) => e.instanceStatusChanged.cursor));
      expect(problems).toEqual([]);
    } finally {
      sub.unsubscribe();
    }
  });
});
