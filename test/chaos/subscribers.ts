import { createClient as createWsClient } from 'graphql-ws';
import { createClient as createSseClient } from 'graphql-sse';
import WebSocket from 'ws';
import { decodeCursor } from '@nvcf/auth';
import type { Random } from './random.js';

export type Transport = 'ws' | 'sse';

interface Event {
  instanceStatusChanged: {
    cursor: string;
    state: string;
    lag: { skippedEvents: number } | null;
    instance: { id: string };
  };
}

/** Only what the stream carries: the checker compares it with the stream, and it needs no other service. */
const QUERY =
  'subscription S($s: ID, $after: String) { instanceStatusChanged(gpuSpecificationId: $s, after: $after) { cursor state lag { skippedEvents } instance { id } } }';

export interface SubscriberView {
  id: number;
  transport: Transport;
  specId: string;
  /** stream sequence of every event received, in order of arrival */
  seqs: number[];
  /** the connection each of `seqs` arrived on (an index into `connects`) */
  via: number[];
  /** every subscription it opened: where, resuming after which sequence, when */
  connects: { gateway: string; after: number | null; at: string }[];
  lagged: number;
  errors: string[];
  resumes: number;
}

/**
 * A status subscriber as the API asks clients to be: on any end (its gateway killed, an error, its
 * own choice) it subscribes again, to whichever gateway is up, after the last cursor it received.
 */
export class ResumingSubscriber implements SubscriberView {
  seqs: number[] = [];
  via: number[] = [];
  connects: SubscriberView['connects'] = [];
  lagged = 0;
  errors: string[] = [];
  resumes = 0;
  private last: string | undefined;
  private current: (() => void) | undefined;
  private stopped = false;
  private generation = 0;
  private reconnect: NodeJS.Timeout | undefined;

  constructor(
    readonly id: number,
    readonly transport: Transport,
    readonly specId: string,
    private readonly gatewayUrls: () => string[],
    private readonly secret: string,
    private readonly random: Random,
  ) {}

  start() {
    this.connect();
  }

  /** ends this subscription and resumes from its cursor, as a client reconnecting by choice does */
  resume() {
    if (this.stopped) return;
    this.drop();
    this.resumes++;
    this.connect();
  }

  stop() {
    this.stopped = true;
    this.drop();
  }

  /** ends the current subscription; its late callbacks are ignored */
  private drop() {
    clearTimeout(this.reconnect); // a resume by choice during a pending reconnect is the reconnect
    this.generation++;
    this.current?.();
    this.current = undefined;
  }

  private connect() {
    const generation = ++this.generation;
    const urls = this.gatewayUrls();
    if (!urls.length) {
      this.retry(generation);
      return;
    }
    const base = this.random.pick(urls);
    const variables = { s: this.specId, ...(this.last ? { after: this.last } : {}) };
    const connection =
      this.connects.push({ gateway: base, after: this.seqs.at(-1) ?? null, at: new Date().toISOString() }) - 1;
    const sink = {
      next: (v: { data?: unknown; errors?: readonly { message: string }[] }) => {
        if (generation !== this.generation) return;
        if (v.errors?.length) {
          this.errors.push(v.errors.map((e) => e.message).join('; '));
          return;
        }
        const e = (v.data as Event).instanceStatusChanged;
        this.last = e.cursor;
        this.seqs.push(decodeCursor(this.secret, 'nca-a', e.cursor));
        this.via.push(connection);
        if (e.lag) this.lagged++;
      },
      error: () => this.retry(generation),
      complete: () => this.retry(generation),
    };
    if (this.transport === 'ws') {
      const client = createWsClient({
        url: `${base.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: 'Bearer dev-token-a' },
        retryAttempts: 0,
        lazy: true,
        onNonLazyError: () => {},
      });
      const unsubscribe = client.subscribe({ query: QUERY, variables }, sink);
      this.current = () => {
        unsubscribe();
        // disposing while the socket still connects rejects with its CloseEvent: that socket is done with
        void Promise.resolve(client.dispose()).catch(() => {});
      };
    } else {
      const client = createSseClient({
        url: `${base}/graphql`,
        singleConnection: false,
        headers: { authorization: 'Bearer dev-token-a' },
        retryAttempts: 0,
      });
      const unsubscribe = client.subscribe({ query: QUERY, variables }, sink);
      this.current = () => {
        unsubscribe();
        client.dispose();
      };
    }
  }

  private retry(generation: number) {
    if (this.stopped || generation !== this.generation) return;
    this.drop();
    this.resumes++;
    setTimeout(
      () => {
        if (!this.stopped) this.connect();
      },
      this.random.between(100, 1000),
    );
  }
}
