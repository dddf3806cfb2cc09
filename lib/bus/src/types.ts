import type { DeadLetterOrigin } from './dead-letter.js';
import type { OutageBackoff } from './outage.js';

export interface StreamSpec {
  name: string;
  subjects: string[];
  /** workqueue: a message leaves once acked; limits: kept until maxAge/maxMsgs (replayable). */
  retention: 'workqueue' | 'limits';
  maxAgeMs?: number;
  maxMsgs?: number;
  duplicateWindowMs?: number;
}

export interface PublishAck {
  stream: string;
  seq: number;
  /** true when the message id was seen inside the dedup window and nothing was stored */
  duplicate: boolean;
}

export interface BusMessage<T = unknown> {
  subject: string;
  /** the stream sequence: the position resumable readers remember */
  seq: number;
  data: T;
  publishedAt: number;
  /** the W3C trace context (traceparent, tracestate) of the publish, when it was traced */
  headers?: Record<string, string>;
}

export interface Delivery<T = unknown> extends BusMessage<T> {
  /** 1 on first delivery; higher on redelivery (at-least-once) */
  deliveryCount: number;
}

export interface ConsumerOptions {
  stream: string;
  /** `<Stream>-<clusterId>` by convention; state survives consumer restarts */
  durable: string;
  filterSubject?: string;
  ackWaitMs?: number;
  /**
   * Deliveries that fail for the message's own reason (not an outage, see `outageBackoff`) before
   * it is given up on: copied to the dead-letter stream with the error, then acked. Default 20.
   */
  maxDeliver?: number;
  /** nak delays by delivery count; the last one repeats */
  backoffMs?: number[];
  /**
   * While a handler fails on an unavailable dependency (isOutage from @nvcf/errors) the consumer
   * holds its messages and probes with this backoff (doubling, with jitter) instead of redelivering
   * them: an outage never counts towards `maxDeliver`, however long it lasts.
   */
  outageBackoff?: OutageBackoff;
  /** messages handled at once */
  maxAckPending?: number;
  /**
   * Where a durable that does not exist yet begins: `first` (default) at the oldest stored message,
   * `new` at the next one published. An existing durable always resumes where it was.
   */
  startAt?: StartAt;
  /**
   * Servers holding the durable's state (its position, acks and redelivery counts); default: as
   * many as its stream. 1 suits state that can be rebuilt: a work-queue stream keeps only what is
   * not acked yet, so a durable created anew reads exactly the pending work again. What it costs:
   * the durable lives on one server, unavailable while that server is down, and when it is lost
   * with its server the consumer is created again on the next reopen and redelivers the work that
   * was in flight (handlers are at-least-once anyway). A changed value is applied to an existing
   * durable when it is next opened.
   *
   * NATS (checked on 2.15.2) refuses a value other than the stream's on work-queue and interest
   * streams (API error 10134, thrown as ConsumerSetupError), so on an R3 work queue the saving is
   * not to be had yet; on a limits stream 1 is accepted, but a durable created anew there starts
   * over from `startAt`, not from where it was.
   */
  replicas?: number;
}

export type StartAt = 'first' | 'new';

export interface TailOptions {
  stream: string;
  filterSubject?: string;
  /** first sequence to deliver; default: only messages published after the tail starts */
  fromSeq?: number;
  /**
   * `lastPerSubject`: first the newest stored message of every matching subject (in stream
   * order), then live ones. With one subject per instance this is "current state, then
   * deltas" from one consistent position.
   */
  deliver?: 'lastPerSubject';
  /** called once, after every message stored when the tail started has been delivered */
  onCaughtUp?: () => void;
}

export interface Consumer {
  /**
   * Stops taking messages. With `graceMs`, waits up to that long for handlers already running
   * to finish (a draining service); their outcome still settles the message. Without it,
   * returns at once and work in flight is redelivered to the next consumer if it never settles.
   */
  stop(opts?: { graceMs?: number }): Promise<void>;
}

/** Thrown by a handler for a message that can never succeed: it is dead-lettered at once. */
export class PoisonMessage extends Error {
  override name = 'PoisonMessage';
}

export interface StreamInfo {
  firstSeq: number;
  lastSeq: number;
  messages: number;
}

/** A message a durable consumer gave up on, as the dead-letter stream keeps it. */
export interface DeadLetter extends DeadLetterOrigin {
  /** its sequence in the dead-letter stream: what `get`, `replay` and `purge` name */
  id: number;
  /** when it was dead-lettered */
  at: number;
  /** the original payload as published (not necessarily JSON: that may be why it is here) */
  data: string;
}

/** The dead-letter stream, for operators: inspect, replay (as is, or a fixed copy) and purge. */
export interface DeadLetters {
  /** oldest first; `stream`/`durable` narrow it to one original stream or consumer */
  list(opts?: { stream?: string; durable?: string; limit?: number }): Promise<DeadLetter[]>;
  get(id: number): Promise<DeadLetter | undefined>;
  /**
   * Publishes the message again to its original subject (every durable of that stream sees it
   * again) — or `data`, a fixed copy — then removes the dead letter. Repeating a replay whose
   * removal failed publishes nothing twice (a message id inside the dedup window).
   */
  replay(id: number, opts?: { data?: string }): Promise<PublishAck>;
  /** removes every dead letter, or one original stream's; returns how many */
  purge(opts?: { stream?: string }): Promise<number>;
}

/**
 * The messaging port. Handlers that resolve ack the message; handlers that throw on an outage
 * are retried while the consumer holds its messages; other failures nak it with backoff, and
 * after maxDeliver (at once for a PoisonMessage) it goes to the dead-letter stream. Long
 * handlers are kept alive automatically.
 */
export interface Bus extends AsyncDisposable {
  ensureStreams(specs: StreamSpec[]): Promise<void>;
  publish(subject: string, data: unknown, opts?: { msgId?: string }): Promise<PublishAck>;
  consume<T>(opts: ConsumerOptions, handler: (msg: Delivery<T>) => Promise<void>): Promise<Consumer>;
  /** An ordered, ephemeral read of a stream (for fan-out and resume); no acks. */
  tail<T>(opts: TailOptions, handler: (msg: BusMessage<T>) => void): Promise<Consumer>;
  /** the stream's bounds; `messages` counts only `subject` (wildcards allowed) when given */
  streamInfo(stream: string, opts?: { subject?: string }): Promise<StreamInfo>;
  readonly deadLetters: DeadLetters;
  dispose(): Promise<void>;
}
