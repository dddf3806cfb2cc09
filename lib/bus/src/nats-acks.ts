import type { JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { RecentSet } from '@nvcf/collections';

const REMEMBERED = 10_000;

/**
 * The stream sequences one consumer handled successfully and acked, the newest REMEMBERED of them.
 *
 * Acks are sent without waiting for the server's confirmation: a confirmed ack is a request per
 * message (a reply subscription, an error object made up front for its stack, a timer), which at
 * fleet rates cost the status readers more CPU than their own work. An ack that never reaches the
 * server (a NATS restart drops those in flight) costs a redelivery instead, after ack wait or when
 * the server comes back and redelivers every pending message at once; a redelivery of a sequence
 * remembered here is acked again instead of handled twice, and one forgotten is handled again,
 * which every handler tolerates (at-least-once).
 */
export class AckTracker {
  // bounded: the oldest sequences are the ones least likely to come back
  private readonly acked = new RecentSet<number>(REMEMBERED);

  constructor(private readonly nc: NatsConnection) {}

  /** True when `seq` was handled successfully by this consumer (recently) and acked. */
  handled(seq: number): boolean {
    return this.acked.has(seq);
  }

  /** Marks `seq` done, then acks it; rejects only when the ack could not be written at all. */
  ack(m: JsMsg): Promise<void> {
    const seq = m.info.streamSequence;
    this.acked.add(seq);
    if (this.nc.isClosed()) return Promise.reject(new Error(`connection closed before ${m.subject}#${seq} was acked`));
    try {
      m.ack();
      return Promise.resolve();
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }
}
