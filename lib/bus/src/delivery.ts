import { PoisonMessage, type Delivery } from './types.js';
import { createLogger } from '@nvcf/logging';

const log = createLogger('bus');

export type Outcome = 'ack' | 'term' | { nakMs: number };

/** Backoff for the n-th delivery (1-based), with ±20 % jitter so redeliveries do not align. */
export function backoffFor(count: number, backoffMs: number[]): number {
  const base = backoffMs[Math.min(count - 1, backoffMs.length - 1)] ?? 1000;
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/** One handler call turned into an outcome; shared by every bus implementation. */
export async function runDelivery<T>(
  msg: Delivery<T>,
  handler: (m: Delivery<T>) => Promise<void>,
  backoffMs: number[],
): Promise<Outcome> {
  try {
    await handler(msg);
    return 'ack';
  } catch (err) {
    if (err instanceof PoisonMessage) {
      log.error(`terminating ${msg.subject}#${msg.seq}: ${err.message}`);
      return 'term';
    }
    log.warn(`handler failed for ${msg.subject}#${msg.seq} (delivery ${msg.deliveryCount}); will redeliver`, err);
    return { nakMs: backoffFor(msg.deliveryCount, backoffMs) };
  }
}
