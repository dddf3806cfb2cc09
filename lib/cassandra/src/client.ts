import { Client, policies, types, type Host } from 'cassandra-driver';
import { CassandraUnavailable, unavailableFrom } from './errors.js';
import { SpanKind, counter, histogram, inSpan, tracingOn } from '@nvcf/telemetry';

const querySeconds = histogram(
  'nvcf_store_query_duration_seconds',
  'Cassandra statement latency, by operation, table and outcome.',
  ['operation', 'table', 'outcome'],
);
const lwtTotal = counter(
  'nvcf_store_lwt_total',
  'Lightweight transactions (conditional INSERT, UPDATE or DELETE: a Paxos round each) executed, by table.',
  ['table'],
);

export interface CassandraClientOptions {
  /** host or host:port */
  contactPoints: string[];
  localDataCenter: string;
  keyspace?: string;
  /**
   * Default LOCAL_QUORUM: with replication factor 3 a read then sees every acknowledged write,
   * which the compare-and-set paths (read the pair, then CAS on it) depend on.
   */
  consistency?: types.consistencies;
  /** per-request timeout; schema changes in migrations want more than the driver's 12 s */
  requestTimeoutMs?: number;
  /** longest wait between attempts to reach a node that went down (default 2 s) */
  reconnectMaxMs?: number;
}

export type CassandraClient = Client & AsyncDisposable & { dispose(): Promise<void> };

/** A connected driver Client that can be disposed (idempotently) with `await using`. */
export async function createCassandraClient(opts: CassandraClientOptions): Promise<CassandraClient> {
  const client = new Client({
    contactPoints: opts.contactPoints,
    localDataCenter: opts.localDataCenter,
    // the driver reaches the nodes it discovers on protocolOptions.port, not on a contact point's
    // port: on a ring that listens elsewhere than 9042 every other node would look down
    protocolOptions: { port: nativePort(opts.contactPoints) },
    keyspace: opts.keyspace,
    queryOptions: {
      consistency: opts.consistency ?? types.consistencies.localQuorum,
      // SERIAL, not LOCAL_SERIAL: a compare-and-set (revisions, newest-by-clock upserts) must be
      // linearizable across every replica, including those of another data center; in one DC both cost the same
      serialConsistency: types.consistencies.serial,
    },
    socketOptions: opts.requestTimeoutMs ? { readTimeout: opts.requestTimeoutMs } : undefined,
    // the driver's default backs off to 10 minutes: a node back after a 30 s outage would sit
    // unused for as long again, every request failing UNAVAILABLE meanwhile
    policies: {
      reconnection: new policies.reconnection.ExponentialReconnectionPolicy(200, opts.reconnectMaxMs ?? 2000, false),
    },
  });
  try {
    await client.connect();
  } catch (err) {
    await client.shutdown().catch(() => {});
    const where = opts.contactPoints.join(',');
    throw new CassandraUnavailable(`cannot connect to Cassandra at ${where} (dc ${opts.localDataCenter})`, {
      cause: err,
    });
  }
  // cassandra-driver 4.10: once every node was down, the control connection re-resolves its contact
  // points and initialises again, putting a new Host in place of each old one without shutting the
  // old one down; that pool then reconnects (and its timers run) after the client's shutdown, for
  // ever. A host that leaves the map is shut down here (a second shutdown of a removed one is a no-op).
  client.hosts.on('remove', (host: Host & { shutdown(waitForPending: boolean): Promise<void> }) => {
    if (client.hosts.values().includes(host)) return; // put back in place of itself: still in use
    host.shutdown(false).catch(() => {});
  });
  let closing: Promise<void> | undefined;
  const dispose = () => (closing ??= client.shutdown());
  // every statement of every store goes through here: a down or overloaded node becomes UNAVAILABLE
  const execute = client.execute.bind(client) as (...args: unknown[]) => unknown;
  const batch = client.batch.bind(client) as (...args: unknown[]) => unknown;
  const translated = ((...args: unknown[]) => {
    if (args.some((a) => typeof a === 'function')) return execute(...args); // callback style: the driver's own
    const { operation, table, conditional } = describeCql(String(args[0]), opts.keyspace);
    if (conditional) lwtTotal.inc({ table });
    return observed(operation, table, () =>
      (execute(...args) as Promise<types.ResultSet>).catch((err: unknown) => {
        throw unavailableFrom(err) ?? err;
      }),
    );
  }) as Client['execute'];
  const batched = ((...args: unknown[]) => {
    if (args.some((a) => typeof a === 'function')) return batch(...args);
    const queries = (args[0] as (string | { query: string })[]) ?? [];
    const first = queries[0];
    const { table } = describeCql(typeof first === 'string' ? first : (first?.query ?? ''), opts.keyspace);
    return observed('BATCH', table, () =>
      (batch(...args) as Promise<types.ResultSet>).catch((err: unknown) => {
        throw unavailableFrom(err) ?? err;
      }),
    );
  }) as Client['batch'];
  return Object.assign(client, { execute: translated, batch: batched, dispose, [Symbol.asyncDispose]: dispose });
}

/**
 * One statement timed (nvcf_store_query_duration_seconds) and, with tracing on, a CLIENT span
 * named `{operation} {keyspace.table}`; the statement text and its values are never recorded.
 */
async function observed<T>(operation: string, table: string, run: () => Promise<T>): Promise<T> {
  const done = querySeconds.time({ operation, table });
  try {
    const out = tracingOn()
      ? await inSpan(
          `${operation} ${table}`,
          {
            kind: SpanKind.CLIENT,
            attributes: {
              'db.system.name': 'cassandra',
              'db.operation.name': operation,
              'db.collection.name': table.split('.').at(-1)!,
              ...(table.includes('.') ? { 'db.namespace': table.split('.')[0] } : {}),
            },
          },
          run,
        )
      : await run();
    done({ outcome: 'ok' });
    return out;
  } catch (err) {
    done({ outcome: 'error' });
    throw err;
  }
}

/** The port every contact point names (they share it on a ring), else the driver's 9042. */
export function nativePort(contactPoints: string[]): number {
  const ports = new Set(contactPoints.map((c) => /:(\d+)$/.exec(c.trim())?.[1] ?? '9042'));
  return ports.size === 1 ? Number([...ports][0]) : 9042;
}

export interface CqlShape {
  operation: string;
  table: string;
  /** a lightweight transaction: a write with an IF condition (Paxos) */
  conditional: boolean;
}

// every statement passes here on the hot path, and stores use a few fixed texts
const shapes = new Map<string, CqlShape>();

/** The operation (SELECT, INSERT, UPDATE, DELETE…), the table a CQL statement names, and whether it is an LWT. */
function describeCql(cql: string, keyspace?: string): CqlShape {
  const key = `${keyspace ?? ''}\0${cql}`;
  let shape = shapes.get(key);
  if (shape) return shape;
  const text = cql.trimStart();
  const operation = (/^(\w+)/.exec(text)?.[1] ?? 'CQL').toUpperCase();
  const m = /\b(?:FROM|INTO|UPDATE|TABLE(?:\s+IF\s+(?:NOT\s+)?EXISTS)?)\s+("?[\w.]+"?)/i.exec(text);
  const name = m?.[1]?.replace(/"/g, '') ?? 'unknown';
  const conditional = ['INSERT', 'UPDATE', 'DELETE'].includes(operation) && /\sIF\s/i.test(text);
  shape = { operation, table: name.includes('.') || !keyspace ? name : `${keyspace}.${name}`, conditional };
  if (shapes.size < 1024) shapes.set(key, shape);
  return shape;
}

const IDENT = /^[a-z][a-z0-9_]{0,47}$/;

/** Keyspace names go into CQL text (identifiers cannot be bound), so only plain ones pass. */
export function keyspaceName(name: string): string {
  if (!IDENT.test(name)) throw new TypeError(`invalid keyspace name '${name}' (lower case letters, digits, _)`);
  return name;
}
