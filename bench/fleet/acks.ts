// When each status reader had acknowledged a stream sequence, read from NATS rather than from the
// control plane: its consumer's ack floor (every message up to it acknowledged). Polling the server
// costs the control plane nothing, where scraping its /metrics as often cost it a share of the very
// burst being timed; and the floor is exact, where a count of acks only approximates "everything".
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { Streams } from '@nvcf/contracts';
import { READERS, type PerReader } from './readers.js';

/** Polls every `everyMs` until every durable's ack floor is at `seq` or past it; the time each got there (null: not by the timeout). */
export async function ackFloorsReached(
  natsUrl: string,
  durables: PerReader<string>,
  seq: number,
  o: { timeoutMs: number; everyMs?: number },
): Promise<PerReader<number | null>> {
  const nc = await connect({ servers: natsUrl.split(','), name: 'fleet-bench-ack-floors' });
  try {
    const jsm = await jetstreamManager(nc);
    const reached: PerReader<number | null> = { nvcf: null, icms: null, 'nvca-status': null };
    const end = Date.now() + o.timeoutMs;
    while (Date.now() < end) {
      const waiting = READERS.filter((r) => reached[r] === null);
      if (!waiting.length) break;
      await Promise.all(
        waiting.map(async (r) => {
          const info = await jsm.consumers.info(Streams.status.name, durables[r]);
          if (info.ack_floor.stream_seq >= seq) reached[r] = Date.now();
        }),
      );
      await new Promise((r) => setTimeout(r, o.everyMs ?? 20));
    }
    return reached;
  } finally {
    await nc.close();
  }
}
