import {
  Attr,
  SpanKind,
  contextFrom,
  counter,
  failSpan,
  gauge,
  histogram,
  inSpan,
  traceHeaders,
  tracingOn,
} from '@nvcf/telemetry';
import { createLogger } from '@nvcf/logging';
import type { DeadLetterOrigin } from './dead-letter.js';
import type { Outcome } from './delivery.js';
import type { Delivery, PublishAck } from './types.js';

const log = createLogger('bus');

const published = counter(
  'nvcf_bus_published_total',
  'Messages published, by stream and outcome (ok, duplicate, error).',
  ['stream', 'outcome'],
);
const consumed = counter(
  'nvcf_bus_consumed_total',
  'Messages handled by durable consumers, by stream, durable and outcome (ack, nak, dead).',
  ['stream', 'durable', 'outcome'],
);
const redelivered = counter(
  'nvcf_bus_redeliveries_total',
  'Deliveries after the first (at-least-once redelivery), by stream and durable.',
  ['stream', 'durable'],
);
const handleSeconds = histogram(
  'nvcf_bus_handle_duration_seconds',
  'Time a consumer handler took, by stream and durable.',
  ['stream', 'durable'],
);
const pendingGauge = gauge(
  'nvcf_bus_consumer_pending',
  'Messages waiting for a durable consumer (its lag) as of its last delivery, by stream and durable.',
  ['stream', 'durable'],
);
const lagSeconds = gauge(
  'nvcf_bus_consumer_lag_seconds',
  'Age (publish to applied) of the message a durable consumer last acknowledged, by stream and durable: how far its reader trails the stream.',
  ['stream', 'durable'],
);

const deadLetters = counter(
  'nvcf_bus_dead_letters_total',
  'Messages a durable consumer gave up on and copied to the dead-letter stream (npm run streams -- dead-letters list), by stream and durable.',
  ['stream', 'durable'],
);
const waiting = gauge(
  'nvcf_bus_consumer_waiting',
  '1 while a durable consumer holds its messages because a dependency it writes to is unavailable (it probes with backoff and resumes by itself), else 0; by stream and durable.',
  ['stream', 'durable'],
);

/** A message stored in the dead-letter stream: counted, and named in an ERROR line saying where to look. */
export function deadLettered(o: DeadLetterOrigin): void {
  deadLetters.inc({ stream: o.stream, durable: o.durable });
  log.error(
    `${o.durable}: gave up on ${o.subject}#${o.seq} after ${o.deliveries} deliveries (${o.error}); ` +
      `copied to the dead-letter stream (npm run streams -- dead-letters list)`,
  );
}

/** Reports a consumer waiting out an outage (or no longer). */
export const waitingOnOutage = (stream: string, durable: string, down: boolean) =>
  waiting.set({ stream, durable }, down ? 1 : 0);

/**
 * A publish as a PRODUCER span (`publish <stream>`), its W3C trace context handed to `send` to
 * carry in the message's headers; counted by outcome.
 */
export async function tracedPublish(
  stream: string,
  subject: string,
  msgId: string | undefined,
  send: (headers: Record<string, string> | undefined) => Promise<PublishAck>,
): Promise<PublishAck> {
  // built only for a span: with tracing off, a publish costs a counter increment
  const attrs = tracingOn() && {
    'messaging.system': 'nats',
    'messaging.operation.type': 'send',
    'messaging.operation.name': 'publish',
    'messaging.destination.name': subject,
    'messaging.destination.template': stream,
    ...(msgId ? { 'messaging.message.id': msgId } : {}),
  };
  try {
    const ack = await inSpan(
      `publish ${stream}`,
      { kind: SpanKind.PRODUCER, attributes: attrs || {} },
      async (span) => {
        const headers = attrs ? traceHeaders() : undefined;
        const a = await send(headers && Object.keys(headers).length ? headers : undefined);
        span?.setAttributes({ 'nvcf.messaging.sequence': a.seq, 'nvcf.messaging.duplicate': a.duplicate });
        return a;
      },
    );
    published.inc({ stream, outcome: ack.duplicate ? 'duplicate' : 'ok' });
    return ack;
  } catch (err) {
    published.inc({ stream, outcome: 'error' });
    throw err;
  }
}

/** One durable's delivery metrics, their series resolved once: a reader counts every message. */
export interface DeliveryMeter {
  stream: string;
  durable: string;
  redelivered: { inc(): void };
  pending: { set(value: number): void };
  handled: { time(): () => void };
  lag: { set(value: number): void };
  outcome: Record<'ack' | 'nak' | 'dead', { inc(): void }>;
}

export function deliveryMeter(stream: string, durable: string): DeliveryMeter {
  const l = { stream, durable };
  return {
    stream,
    durable,
    redelivered: redelivered.with(l),
    pending: pendingGauge.with(l),
    handled: handleSeconds.with(l),
    lag: lagSeconds.with(l),
    outcome: {
      ack: consumed.with({ ...l, outcome: 'ack' }),
      nak: consumed.with({ ...l, outcome: 'nak' }),
      dead: consumed.with({ ...l, outcome: 'dead' }),
    },
  };
}

/**
 * One delivery to a durable consumer as a CONSUMER span (`process <stream>`) whose parent is
 * the publisher's span, from the trace context in the message headers; counted by outcome.
 */
export async function tracedDelivery<T>(
  meter: DeliveryMeter,
  delivery: Delivery<T>,
  /** the trace context the message carries; read only when tracing is on */
  headers: () => Record<string, string> | undefined,
  pending: number | undefined,
  run: () => Promise<Outcome>,
): Promise<Outcome> {
  const { stream, durable } = meter;
  if (delivery.deliveryCount > 1) meter.redelivered.inc();
  if (pending !== undefined) meter.pending.set(pending);
  const done = meter.handled.time();
  const attrs = tracingOn() && {
    'messaging.system': 'nats',
    'messaging.operation.type': 'process',
    'messaging.operation.name': 'process',
    'messaging.destination.name': delivery.subject,
    'messaging.destination.template': stream,
    'messaging.consumer.group.name': durable,
    [Attr.deliveryCount]: delivery.deliveryCount,
    'nvcf.messaging.sequence': delivery.seq,
  };
  // with tracing off a delivery costs its counters, not a span's closures and promises
  const outcome = !attrs
    ? await run()
    : await inSpan(
        `process ${stream}`,
        { kind: SpanKind.CONSUMER, attributes: attrs, parent: contextFrom(headers()) },
        async (span) => {
          const o = await run();
          if (o !== 'ack') failSpan(span, new Error('dead' in o ? `dead-lettered: ${o.dead}` : 'will be redelivered'));
          return o;
        },
      );
  done();
  if (outcome === 'ack') meter.lag.set(Math.max(0, (Date.now() - delivery.publishedAt) / 1000));
  meter.outcome[outcome === 'ack' ? 'ack' : 'dead' in outcome ? 'dead' : 'nak'].inc();
  return outcome;
}
