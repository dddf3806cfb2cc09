import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { eventTracker, type StatusEvent } from './probe-events.js';

const STATUS = `subscription OpsProbeStatus($functionId: ID!, $after: String) {
  instanceStatusChanged(functionId: $functionId, after: $after) {
    cursor state previousState revisionId targetRevisionId message kind
    instance { id cluster { id } } lag { skippedEvents resumeAfter }
  }
}`;

export interface WatchOptions {
  wsUrl: string;
  token: string;
  functionId: string;
  /** a server that stops answering pings is given up after this long (default 5 s) */
  pongTimeoutMs?: number;
  failure(what: string, code: string, message: string): void;
  notice(message: string): void;
}

export interface WatchCounters {
  events: number;
  /** times the subscription was established again after a disconnect */
  reconnects: number;
  /** attempts to establish it again, the failed ones included */
  reconnectAttempts: number;
  gaps: number;
  duplicates: number;
  /** GraphQL errors on the subscription, and a subscription never established */
  errors: number;
  connected: boolean;
}

type GqlError = { message: string; extensions?: { code?: string } };

const MAX_BACKOFF_MS = 2000;
const HEALTHY_MS = 1000;

// dispose() awaits the connection attempt, so it rejects when that failed: nothing to close then
const closeQuietly = (c: Client) => Promise.resolve(c.dispose()).catch(() => {});

function describeEnd(e: unknown): { code: string; message: string } {
  if (Array.isArray(e))
    return {
      code: String((e[0] as GqlError)?.extensions?.code ?? 'ERROR'),
      message: (e as GqlError[]).map((x) => x.message).join('; '),
    };
  if (e && typeof e === 'object' && 'code' in e && typeof e.code === 'number') {
    const c = e as { code: number; reason?: string };
    return { code: `WS_${c.code}`, message: c.reason || 'connection closed' };
  }
  // the socket's error event carries the real error (ECONNREFUSED...) inside
  const inner = (e as { error?: unknown })?.error;
  const err =
    inner instanceof Error
      ? inner
      : e instanceof Error
        ? e
        : new Error(String((e as { message?: string })?.message ?? e));
  const cause = (err as { cause?: { code?: string } }).cause;
  return { code: (err as { code?: string }).code ?? cause?.code ?? err.name, message: err.message };
}

/**
 * A status subscription that on every disconnect resubscribes with `after: <last cursor>`
 * (what API.md asks of clients), checking every event for gaps and duplicates.
 */
export function startWatch(o: WatchOptions) {
  const tracker = eventTracker();
  const counters: WatchCounters = {
    events: 0,
    reconnects: 0,
    reconnectAttempts: 0,
    gaps: 0,
    duplicates: 0,
    errors: 0,
    connected: false,
  };
  let stopped = false;
  let everConnected = false;
  let failedAttempts = 0;
  let client: Client | undefined;
  let unsubscribe = () => {};
  let retryTimer: NodeJS.Timeout | undefined;
  let pongTimer: NodeJS.Timeout | undefined;
  let socket: WebSocket | undefined;
  let pongTimedOut = false;

  const subscribe = () => {
    if (stopped) return;
    let ended = false;
    let connectedAt: number | undefined;
    const after = tracker.lastCursor;
    const c = (client = createClient({
      url: o.wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${o.token}` },
      retryAttempts: 0, // reconnecting is ours: it must resume from our cursor
      lazy: true,
      keepAlive: 10_000,
      on: {
        connected: (s) => {
          socket = s as WebSocket;
          counters.connected = true;
          connectedAt = Date.now();
          if (everConnected) {
            counters.reconnects++;
            o.notice(`subscription resumed${after ? ` after ${after}` : ''}`);
          }
          everConnected = true;
        },
        // a replica that vanished without closing (SIGKILL on another host) answers no ping
        ping: (received) => {
          if (!received)
            pongTimer = setTimeout(() => {
              pongTimedOut = true;
              socket?.close(4408, 'no pong from the server');
            }, o.pongTimeoutMs ?? 5000);
        },
        pong: (received) => {
          if (received) clearTimeout(pongTimer);
        },
        closed: () => {
          counters.connected = false;
          clearTimeout(pongTimer);
        },
      },
    }));
    const end = (why: { code: string; message: string }) => {
      if (ended) return;
      ended = true;
      void closeQuietly(c);
      if (stopped) return;
      counters.connected = false;
      // 44xx: the server refused us (authentication, limits), not a replica going away
      if (/^WS_44\d\d$/.test(why.code) && !pongTimedOut) {
        counters.errors++;
        o.failure('subscription', why.code, why.message);
      }
      pongTimedOut = false;
      o.notice(`subscription ended (${why.code}: ${why.message}); resubscribing`);
      counters.reconnectAttempts++;
      // a subscription that served a while lost its replica: resume at once; one refused straight away backs off
      if (connectedAt !== undefined && Date.now() - connectedAt >= HEALTHY_MS) failedAttempts = 0;
      const wait = failedAttempts === 0 ? 0 : Math.min(100 * 2 ** (failedAttempts - 1), MAX_BACKOFF_MS);
      failedAttempts++;
      retryTimer = setTimeout(subscribe, wait);
    };
    unsubscribe = c.subscribe<{ instanceStatusChanged: StatusEvent }>(
      { query: STATUS, variables: { functionId: o.functionId, ...(after ? { after } : {}) } },
      {
        next: (v) => {
          if (v.errors?.length) {
            const first = v.errors[0] as GqlError;
            const code = first.extensions?.code ?? 'ERROR';
            counters.errors++;
            o.failure('subscription', code, v.errors.map((e) => e.message).join('; '));
            if (code === 'CURSOR_EXPIRED' || code === 'CURSOR_INVALID') {
              // the events after our cursor are gone: that is a gap; go on live from here
              counters.gaps++;
              o.failure('gap', code, `cannot resume after ${tracker.lastCursor}; resubscribing without a cursor`);
              tracker.resetPosition();
            }
            return;
          }
          const e = v.data?.instanceStatusChanged;
          if (!e) return;
          const verdicts = tracker.record(e);
          if (verdicts[0]?.kind !== 'duplicate') counters.events++;
          for (const verdict of verdicts) {
            if (verdict.kind === 'duplicate') {
              counters.duplicates++;
              o.failure('duplicate', 'DUPLICATE', verdict.message);
            } else if (verdict.kind === 'gap') {
              counters.gaps++;
              o.failure('gap', 'GAP', verdict.message);
            }
          }
        },
        error: (err) => end(describeEnd(err)),
        complete: () => end({ code: 'COMPLETE', message: 'the server completed the subscription' }),
      },
    );
  };

  subscribe();

  return {
    counters,
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(retryTimer);
      clearTimeout(pongTimer);
      unsubscribe();
      if (client) await closeQuietly(client);
      if (!everConnected) {
        counters.errors++;
        o.failure('subscription', 'NEVER_CONNECTED', `the status subscription was never established at ${o.wsUrl}`);
      }
    },
  };
}
