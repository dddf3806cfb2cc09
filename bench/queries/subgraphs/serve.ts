import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse, execute, validate, type DocumentNode } from 'graphql';
import { benchSchema, benchSubgraphs, type BenchSubgraph } from './schemas.js';

export interface BenchSubgraphs extends AsyncDisposable {
  base: string;
  dispose(): Promise<void>;
}

/** The four benchmark subgraphs on one port: `${base}/accounts`, `/inventory`, `/products`, `/reviews`. */
export async function startBenchSubgraphs(port = 0): Promise<BenchSubgraphs> {
  const schemas = new Map(benchSubgraphs.map((n) => [n, benchSchema(n)]));
  const documents = new Map<string, DocumentNode>();
  // The subgraphs must never be what limits a gateway: every gateway sends the same few bodies
  // again and again, so each distinct body is executed once and its answer replayed.
  const answers = new Map<string, string>();

  async function answer(name: BenchSubgraph, body: string): Promise<string> {
    const key = `${name}\n${body}`;
    const known = answers.get(key);
    if (known) return known;
    const { query, variables, operationName } = JSON.parse(body);
    const schema = schemas.get(name)!;
    let document = documents.get(query);
    if (!document) {
      document = parse(query);
      const errors = validate(schema, document);
      if (errors.length) return JSON.stringify({ errors });
      documents.set(query, document);
    }
    const out = JSON.stringify(await execute({ schema, document, variableValues: variables, operationName }));
    if (answers.size < 10_000) answers.set(key, out);
    return out;
  }

  // subgraph calls served: what a gateway's in-flight deduplication and batching save shows here
  let calls = 0;
  const server = createServer((req, res) => {
    const name = (req.url ?? '').split('?')[0].slice(1) as BenchSubgraph;
    if (req.method === 'GET' && name === ('_calls' as BenchSubgraph)) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ calls }));
      return;
    }
    if (!schemas.has(name) || req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    calls++;
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      answer(name, Buffer.concat(chunks).toString()).then(
        (out) => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) }).end(out);
        },
        (err) =>
          res
            .writeHead(400, { 'content-type': 'application/json' })
            .end(JSON.stringify({ errors: [{ message: String(err) }] })),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const dispose = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dispose,
    [Symbol.asyncDispose]: dispose,
  };
}
