import { parse, OperationTypeNode, Kind, type OperationDefinitionNode } from 'graphql';
import type { Execute } from '../../src/status/instances.js';
import { statusOperation } from '../../src/status/operation.js';
import { REMOTE_QUERY, TENANT, startStatusWs, until } from './harness.js';

/**
 * A supergraph that holds its answers until the test gives them (one call, or all from now on):
 * which ids each call asked for, and how many calls were in flight together at most.
 */
function heldSupergraph() {
  const calls: { ids: string[]; answer(failure?: string): void }[] = [];
  let released = false,
    inFlight = 0,
    maxInFlight = 0;
  const execute: Execute = (_tenant, _query, variables) => {
    const ids = variables.__ids as string[];
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    return new Promise((resolve) => {
      let answered = false;
      const answer = (failure?: string) => {
        if (answered) return;
        answered = true;
        inFlight--;
        resolve(
          failure
            ? { errors: [{ message: failure, extensions: { code: 'INTERNAL_SERVER_ERROR' } }] }
            : {
                data: {
                  __instances: ids.map((id) => ({ __nvcfInstanceId: id, id, cluster: { name: `cluster of ${id}` } })),
                },
              },
        );
      };
      calls.push({ ids, answer });
      if (released) answer();
    });
  };
  return {
    execute,
    calls,
    maxInFlight: () => maxInFlight,
    release() {
      released = true;
      for (const c of calls) c.answer();
    },
  };
}

/** Three instances, four events each, interleaved: a feed that conflates skips some of them. */
const EVENTS = Array.from({ length: 12 }, (_, k) => ({ instance: `i${k % 3}`, message: `e${k}` }));
/** a small queue, so that events held behind a fetch conflate within the test's dozen */
const limits = { bufferEvents: 4 };

describe('a subscription whose events wait on remote fields', () => {
  it('over graphql-ws: the events behind a slow fetch are fetched ahead, batched, and delivered complete and in order', async () => {
    const supergraph = heldSupergraph();
    await using server = await startStatusWs({ execute: supergraph.execute, limits });
    using client = await server.open();
    await client.init();
    client.subscribe('1', 'fn', REMOTE_QUERY);
    await until(() => server.attached() === 1, 'the subscription attached');
    // the first event's fetch is held: the rest arrive meanwhile, as at a fetch's round trip
    await server.publish(EVENTS[0].instance, EVENTS[0].message);
    await until(() => supergraph.calls.length === 1, "the first event's fetch");
    await Promise.all(EVENTS.slice(1).map((e) => server.publish(e.instance, e.message)));
    await until(() => supergraph.calls.length > 1, 'the later events fetched while the first one is held', 2000).catch(
      () => undefined, // asserted below: held back, they are not
    );
    supergraph.release();
    await until(() => client.nexts().some((e) => e.message === 'e11'), 'the last event');

    expect(client.nexts().map((e) => [e.message, e.instance, e.cluster, e.lag])).toEqual(
      EVENTS.map((e) => [e.message, e.instance, `cluster of ${e.instance}`, null]),
    );
    // fetched ahead while the first fetch was held, and not one call per event
    expect(supergraph.maxInFlight()).toBeGreaterThan(1);
    expect(supergraph.calls.length).toBeLessThan(EVENTS.length);
  });

  it('pulled (the graphql-sse path): the same, as its client pulls', async () => {
    const supergraph = heldSupergraph();
    await using server = await startStatusWs({ execute: supergraph.execute, limits });
    const document = parse(REMOTE_QUERY);
    const operation = document.definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    )!;
    expect(operation.operation).toBe(OperationTypeNode.SUBSCRIPTION);
    const op = statusOperation({ document, operation, fragments: new Map() })!;
    const run = await server.status.run(op, { f: 'fn' }, TENANT, null, REMOTE_QUERY);
    if (!('events' in run)) throw new Error(`refused: ${JSON.stringify(run)}`);
    try {
      const first = run.events.next();
      await server.publish(EVENTS[0].instance, EVENTS[0].message);
      await until(() => supergraph.calls.length === 1, "the first event's fetch");
      await Promise.all(EVENTS.slice(1).map((e) => server.publish(e.instance, e.message)));
      await until(() => supergraph.calls.length > 1, 'the later events fetched', 2000).catch(() => undefined);
      supergraph.release();
      const got = [await first];
      while (got.length < EVENTS.length) {
        const r = await run.events.next();
        got.push(r);
        const data = r.value?.result.data as { instanceStatusChanged: { message: string } } | undefined;
        if (data?.instanceStatusChanged.message === 'e11') break;
      }
      expect(
        got.map((r) => {
          const e = (
            r.value!.result.data as {
              instanceStatusChanged: { message: string; instance: { id: string; cluster: { name: string } } };
            }
          ).instanceStatusChanged;
          return [e.message, e.instance.cluster.name];
        }),
      ).toEqual(EVENTS.map((e) => [e.message, `cluster of ${e.instance}`]));
      expect(supergraph.maxInFlight()).toBeGreaterThan(1);
      expect(supergraph.calls.length).toBeLessThan(EVENTS.length);
    } finally {
      await run.events.return!();
    }
  });

  it("a later event's fetch answering first waits for the earlier ones; a failed fetch in the middle is that event's error, in its place", async () => {
    const supergraph = heldSupergraph();
    await using server = await startStatusWs({ execute: supergraph.execute });
    using client = await server.open();
    await client.init();
    client.subscribe('1', 'fn', REMOTE_QUERY);
    await until(() => server.attached() === 1, 'the subscription attached');
    // one fetch per event, each held: they answer last first, the middle one failing
    for (const [k, instance] of ['i0', 'i1', 'i2'].entries()) {
      await server.publish(instance, `e${k}`);
      await until(() => supergraph.calls.length === k + 1, `the fetch of e${k}`);
    }
    const written = server.writes.length;
    supergraph.calls[2].answer();
    supergraph.calls[1].answer('the cluster registry is down');
    // their results are built and would be written within these turns (no I/O on the way): nothing may overtake e0
    for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
    expect(server.writes.length).toBe(written);
    supergraph.calls[0].answer();
    await until(() => client.nexts().length === 3, 'the three events');
    // the failed one as before events were fetched ahead: its non-null instance failed, so no data,
    // and the subgraph's message masked
    expect(client.nexts().map((e) => [e.message, e.cluster, e.errors])).toEqual([
      ['e0', 'cluster of i0', undefined],
      [undefined, undefined, ['Internal server error']],
      ['e2', 'cluster of i2', undefined],
    ]);
    // the subscription goes on after the failed fetch
    await server.publish('i1', 'e3');
    await until(() => supergraph.calls.length === 4, 'the fetch of e3');
    supergraph.calls[3].answer();
    await until(() => client.nexts().length === 4, 'e3');
    expect(client.nexts()[3]).toMatchObject({ message: 'e3', cluster: 'cluster of i1' });
  });
});
