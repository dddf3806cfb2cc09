import type { StreamSpec } from './types.js';

const DAY = 86_400_000;

/**
 * Where a durable consumer puts a message it gives up on (a poison message, or one that failed
 * maxDeliver times for a reason of its own), with why, instead of dropping it. One subject per
 * original stream and durable: `DeadLetter.<stream>.<durable>`. Owned by the bus: every bus
 * creates it with its first `ensureStreams`, whatever streams that names.
 */
export const deadLetterStream = {
  name: 'DeadLetterStream',
  subjects: ['DeadLetter.>'],
  retention: 'limits',
  maxAgeMs: 30 * DAY,
  duplicateWindowMs: 120_000,
} as const satisfies StreamSpec;

export const deadLetterSubject = (stream: string, durable: string) => `DeadLetter.${stream}.${durable}`;

/** The subjects of the dead letters of one original stream, one durable, or all. */
export const deadLetterFilter = (o: { stream?: string; durable?: string }) =>
  o.stream ? deadLetterSubject(o.stream, o.durable ?? '*') : o.durable ? `DeadLetter.*.${o.durable}` : 'DeadLetter.>';

/** One copy per message and durable: a copy published again (the ack after it was lost) is deduplicated. */
export const deadLetterMsgId = (stream: string, seq: number, durable: string) => `dead:${stream}:${seq}:${durable}`;

/** The headers a dead letter carries besides the original's own (its trace context). */
export const DeadLetterHeader = {
  stream: 'Nvcf-Dead-Stream',
  subject: 'Nvcf-Dead-Subject',
  seq: 'Nvcf-Dead-Seq',
  durable: 'Nvcf-Dead-Durable',
  deliveries: 'Nvcf-Dead-Deliveries',
  error: 'Nvcf-Dead-Error',
  publishedAt: 'Nvcf-Dead-Published-At',
} as const;

/** What a dead letter says about the message it holds. */
export interface DeadLetterOrigin {
  stream: string;
  subject: string;
  /** the message's sequence in its stream */
  seq: number;
  durable: string;
  deliveries: number;
  error: string;
  publishedAt: number;
}

export const deadLetterHeaders = (o: DeadLetterOrigin): Record<string, string> => ({
  [DeadLetterHeader.stream]: o.stream,
  [DeadLetterHeader.subject]: o.subject,
  [DeadLetterHeader.seq]: String(o.seq),
  [DeadLetterHeader.durable]: o.durable,
  [DeadLetterHeader.deliveries]: String(o.deliveries),
  // a header value is one line
  [DeadLetterHeader.error]: o.error.replace(/[\r\n]+/g, ' ').slice(0, 1024),
  [DeadLetterHeader.publishedAt]: new Date(o.publishedAt).toISOString(),
});

/** The origin read back from a dead letter's headers; undefined for a message that is not one. */
export function deadLetterOrigin(get: (key: string) => string | undefined): DeadLetterOrigin | undefined {
  const stream = get(DeadLetterHeader.stream);
  const subject = get(DeadLetterHeader.subject);
  const durable = get(DeadLetterHeader.durable);
  if (!stream || !subject || !durable) return undefined;
  return {
    stream,
    subject,
    durable,
    seq: Number(get(DeadLetterHeader.seq) ?? 0),
    deliveries: Number(get(DeadLetterHeader.deliveries) ?? 0),
    error: get(DeadLetterHeader.error) ?? '',
    publishedAt: Date.parse(get(DeadLetterHeader.publishedAt) ?? '') || 0,
  };
}
