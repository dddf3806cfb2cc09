import type { JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { sleep } from './nats-loop.js';

const ACK_TIMEOUT_MS = 2000;
const RETRIES = 6;
const REMEMBERED = 10_000;

/**
 * Acks the server has not confirmed yet, by stream sequence, for one consumer.
 *
 * A NATS restart drops acks in flight and then redelivers every pending message at once. A
 * message whose handler already succeeded here is then acked again instead of handled twice.
 */
export class AckTracker {
  private readonly unconfirmed = new Set<number>();
  private readonly closed = new AbortController();

  constructor(private readonly nc: NatsConnection) {
    // retries wait in timers; a closed connection ends them so nothing outlives the bus
    void nc.closed().then(() => this.closed.abort());
  }

  /** True when `seq` was handled successfully by this consumer but the ack never got through. */
  handled(seq: number): boolean {
    return this.unconfirmed.has(seq);
  }

  /** Marks `seq` done synchronously, then acks and waits for the server's confirmation. */
  ack(m: JsMsg): Promise<void> {
    const seq = m.info.streamSequence;
    this.unconfirmed.add(seq);
    // bounded: a server that never confirms must not grow this without end
    if (this.unconfirmed.size > REMEMBERED) this.unconfirmed.delete(this.unconfirmed.values().next().value as number);
    return this.confirm(m, seq);
  }

  private async confirm(m: JsMsg, seq: number): Promise<void> {
    try {
      await m.ackAck({ timeout: ACK_TIMEOUT_MS }); // false only when this delivery was already acked
      this.unconfirmed.delete(seq);
      return;
    } catch (err) {
      // ackAck sends once per delivery; a retry is the same +ACK on the delivery's reply subject,
      // which the implementation has but the JsMsg type does not declare
      const reply = (m as unknown as { reply?: unknown }).reply;
      if (typeof reply !== 'string' || !reply) throw err;
      // stops early when a redelivery of the same message was acked meanwhile
      for (let attempt = 1; attempt <= RETRIES && this.unconfirmed.has(seq) && !this.nc.isClosed(); attempt++) {
        await sleep(100 * 2 ** attempt, this.closed.signal);
        try {
          await this.nc.request(reply, '+ACK', { timeout: ACK_TIMEOUT_MS });
          this.unconfirmed.delete(seq);
          return;
        } catch {
          // not back yet; the loop bounds the wait
        }
      }
      if (this.unconfirmed.has(seq)) throw err;
    }
  }
}
