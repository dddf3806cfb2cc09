import type { StatusEvent } from '@nvcf/contracts';

export interface StatusFilter {
  functionId?: string | null;
  versionId?: string | null;
  gpuSpecificationId?: string | null;
  instanceId?: string | null;
}

export interface Lag {
  skippedEvents: number;
  resumeAfter: string;
}

/** What every stream's events carry: the tenant that owns them and the time of the transition. */
export interface StreamEvent {
  ncaId: string;
  at: string;
}

/** One event as a subscriber receives it. */
export interface FeedEvent<E extends StreamEvent = StatusEvent> {
  event: E;
  seq: number;
  cursor: string;
  kind: 'TRANSITION' | 'SNAPSHOT';
  lag: Lag | null;
}

/** Where an attached feed pushes its events (the alternative to pulling with `next`). */
export interface FeedSink<E extends StreamEvent = StatusEvent> {
  /** takes one event; false detaches the sink (it takes no more until attached again) */
  push(e: FeedEvent<E>): boolean;
  /** the feed ended: done, or with the error a subscriber should see */
  end(err?: Error): void;
}

export interface Feed<E extends StreamEvent = StatusEvent> extends AsyncIterableIterator<FeedEvent<E>> {
  readonly tenant: string;
  /** ends the feed; the next pull returns done (or the error) */
  end(err?: Error): void;
  /**
   * Pull mode without waiting: the next event the feed already holds (queued or conflated), or
   * undefined when it holds none; its end, and its error, are for `next` to say.
   */
  poll(): FeedEvent<E> | undefined;
  /** pushes events to `sink` instead of waiting for pulls; a feed is pulled or attached, never both */
  attach(sink: FeedSink<E>): void;
}

export interface StreamLimits {
  /** open feeds per tenant on this replica */
  perTenant: number;
  /** events queued for a subscriber before its feed conflates per instance */
  bufferEvents: number;
  /** instances a lagging feed may hold conflated before it is ended */
  maxConflated: number;
}

export const defaultLimits: StreamLimits = { perTenant: 10_000, bufferEvents: 256, maxConflated: 10_000 };

type Row = { functionId: string; versionId: string; gpuSpecificationId: string; instanceId: string };
export const matches = (f: StatusFilter, r: Row) =>
  (!f.functionId || f.functionId === r.functionId) &&
  (!f.versionId || f.versionId === r.versionId) &&
  (!f.gpuSpecificationId || f.gpuSpecificationId === r.gpuSpecificationId) &&
  (!f.instanceId || f.instanceId === r.instanceId);

export const hasFilter = (f: StatusFilter) => !!(f.functionId || f.versionId || f.gpuSpecificationId || f.instanceId);
