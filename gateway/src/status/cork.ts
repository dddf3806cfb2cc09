import type { Socket } from 'node:net';

const FRAMES_PER_WRITE = 32;
const pending = new WeakMap<Socket, { frames: number }>();

/**
 * One event reaches every subscription on a connection in the same turn of the event loop, and
 * each goes out as its own frame: one write syscall per frame. Corking the connection's TCP
 * socket batches them, but holding the whole burst back until the loop is idle delays the
 * first frames by the time the last ones take. So: one write per 32 frames, and whatever is
 * left when the loop goes idle. Measured with 1k subscriptions at 20 events/s (bench/): p99 193 ms
 * uncorked, 136 ms corked per whole burst, 50 ms corked per 32 frames.
 */
export function corkForBurst(raw: Socket | undefined) {
  if (!raw || raw.destroyed) return;
  let p = pending.get(raw);
  if (!p) {
    pending.set(raw, (p = { frames: 0 }));
    raw.cork();
    setImmediate(() => {
      pending.delete(raw);
      raw.uncork();
    });
  }
  if (++p.frames % FRAMES_PER_WRITE === 0) {
    raw.uncork();
    raw.cork();
  }
}
