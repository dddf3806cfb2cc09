import type { Client } from 'cassandra-driver';
import { CassandraUnavailable } from './errors.js';

export interface CoalescedWriterOptions {
  /** statements in one batch at most */
  maxStatements?: number;
  /**
   * Bound parameters' bytes in one batch at most (an estimate: strings' UTF-8 length, 8 per
   * number). Cassandra refuses a batch above `batch_size_fail_threshold` (50 KiB by default).
   */
  maxBytes?: number;
  /** batches sent and not yet answered; what arrives meanwhile waits and goes out in the next, bigger one */
  maxInFlight?: number;
}

export interface CoalescedWriter {
  /**
   * Resolves when the statement is stored. Statements written in one turn of the event loop go
   * out together as one unlogged batch, in no guaranteed order: only idempotent writes whose
   * outcome does not depend on their order belong here (`USING TIMESTAMP`: the newest wins).
   */
  write(query: string, params: unknown[]): Promise<void>;
}

export const COALESCE_DEFAULTS: Required<CoalescedWriterOptions> = {
  maxStatements: 64,
  maxBytes: 32 * 1024,
  maxInFlight: 8,
};

interface Pending {
  query: string;
  params: unknown[];
  bytes: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

function sizeOf(params: unknown[]): number {
  let n = 0;
  for (const p of params) n += typeof p === 'string' ? Buffer.byteLength(p) : 8;
  return n;
}

/**
 * Many single-row writes as a few unlogged batches. A request per row costs a coordinator its
 * per-request work once per row; a batch pays it once per batch, so a reader applying hundreds
 * of status events at once stores them at a fraction of the cost. Nothing waits for a batch to
 * fill: whatever was written in a turn leaves at the end of it, and batches grow only while
 * `maxInFlight` are outstanding.
 */
export function coalescedWriter(
  client: Pick<Client, 'execute' | 'batch'>,
  o: CoalescedWriterOptions = {},
): CoalescedWriter {
  const { maxStatements, maxBytes, maxInFlight } = { ...COALESCE_DEFAULTS, ...o };
  const queue: Pending[] = [];
  let inFlight = 0;
  let scheduled = false;

  const single = (p: Pending) => client.execute(p.query, p.params, { prepare: true }).then(() => p.resolve(), p.reject);

  const send = async (group: Pending[]) => {
    if (group.length === 1) return single(group[0]);
    try {
      await client.batch(
        group.map((p) => ({ query: p.query, params: p.params })),
        { prepare: true, logged: false },
      );
      for (const p of group) p.resolve();
    } catch (err) {
      // an outage fails every row alike; anything else may be one row's fault: the others must not share it
      if (err instanceof CassandraUnavailable) for (const p of group) p.reject(err);
      else await Promise.all(group.map(single));
    }
  };

  const take = (): Pending[] => {
    const group: Pending[] = [];
    let bytes = 0;
    while (queue.length && group.length < maxStatements) {
      const next = queue[0];
      if (group.length && bytes + next.bytes > maxBytes) break;
      bytes += next.bytes;
      group.push(queue.shift()!);
    }
    return group;
  };

  const pump = () => {
    scheduled = false;
    while (queue.length && inFlight < maxInFlight) {
      const group = take();
      inFlight++;
      void send(group).finally(() => {
        inFlight--;
        if (queue.length) schedule();
      });
    }
  };

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(pump);
  };

  return {
    write(query, params) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ query, params, bytes: sizeOf(params), resolve, reject });
        schedule();
      });
    },
  };
}
