import { fail } from '@nvcf/errors';
import { encodeCursor, decodeCursor, CursorError } from '@nvcf/auth';
import { type Bus, type BusMessage, type Consumer } from '@nvcf/bus';
import type { StatusEvent } from '@nvcf/contracts';
import { Attr, ROOT_CONTEXT, SpanKind, linkFrom, startSpan, tracingOn } from '@nvcf/telemetry';
import { SubscriberFeed } from './feed.js';
import { StreamMetrics } from './metrics.js';
import type { StreamDefinition } from './definitions.js';
import { defaultLimits, type Feed, type StatusFilter, type StreamEvent, type StreamLimits } from './types.js';

/** dispatched events kept for catch-ups that end short of the shared read */
const RECENT = 8192;
const key = (tenant: string, field: string, value: string) => `${tenant}\u0000${field}\u0000${value}`;
/** the index key of a tenant's feeds that set no filter (streams whose definition allows them) */
const TENANT_WIDE = '';

export interface StatusStreamOptions<E extends StreamEvent = StatusEvent, F = StatusFilter> {
  bus: Bus;
  /** signs cursors; every replica must share it */
  cursorSecret: string;
  /** which stream, and how its filters select (instanceStatus, taskStatus) */
  definition: StreamDefinition<E, F>;
  limits?: Partial<StreamLimits>;
  metrics?: StreamMetrics;
}

/**
 * A status stream as subscribers see it. One live read of the JetStream stream per process,
 * fanned out through an index on the most selective filter of each subscription. Resume and
 * snapshot read their own ordered catch-up, then join the shared read without a gap or a
 * duplicate at the seam. The definition says which stream and how filters select its events.
 */
export class StatusStream<E extends StreamEvent = StatusEvent, F = StatusFilter> {
  private readonly index = new Map<string, Set<SubscriberFeed<E, F>>>();
  private readonly limits: StreamLimits;
  readonly metrics: StreamMetrics;
  readonly definition: StreamDefinition<E, F>;
  private live?: Consumer;
  private readonly feeds = new Set<SubscriberFeed<E, F>>();
  /** subscriptions past the per-tenant check that are still awaiting their resume point */
  private readonly reserved = new Map<string, number>();
  /**
   * What the shared read dispatched last, newest last: a catch-up that reads a replica behind
   * this one's position (a NATS node just back) says it is caught up short of events this read
   * already gave every other subscriber; the gap is taken from here.
   */
  private readonly recent: BusMessage<E>[] = [];
  private recentAt = 0;
  /** the sequence the shared read dispatched last */
  private position = 0;
  private readonly spanName: string;

  constructor(private readonly opts: StatusStreamOptions<E, F>) {
    this.definition = opts.definition;
    this.limits = { ...defaultLimits, ...opts.limits };
    this.metrics = opts.metrics ?? new StreamMetrics(opts.definition.metricsPrefix, opts.definition.field);
    this.spanName = `deliver ${opts.definition.stream}`;
  }

  async start() {
    this.live = await this.opts.bus.tail<E>({ stream: this.definition.stream }, (m) => this.dispatch(m));
  }

  /** Ends every feed (clients resume elsewhere from their cursor) and the shared read. */
  async stop(reason?: Error) {
    for (const f of [...this.feeds]) f.end(reason);
    await this.live?.stop();
  }

  private remember(m: BusMessage<E>) {
    this.position = m.seq;
    if (this.recent.length < RECENT) this.recent.push(m);
    else this.recent[this.recentAt++ % RECENT] = m;
  }

  /** the dispatched messages after `seq` up to `upTo`, in stream order */
  private recentBetween(seq: number, upTo: number): BusMessage<E>[] {
    const n = this.recent.length;
    const start = n < RECENT ? 0 : this.recentAt % RECENT;
    const at = (i: number) => this.recent[(start + i) % n];
    // dispatched in stream order: the first one after `seq` by binary search, not a scan per resume
    let lo = 0,
      hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (at(mid).seq <= seq) lo = mid + 1;
      else hi = mid;
    }
    const out: BusMessage<E>[] = [];
    for (let i = lo; i < n && at(i).seq <= upTo; i++) out.push(at(i));
    return out;
  }

  private dispatch(m: BusMessage<E>) {
    this.remember(m);
    const e = m.data;
    const def = this.definition;
    let offered = 0;
    for (const field of def.indexed) {
      for (const f of this.index.get(key(e.ncaId, field, e[field] as string)) ?? []) {
        f.offer(m);
        offered++;
      }
    }
    if (def.tenantWide)
      for (const f of this.index.get(key(e.ncaId, TENANT_WIDE, '')) ?? []) {
        f.offer(m);
        offered++;
      }
    // one span per event handed to subscribers (never one per subscriber), linked to the event's
    // trace: the delivery is its own trace, started by a reader rather than by the publisher
    if (offered && tracingOn()) {
      const link = linkFrom(m.headers);
      startSpan(this.spanName, {
        parent: ROOT_CONTEXT,
        kind: SpanKind.CONSUMER,
        links: link ? [link] : [],
        attributes: {
          'messaging.system': 'nats',
          'messaging.operation.type': 'process',
          'messaging.operation.name': 'deliver',
          'messaging.destination.template': def.stream,
          'nvcf.messaging.sequence': m.seq,
          [Attr.tenant]: e.ncaId,
          [Attr.subscribers]: offered,
        },
      })?.span.end();
    }
  }

  async open(
    tenant: string,
    filter: F,
    opts: { after?: string | null; snapshot?: boolean | null } = {},
  ): Promise<Feed<E>> {
    const def = this.definition;
    const field = def.indexed.find((f) => filter[f]);
    if (!field && !def.tenantWide) {
      const why = def.filterRequired ?? { message: `${def.field} needs a filter`, field: def.indexed[0] };
      throw fail('BAD_USER_INPUT', why.message, { field: why.field });
    }
    if (opts.after && opts.snapshot)
      throw fail('BAD_USER_INPUT', 'give either after (resume) or snapshot: true, not both', { field: 'snapshot' });
    const reserved = this.reserved.get(tenant) ?? 0;
    if (this.metrics.openCount(tenant) + reserved >= this.limits.perTenant) {
      throw fail(
        'LIMIT_EXCEEDED',
        `tenant ${tenant} has ${this.limits.perTenant} open status subscriptions on this gateway, the limit; close some first`,
        { limit: this.limits.perTenant },
      );
    }
    // reserved before the await below: resumed subscriptions that arrive together must not all pass the check
    this.reserved.set(tenant, reserved + 1);
    let fromSeq: number | undefined;
    try {
      fromSeq = opts.after ? await this.resumePoint(tenant, opts.after) : undefined;
    } finally {
      const left = this.reserved.get(tenant)! - 1;
      if (left) this.reserved.set(tenant, left);
      else this.reserved.delete(tenant);
    }
    const k = field ? key(tenant, field, filter[field] as string) : key(tenant, TENANT_WIDE, '');
    const feed: SubscriberFeed<E, F> = new SubscriberFeed<E, F>(
      tenant,
      filter,
      this.limits,
      {
        cursor: (seq) => this.cursor(tenant, seq),
        onDelivered: (fe) => this.metrics.delivered(tenant, fe.event.at, !!fe.lag),
        onClose: () => {
          this.metrics.closed(tenant);
          this.feeds.delete(feed);
          const s = this.index.get(k);
          s?.delete(feed);
          if (s && !s.size) this.index.delete(k);
        },
        overflow: (last) =>
          fail(
            'LIMIT_EXCEEDED',
            `the subscriber fell too far behind (more than ${this.limits.maxConflated} ${def.entity}s pending); resubscribe with after: ${last ?? '<your last cursor>'}`,
            { resumeAfter: last },
          ),
      },
      def,
    );
    this.metrics.opened(tenant);
    this.feeds.add(feed);
    if (fromSeq !== undefined) feed.floor = fromSeq - 1;
    if (fromSeq !== undefined || opts.snapshot) feed.buffering = [];
    // registered before the catch-up starts: nothing published from now on can be missed
    this.index.set(k, (this.index.get(k) ?? new Set()).add(feed));
    // and what the shared read gave others before, the catch-up must reach (same turn as registering)
    const liveAt = this.position;
    if (fromSeq !== undefined || opts.snapshot) await this.catchUp(feed, tenant, fromSeq, !!opts.snapshot, liveAt);
    return feed;
  }

  // Every subscriber of a tenant gets the same cursor for an event: sign it once, not once per
  // subscriber, so the signing grows with the events and not with the fan-out.
  private readonly cursors = new Map<string, string>();
  private cursor(tenant: string, seq: number): string {
    const k = `${seq}\u0000${tenant}`;
    let c = this.cursors.get(k);
    if (c === undefined) {
      if (this.cursors.size >= 4096) this.cursors.clear();
      this.cursors.set(k, (c = encodeCursor(this.opts.cursorSecret, this.scoped(tenant), seq)));
    }
    return c;
  }

  /** what a cursor is signed for: the tenant, and the stream unless it is the instance stream */
  private scoped(tenant: string): string {
    const scope = this.definition.cursorScope;
    return scope ? `${scope}|${tenant}` : tenant;
  }

  private async resumePoint(tenant: string, after: string): Promise<number> {
    let seq: number;
    try {
      seq = decodeCursor(this.opts.cursorSecret, this.scoped(tenant), after);
    } catch (err) {
      if (err instanceof CursorError) throw fail('CURSOR_INVALID', err.message, { field: 'after', cause: err });
      throw err;
    }
    const info = await this.opts.bus.streamInfo(this.definition.stream);
    if (seq + 1 < info.firstSeq) {
      throw fail(
        'CURSOR_EXPIRED',
        'the cursor is older than the status stream retains; resume from oldestCursor (events before it are gone) or subscribe with snapshot: true',
        {
          field: 'after',
          oldestCursor: encodeCursor(this.opts.cursorSecret, this.scoped(tenant), info.firstSeq - 1),
        },
      );
    }
    return seq + 1;
  }

  private async catchUp(
    feed: SubscriberFeed<E, F>,
    tenant: string,
    fromSeq: number | undefined,
    snapshot: boolean,
    liveAt: number,
  ) {
    let tail: Consumer | undefined;
    let caughtUp = false;
    let reached = snapshot ? 0 : (fromSeq ?? 1) - 1;
    const done = new Promise<void>((resolve, reject) => {
      this.opts.bus
        .tail<E>(
          {
            stream: this.definition.stream,
            filterSubject: this.definition.subjectsOfTenant(tenant),
            ...(snapshot ? { deliver: 'lastPerSubject' as const } : { fromSeq }),
            onCaughtUp: () => {
              caughtUp = true;
              resolve();
            },
          },
          (m) => {
            if (caughtUp) return;
            feed.offer(m, snapshot ? 'SNAPSHOT' : 'TRANSITION', false);
            reached = Math.max(reached, m.seq);
          },
        )
        .then((t) => {
          tail = t;
          if (caughtUp) void t.stop();
        }, reject);
    });
    try {
      await done;
    } catch (err) {
      feed.end();
      throw err;
    }
    await done;
    await tail?.stop();
    // caught up on a replica behind the shared read: the events in between, in stream order (the
    // feed drops what the catch-up gave already and what is not its own)
    if (liveAt > reached) for (const m of this.recentBetween(reached, liveAt)) feed.offer(m, 'TRANSITION', false);
    feed.goLive();
  }
}
