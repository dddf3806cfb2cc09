import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setImmediate as tick } from 'node:timers/promises';
import { createMemoryBus } from '@nvcf/bus';
import { allStreams } from '@nvcf/contracts';
import { staticTokens, DEV_TOKENS, TENANT_HEADER, verifyTenant } from '@nvcf/auth';
import { readSupergraph, withSubgraphUrls } from '@nvcf/schema';
import { metrics } from '@nvcf/telemetry';
import { startGateway } from '../src/server.js';

const SECRET = 'dedup-secret';
const QUERY = 'query One { function(id: "f1") { id name } }';
const TIMEOUT_MS = 1_500;

/** One nvcf subgraph that holds every call until released, answering with the tenant it was sent. */
async function heldSubgraph() {
  const calls: { tenant: string; requestId: string | undefined }[] = [];
  const held: (() => void)[] = [];
  /** calls whose fetch the gateway gave up on before they were answered */
  let abandoned = 0;
  let released = false;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const tenant = verifyTenant(SECRET, req.headers[TENANT_HEADER] as string, { audience: 'nvcf' });
    const requestId = req.headers['x-request-id'] as string | undefined;
    req.resume().on('end', () => {
      calls.push({ tenant, requestId });
      const answer = () =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ data: { function: { __typename: 'Function', id: 'f1', name: `of ${tenant}` } } }));
      res.once('close', () => {
        if (!res.writableFinished) abandoned++;
      });
      if (released) answer();
      else held.push(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    calls,
    abandoned: () => abandoned,
    url: `${base}/graphql`,
    release() {
      released = true;
      for (const answer of held.splice(0)) answer();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Subgraph executions the gateway has started and not finished (its own gauge). */
const inFlight = () => {
  const family = metrics()
    .snapshot()
    .find((f) => f.name === 'nvcf_gateway_subgraph_requests_in_flight');
  if (family?.type !== 'gauge') return 0;
  return family.points.filter((p) => p.labels.subgraph === 'nvcf').reduce((n, p) => n + p.value, 0);
};

async function until(what: string, check: () => boolean | Promise<boolean>) {
  for (let i = 0; !(await check()); i++) {
    if (i > 2000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  // what the last event started runs to its next I/O before anything is asserted
  await tick();
}

describe('identical subgraph calls made at the same time', () => {
  let subgraph: Awaited<ReturnType<typeof heldSubgraph>>;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  const ask = (token: string, init: { requestId?: string; signal?: AbortSignal } = {}) =>
    fetch(gateway.graphqlUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        ...(init.requestId ? { 'x-request-id': init.requestId } : {}),
      },
      body: JSON.stringify({ query: QUERY }),
      signal: init.signal,
    });
  /** Requests the gateway has counted as ended (answered, or left by their caller). */
  const ended = async () =>
    Number(
      (await (await fetch(`${gateway.metricsUrl}/metrics`)).text()).match(
        /^nvcf_gateway_requests_total\{handler="query:One"\} (\d+)$/m,
      )?.[1] ?? 0,
    );
  const nameIn = async (r: Response) =>
    ((await r.json()) as { data?: { function?: { name?: string } }; errors?: unknown }).data?.function?.name;

  beforeEach(async () => {
    subgraph = await heldSubgraph();
    const bus = createMemoryBus();
    await bus.ensureStreams(allStreams);
    const unused = 'http://unused.invalid/graphql';
    gateway = await startGateway({
      supergraph: withSubgraphUrls(readSupergraph(), {
        nvcf: subgraph.url,
        icms: unused,
        'nvca-status': unused,
        nvct: unused,
      }),
      subgraphs: { nvcf: subgraph.url, icms: unused, 'nvca-status': unused, nvct: unused },
      verify: staticTokens(DEV_TOKENS),
      secret: SECRET,
      cursorSecret: 'dedup-cursor',
      bus,
      port: 0,
      host: '127.0.0.1',
      limits: { requestTimeoutMs: TIMEOUT_MS },
    });
  });
  afterEach(async () => {
    subgraph.release();
    await gateway.dispose();
    await subgraph.close();
  });

  it('share one fetch within a tenant, which carries the request id of the request that made it', async () => {
    const first = ask('dev-token-a', { requestId: 'req-first' });
    await until('the first call to reach the subgraph', () => subgraph.calls.length === 1);
    const others = [1, 2, 3, 4].map((i) => ask('dev-token-a', { requestId: `req-${i}` }));
    await until('all five executions to be waiting', () => inFlight() === 5);
    expect(subgraph.calls).toEqual([{ tenant: 'nca-a', requestId: 'req-first' }]);
    subgraph.release();
    const names = await Promise.all([first, ...others].map(async (r) => nameIn(await r)));
    expect(names).toEqual(Array(5).fill('of nca-a'));
    expect(subgraph.calls).toHaveLength(1);
  });

  it('are never shared between tenants', async () => {
    const a = ask('dev-token-a');
    const b = ask('dev-token-b');
    await until('both executions to be waiting', () => inFlight() === 2);
    await until('both calls to reach the subgraph', () => subgraph.calls.length === 2);
    expect(subgraph.calls.map((c) => c.tenant).sort()).toEqual(['nca-a', 'nca-b']);
    subgraph.release();
    expect(await nameIn(await a)).toBe('of nca-a');
    expect(await nameIn(await b)).toBe('of nca-b');
  });

  it('a caller that goes away does not fail the callers sharing its fetch', async () => {
    const leaving = new AbortController();
    const first = ask('dev-token-a', { signal: leaving.signal }).catch((err: Error) => err);
    await until('the first call to reach the subgraph', () => subgraph.calls.length === 1);
    const staying = ask('dev-token-a');
    await until('both executions to be waiting', () => inFlight() === 2);
    leaving.abort();
    expect(((await first) as Error).name).toBe('AbortError');
    // the gateway has seen the first caller leave (and stopped its work) before the subgraph answers
    await until('the gateway to count the request that left', async () => (await ended()) === 1);
    subgraph.release();
    expect(await nameIn(await staying)).toBe('of nca-a');
  });

  it('a subgraph that never answers holds a shared fetch no longer than the request timeout', async () => {
    const first = await ask('dev-token-a');
    expect(first.status).toBe(504);
    expect(((await first.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe(
      'TIMEOUT',
    );
    await until('the gateway to give up the unanswered fetch', () => subgraph.abandoned() === 1);
    subgraph.release();
    // a later identical call is a fetch of its own, not a wait on the abandoned one
    expect(await nameIn(await ask('dev-token-a'))).toBe('of nca-a');
    expect(subgraph.calls).toHaveLength(2);
  });
});
