import { Client, policies, types } from 'cassandra-driver';
import { CassandraUnavailable, unavailableFrom } from './errors.js';

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
    keyspace: opts.keyspace,
    queryOptions: {
      consistency: opts.consistency ?? types.consistencies.localQuorum,
      serialConsistency: types.consistencies.localSerial,
    },
    socketOptions: opts.requestTimeoutMs ? { readTimeout: opts.requestTimeoutMs } : undefined,
    // the driver's default backs off to 10 minutes: a node back after a 30 s outage would sit
    // unused for as long again, every request failing UNAVAILABLE meanwhile
    policies: { reconnection: new policies.reconnection.ExponentialReconnectionPolicy(200, opts.reconnectMaxMs ?? 2000, false) },
  });
  try {
    await client.connect();
  } catch (err) {
    await client.shutdown().catch(() => {});
    const where = opts.contactPoints.join(',');
    throw new CassandraUnavailable(`cannot connect to Cassandra at ${where} (dc ${opts.localDataCenter})`, { cause: err });
  }
  let closing: Promise<void> | undefined;
  const dispose = () => (closing ??= client.shutdown());
  // every statement of every store goes through here: a down or overloaded node becomes UNAVAILABLE
  const execute = client.execute.bind(client) as (...args: unknown[]) => unknown;
  const translated = ((...args: unknown[]) => {
    if (args.some((a) => typeof a === 'function')) return execute(...args); // callback style: the driver's own
    return (execute(...args) as Promise<types.ResultSet>).catch((err: unknown) => { throw unavailableFrom(err) ?? err; });
  }) as Client['execute'];
  return Object.assign(client, { execute: translated, dispose, [Symbol.asyncDispose]: dispose });
}

const IDENT = /^[a-z][a-z0-9_]{0,47}$/;

/** Keyspace names go into CQL text (identifiers cannot be bound), so only plain ones pass. */
export function keyspaceName(name: string): string {
  if (!IDENT.test(name)) throw new TypeError(`invalid keyspace name '${name}' (lower case letters, digits, _)`);
  return name;
}
