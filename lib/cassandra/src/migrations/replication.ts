/**
 * Replication of the keyspaces the runner creates (and of the ledger keyspace). The default,
 * SimpleStrategy with one replica, fits the single local node. Production uses
 * NetworkTopologyStrategy with 3 replicas per data center, e.g.
 * `{ class: 'NetworkTopologyStrategy', dataCenters: { dc1: 3 } }`, so that LOCAL_QUORUM
 * reads and writes (the client default) survive one node down.
 * The runner only creates keyspaces: changing the replication of an existing one is an
 * `ALTER KEYSPACE` plus a repair, which an operator runs deliberately.
 */
export type Replication =
  | { class: 'SimpleStrategy'; replicationFactor: number }
  | { class: 'NetworkTopologyStrategy'; dataCenters: Record<string, number> };

export const LOCAL_REPLICATION: Replication = { class: 'SimpleStrategy', replicationFactor: 1 };

const rf = (n: number) => {
  if (!Number.isInteger(n) || n < 1 || n > 9)
    throw new TypeError(`replication factor must be an integer 1..9 (got ${n})`);
  return n;
};

/** The CQL map literal for `WITH replication = …`; validated because it is spliced into DDL. */
export function replicationCql(r: Replication): string {
  if (r.class === 'SimpleStrategy')
    return `{'class': 'SimpleStrategy', 'replication_factor': ${rf(r.replicationFactor)}}`;
  const dcs = Object.entries(r.dataCenters);
  if (dcs.length === 0) throw new TypeError('NetworkTopologyStrategy needs at least one data center');
  for (const [dc] of dcs) if (!/^[A-Za-z0-9_.-]+$/.test(dc)) throw new TypeError(`invalid data center name '${dc}'`);
  return `{'class': 'NetworkTopologyStrategy', ${dcs.map(([dc, n]) => `'${dc}': ${rf(n)}`).join(', ')}}`;
}

/** Parses `SimpleStrategy:1` or `NetworkTopologyStrategy:dc1=3,dc2=3` (the script's flag and env form). */
export function parseReplication(text: string): Replication {
  const [cls, rest = ''] = text.split(':', 2);
  if (cls === 'SimpleStrategy') return { class: cls, replicationFactor: rf(Number(rest)) };
  if (cls === 'NetworkTopologyStrategy') {
    const dataCenters: Record<string, number> = {};
    for (const part of rest.split(',').filter(Boolean)) {
      const [dc, n] = part.split('=', 2);
      if (!dc || n === undefined) throw new TypeError(`expected dc=N in '${part}'`);
      dataCenters[dc] = rf(Number(n));
    }
    const r: Replication = { class: cls, dataCenters };
    replicationCql(r);
    return r;
  }
  throw new TypeError(`replication must be SimpleStrategy:N or NetworkTopologyStrategy:dc=N,… (got '${text}')`);
}
