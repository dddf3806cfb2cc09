import { errorText, isOutage } from '@nvcf/errors';
import { PoisonMessage, type Delivery } from './types.js';
import type { OutageGate } from './outage.js';
import { createLogger } from '@nvcf/logging';

const log = createLogger('bus');

/**
 * What becomes of a delivery: acked; redelivered after `nakMs`; or given up on (`dead`: the
 * message is copied to the dead-letter stream with `reason`, then acked).
 */
export type Outcome = 'ack' | { nakMs: number } | { dead: string };

/** Backoff for the n-th delivery (1-based), with ±20 % jitter so redeliveries do not align. */
function backoffFor(count: number, backoffMs: number[]): number {
  const base = backoffMs[Math.min(count - 1, backoffMs.length - 1)] ?? 1000;
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

export interface DeliveryPolicy {
  /** deliveries that failed for the message's own reason, after which it is given up on */
  maxDeliver: number;
  backoffMs: number[];
  gate: OutageGate;
}

/**
 * One delivery turned into an outcome; shared by every bus implementation. A failure on an
 * unavailable dependency (isOutage) is retried here, through the consumer's gate, for as long as
 * the outage lasts: the message stays in hand and its delivery count does not grow. Any other
 * failure is the message's own: redelivered with backoff, and dead-lettered on its
 * `maxDeliver`-th delivery (at once for a PoisonMessage).
 */
export async function runDelivery<T>(
  msg: Delivery<T>,
  handler: (m: Delivery<T>) => Promise<void>,
  policy: DeliveryPolicy,
): Promise<Outcome> {
  const { gate } = policy;
  for (;;) {
    const pass = await gate.pass();
    // stopping: another consumer of the durable takes it from here
    if (pass === 'stopped') return { nakMs: 0 };
    try {
      await handler(msg);
      gate.succeeded();
      return 'ack';
    } catch (err) {
      if (err instanceof PoisonMessage) {
        gate.inconclusive(pass);
        return { dead: errorText(err) };
      }
      if (isOutage(err)) {
        gate.failed(err, pass);
        continue;
      }
      gate.inconclusive(pass);
      if (msg.deliveryCount >= policy.maxDeliver)
        return { dead: `failed ${msg.deliveryCount} times; last: ${errorText(err)}` };
      log.warn(`handler failed for ${msg.subject}#${msg.seq} (delivery ${msg.deliveryCount}); will redeliver`, err);
      return { nakMs: backoffFor(msg.deliveryCount, policy.backoffMs) };
    }
  }
}
