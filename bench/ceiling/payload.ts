// One status event as the ceiling sends it: the JSON ours sends for the benchmark's selection
// (`cursor state at message instance { id cluster { id } }`), in the same order and of the same
// size, so the two paths put the same bytes on the wire per delivery.
import type { StatusEvent } from '@nvcf/contracts';

/**
 * Ours' cursor is `v1.<seq in base 36>.<22-character MAC>`, signed per event. The ceiling signs
 * nothing, so its cursor keeps that shape with a fixed MAC: the same length, none of the work.
 */
const UNSIGNED_MAC = 'u'.repeat(22);
export const cursorOf = (seq: number) => `v1.${seq.toString(36)}.${UNSIGNED_MAC}`;

/** The event's `payload` bytes, built once per event and shared by every subscription. */
export function payloadOf(e: StatusEvent, seq: number): Buffer {
  return Buffer.from(
    JSON.stringify({
      data: {
        instanceStatusChanged: {
          cursor: cursorOf(seq),
          state: e.state,
          at: e.at,
          message: e.message ?? null,
          instance: { id: e.instanceId, cluster: { id: e.clusterId } },
        },
      },
    }),
  );
}
