import { fail } from '@nvcf/errors';
import { encodeCursor, decodeCursor, CursorError } from '@nvcf/auth';
import { Streams, subjects, type Bus, type BusMessage, type Consumer, type StatusEvent } from '@nvcf/messaging';
import type { StatusFilter } from './store/index.js';
import { matches } from './filter.js';
import { pushQueue } from './queue.js';

export interface StatusEventPayload {
  cursor: string;
  /** the instance as of this event; other subgraphs' fields are resolved by the gateway */
  instance: { id: string; state: StatusEvent['state']; revisionId: string | null; updatedAt: string };
  state: StatusEvent['state'];
  previousState: StatusEvent['previousState'];
  revisionId: string | null;
  at: string;
  message: string | null;
}

interface Sub {
  filter: StatusFilter;
  deliver(m: BusMessage<StatusEvent>): void;
}

/**
 * Reads the status stream once per process and fans out by tenant; a subscription that
 * resumes from a cursor reads its own ordered replay that continues live (no seam).
 */
export class StatusHub {
  private readonly byTenant = new Map<string, Set<Sub>>();
  private live?: Consumer;
  constructor(private readonly bus: Bus, private readonly secret: string, private readonly bufferLimit = 10_000) {}

  async start() {
    this.live = await this.bus.tail<StatusEvent>({ stream: Streams.status.name }, (m) => {
      for (const s of this.byTenant.get(m.data.ncaId) ?? []) s.deliver(m);
    });
  }

  async stop() {
    await this.live?.stop();
  }

  /** open subscriptions per tenant (resuming ones included) */
  readonly open = new Map<string, number>();
  private count(tenant: string, by: number) {
    const n = (this.open.get(tenant) ?? 0) + by;
    if (n) this.open.set(tenant, n); else this.open.delete(tenant);
  }

  metrics(): string {
    const lines = ['# HELP nvcf_status_subscriptions_open Open instanceStatusChanged subscriptions.', '# TYPE nvcf_status_subscriptions_open gauge'];
    for (const [tenant, n] of this.open) lines.push(`nvcf_status_subscriptions_open{tenant="${tenant}"} ${n}`);
    return `${lines.join('\n')}\n`;
  }

  async subscribe(tenant: string, filter: StatusFilter, after?: string | null): Promise<AsyncIterableIterator<{ instanceStatusChanged: StatusEventPayload }>> {
    let fromSeq: number | undefined;
    if (after) {
      let seq: number;
      try { seq = decodeCursor(this.secret, tenant, after); } catch (err) {
        if (err instanceof CursorError) throw fail('CURSOR_INVALID', err.message, { field: 'after' });
        throw err;
      }
      const info = await this.bus.streamInfo(Streams.status.name);
      if (seq + 1 < info.firstSeq) {
        throw fail('CURSOR_EXPIRED', `the cursor is older than the status stream's retention; resume from the oldest available position or start with a fresh subscription`, {
          field: 'after', oldestCursor: encodeCursor(this.secret, tenant, info.firstSeq - 1),
        });
      }
      fromSeq = seq + 1;
    }
    const lastClock = new Map<string, number>();
    let stop: () => void = () => {};
    const q = pushQueue<{ instanceStatusChanged: StatusEventPayload }>({
      limit: this.bufferLimit,
      onClose: () => stop(),
      onOverflow: () => fail('LIMIT_EXCEEDED', `the subscriber fell more than ${this.bufferLimit} events behind; resubscribe with the last cursor received`),
    });
    const deliver = (m: BusMessage<StatusEvent>) => {
      const e = m.data;
      if (e.ncaId !== tenant || !matches(filter, e)) return;
      // per-instance order: never deliver a transition older than one already delivered
      if ((lastClock.get(e.instanceId) ?? -1) >= e.clock) return;
      lastClock.set(e.instanceId, e.clock);
      q.push({ instanceStatusChanged: {
        cursor: encodeCursor(this.secret, tenant, m.seq), instance: { id: e.instanceId, state: e.state, revisionId: e.revisionId, updatedAt: e.at }, state: e.state,
        previousState: e.previousState, revisionId: e.revisionId, at: e.at, message: e.message ?? null,
      } });
    };
    this.count(tenant, 1);
    const release = () => this.count(tenant, -1);
    if (fromSeq !== undefined) {
      const tail = await this.bus.tail<StatusEvent>({ stream: Streams.status.name, filterSubject: subjects.statusOfTenant(tenant), fromSeq }, deliver);
      stop = () => { release(); void tail.stop(); };
    } else {
      const sub: Sub = { filter, deliver };
      const set = this.byTenant.get(tenant) ?? new Set();
      this.byTenant.set(tenant, set.add(sub));
      stop = () => { release(); set.delete(sub); if (!set.size) this.byTenant.delete(tenant); };
    }
    return q;
  }
}
