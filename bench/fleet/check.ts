// The fleet benchmark's independent check after every row: the status stream read back directly
// (every message the row published, the newest clock per instance) against what each reader's
// store holds. A row with a mismatch lost an event or applied an older one over a newer one.
import { connect } from '@nats-io/transport-node';
import { DeliverPolicy, jetstream } from '@nats-io/jetstream';
import { createCassandraClient, eachRow, types, type Row } from '@nvcf/cassandra';
import { Streams, type StatusEvent } from '@nvcf/contracts';
import type { PerReader } from './readers.js';

/**
 * nvcf's table of instance observations (columns instance_id, clock, doc): `instance_observations`
 * keyed by instance_id since the re-key (nvcf_api migration 002), `instance_states` keyed
 * (spec_id, instance_id) before it. The check scans the run's own keyspace whole, so either key works.
 */
export const NVCF_OBSERVATIONS = 'instance_observations';

export interface CheckOptions {
  natsUrl: string;
  contactPoints: string[];
  localDataCenter: string;
  /** the control plane's keyspace suffix */
  suffix: string;
  /** status stream sequences of the row: after `fromSeq`, up to `toSeq` */
  fromSeq: number;
  toSeq: number;
  /** the row's specifications: events of anything else on the stream are not the row's */
  specIds: string[];
}

export interface CheckResult {
  instances: number;
  /** instances whose newest event (clock and state) a store does not hold */
  mismatches: PerReader<number>;
}

/** The newest event (highest clock) of every instance of the row, read from the stream. */
export async function streamNewest(
  o: Pick<CheckOptions, 'natsUrl' | 'fromSeq' | 'toSeq' | 'specIds'>,
): Promise<Map<string, StatusEvent>> {
  const out = new Map<string, StatusEvent>();
  if (o.toSeq <= o.fromSeq) return out;
  const specs = new Set(o.specIds);
  const nc = await connect({ servers: o.natsUrl.split(','), name: 'fleet-bench-check' });
  try {
    const js = jetstream(nc);
    // an ordered consumer: no durable left behind, gaps and redeliveries handled by the client
    const consumer = await js.consumers.get(Streams.status.name, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: o.fromSeq + 1,
    });
    const iter = await consumer.consume({ max_messages: 1000 });
    for await (const m of iter) {
      const e = m.json<StatusEvent>();
      if (specs.has(e.gpuSpecificationId)) {
        const have = out.get(e.instanceId);
        if (!have || e.clock > have.clock) out.set(e.instanceId, e);
      }
      if (m.seq >= o.toSeq || m.info.pending === 0) break;
    }
    await iter.close();
  } finally {
    await nc.close();
  }
  return out;
}

// bigint columns come back as the driver's Long
const num = (v: unknown): number | null => (types.Long.isLong(v) ? v.toNumber() : typeof v === 'number' ? v : null);
const docState = (doc: unknown): string | null => {
  try {
    return (JSON.parse(String(doc)) as { state?: string }).state ?? null;
  } catch {
    return null;
  }
};

export async function checkStores(o: CheckOptions): Promise<CheckResult> {
  const newest = await streamNewest(o);
  const client = await createCassandraClient({ contactPoints: o.contactPoints, localDataCenter: o.localDataCenter });
  const stores: PerReader<{
    query: string;
    read: (r: Row) => { id: string; state: string | null; clock: number | null };
  }> = {
    nvcf: {
      query: `SELECT instance_id, clock, doc FROM nvcf_api${o.suffix}.${NVCF_OBSERVATIONS}`,
      read: (r) => ({ id: r.get('instance_id'), state: docState(r.get('doc')), clock: num(r.get('clock')) }),
    },
    icms: {
      query: `SELECT id, state, clock FROM icms_api${o.suffix}.instances`,
      read: (r) => ({ id: r.get('id'), state: r.get('state'), clock: num(r.get('clock')) }),
    },
    'nvca-status': {
      query: `SELECT instance_id, clock, doc FROM nvca_status${o.suffix}.instance_status`,
      read: (r) => ({ id: r.get('instance_id'), state: docState(r.get('doc')), clock: num(r.get('clock')) }),
    },
  };
  const mismatches: PerReader<number> = { nvcf: 0, icms: 0, 'nvca-status': 0 };
  try {
    for (const [reader, s] of Object.entries(stores) as [keyof typeof stores, (typeof stores)['nvcf']][]) {
      // the keyspace is the run's own: a whole scan reads exactly the row's instances, whatever the key
      const held = new Map<string, { state: string | null; clock: number | null }>();
      for await (const row of eachRow(client, s.query, [])) {
        const r = s.read(row);
        held.set(r.id, r);
      }
      const shown: string[] = [];
      for (const [id, want] of newest) {
        const got = held.get(id);
        if (got && got.clock === want.clock && got.state === want.state) continue;
        mismatches[reader]++;
        if (shown.length < 5)
          shown.push(`${id}: stream ${want.state}@${want.clock}, store ${got ? `${got.state}@${got.clock}` : 'none'}`);
      }
      if (shown.length)
        console.error(`fleet check: ${reader}: ${mismatches[reader]} mismatches, e.g. ${shown.join('; ')}`);
    }
  } finally {
    await client.shutdown();
  }
  return { instances: newest.size, mismatches };
}
