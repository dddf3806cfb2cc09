/**
 * npm run bench:hardening: the abusive and malformed requests of the hardening issue, each
 * against the embedded default with a /health probe running beside it; prints one JSON line per
 * request (status, code, ms, worst probe latency). Run it on two checkouts to compare them (the
 * closing note's before/after table came from this script on the commit before and after).
 * Run with --expose-gc for the heap figure. Writes the `hardening` section of bench/results/latest.json, with its run.
 */
import { startSystem } from '@nvcf/local';
import { mergeSections } from './provenance/latest.js';
import { startRun } from './provenance/run.js';
const run = startRun();
const s = await startSystem({});
const gw = s.gateway as { url: string; metricsUrl?: string };
const metricsBase = gw.metricsUrl ?? gw.url;
const url = s.url;
const A = { authorization: 'Bearer dev-token-a' };
async function probe<T>(act: () => Promise<T>) {
  let running = true;
  let worst = 0;
  const loop = (async () => {
    while (running) {
      const t = performance.now();
      await fetch(`${gw.url}/health`)
        .then((r) => r.text())
        .catch(() => '');
      worst = Math.max(worst, performance.now() - t);
    }
  })();
  const t = performance.now();
  const r = await act();
  const ms = performance.now() - t;
  running = false;
  await loop;
  return { ...r, ms: Math.round(ms), healthWorstMs: Math.round(worst) };
}
const post = (body: string, headers: Record<string, string> = {}) =>
  probe(async () => {
    try {
      const r = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
        signal: AbortSignal.timeout(60000),
      });
      const text = await r.text();
      let code: unknown;
      try {
        const j = JSON.parse(text);
        code = j.errors?.[0]?.extensions?.code ?? (j.data ? 'data' : undefined);
      } catch {
        code = text.slice(0, 40);
      }
      return { status: r.status, code, bytes: text.length };
    } catch (e) {
      return { status: 0, code: String(e).slice(0, 60), bytes: 0 };
    }
  });
const bomb = (levels: number, root: string) => {
  let f = 'fragment F0 on Instance { id }\n';
  for (let i = 1; i < levels; i++) f += `fragment F${i} on Instance { ...F${i - 1} ...F${i - 1} }\n`;
  return `${root}\n${f}`;
};
const results: Record<string, unknown> = {};
const out: Record<string, unknown> = new Proxy(results, {
  set(t: any, k, v) {
    t[k] = v;
    console.log(JSON.stringify({ [k]: v }));
    return true;
  },
});
const sseBomb = bomb(22, `subscription { instanceStatusChanged(functionId: "x") { instance { ...F21 } } }`);
out['1 SSE fragment bomb, no token (' + sseBomb.length + ' B)'] = await post(JSON.stringify({ query: sseBomb }), {
  accept: 'text/event-stream',
});
out['1 SSE fragment cycle, token'] = await post(
  JSON.stringify({
    query:
      'subscription { instanceStatusChanged(functionId: "x") { instance { ...A } } } fragment A on Instance { ...B } fragment B on Instance { ...A }',
  }),
  { accept: 'text/event-stream', ...A },
);
(globalThis as { gc?: () => void }).gc?.();
const heap0 = process.memoryUsage().heapUsed;
for (let i = 0; i < 1; i++)
  out[`2 10 MB document, no token #${i}`] = await post(
    JSON.stringify({ query: `{ ${'a '.repeat(5_000_000)} b${i} }` }),
  );
(globalThis as { gc?: () => void }).gc?.();
out['2 heap retained after one 10 MB document (MB)'] = Math.round((process.memoryUsage().heapUsed - heap0) / 1e6);
out['3 fragment bomb query, 16 levels, token'] = await post(
  JSON.stringify({ query: bomb(16, `{ instance(id: "x") { ...F15 } }`) }),
  A,
);
out['3 1500 aliases of a deep selection, token'] = await post(
  JSON.stringify({
    query: `{ ${Array.from({ length: 1500 }, (_, i) => `a${i}: functions { id versions { id deployment { id } } }`).join(' ')} }`,
  }),
  A,
);
const ids = Array.from({ length: 1000 }, (_, i) => `i${i}`);
out['3 40 aliases x instances(ids: 1000)'] = await post(
  JSON.stringify({
    query: `query($ids: [ID!]!) { ${Array.from({ length: 40 }, (_, i) => `a${i}: instances(ids: $ids) { id state }`).join(' ')} }`,
    variables: { ids },
  }),
  A,
);
const gaugeOpen = async () => {
  const t = await (await fetch(`${metricsBase}/metrics`)).text();
  return t
    .split('\n')
    .filter((l) => l.startsWith('nvcf_status_subscriptions_open{') && l.includes('nca-a'))
    .map((l) => Number(l.split(' ').at(-1)))
    .reduce((a, b) => a + b, 0);
};
const open0 = await gaugeOpen();
await Promise.all(
  Array.from({ length: 500 }, async (_, i) => {
    const c = new AbortController();
    const r = await fetch(url, {
      method: 'POST',
      signal: c.signal,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...A },
      body: JSON.stringify({ query: `subscription { instanceStatusChanged(functionId: "leak-${i}") { cursor } }` }),
    });
    await r.body
      ?.getReader()
      .read()
      .catch(() => 0);
    c.abort();
  }),
);
await new Promise((r) => setTimeout(r, 1000));
out['4 open subscriptions 1 s after 500 SSE clients left'] = (await gaugeOpen()) - open0;
out['5 ID variable given an object'] = await post(
  JSON.stringify({ query: 'query($id: ID!) { function(id: $id) { id } }', variables: { id: { a: 1 } } }),
  A,
);
out['5 unknown input field in variables'] = await post(
  JSON.stringify({
    query: 'mutation($i: CreateFunctionInput!) { createFunction(input: $i) { id } }',
    variables: { i: { name: 'x', bogus: 1 } },
  }),
  A,
);
out['5 depth 150'] = await post(
  JSON.stringify({ query: `{ ${'functions { versions { function { '.repeat(50)}id${' } } }'.repeat(50)} }` }),
  A,
);
out['5 configuration nested 5000 levels'] = await post(
  `{"query":"mutation($c: JSON) { updateGpuSpecification(id: \\"x\\", input: {revision: {configuration: $c}}) { id } }","variables":{"c":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}`,
  A,
);
out['5 non-JSON body'] = await post('{"query": ', A);
const r6 = await fetch(url, {
  method: 'POST',
  headers: { 'content-type': 'application/json', ...A },
  body: JSON.stringify({ query: 'mutation { rollbackGpuSpecification(id: "nope") { id } }' }),
});
out['6 subgraph NOT_FOUND through the gateway'] = JSON.stringify((await r6.json()).errors?.[0]);
out['7 GET /metrics on the public port'] = (await fetch(`${gw.url}/metrics`)).status;
out['9 validation hint without a token'] = await (
  await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ functionz { id } }' }),
  })
)
  .text()
  .then((t) => t.includes('Did you mean'));

await s.dispose();
mergeSections({ hardening: { run: run.finish(), results } });
process.exit(0);
