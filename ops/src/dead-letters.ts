import { readFileSync } from 'node:fs';
import { createNatsBus, type DeadLetter } from '@nvcf/bus';
import { renderTable, UsageError } from './cli.js';

export interface DeadLettersCommand {
  natsUrl: string;
  action: string;
  args: string[];
  stream?: string;
  durable?: string;
  limit?: number;
  /** a fixed copy of the payload to replay instead of the stored one: a file, or '-' for stdin */
  dataFile?: string;
  json?: boolean;
  yes?: boolean;
}

const idOf = (text: string | undefined) => {
  if (!text || !/^[1-9]\d*$/.test(text))
    throw new UsageError(`a dead letter's id is a positive integer (got '${text ?? ''}')`);
  return Number(text);
};

const row = (d: DeadLetter) => [
  String(d.id),
  new Date(d.at).toISOString(),
  d.stream,
  `${d.subject}#${d.seq}`,
  d.durable,
  String(d.deliveries),
  d.error,
];

const details = (d: DeadLetter) =>
  [
    `id:           ${d.id}`,
    `dead since:   ${new Date(d.at).toISOString()}`,
    `stream:       ${d.stream}`,
    `subject:      ${d.subject}`,
    `sequence:     ${d.seq}`,
    `published:    ${new Date(d.publishedAt).toISOString()}`,
    `durable:      ${d.durable}`,
    `deliveries:   ${d.deliveries}`,
    `error:        ${d.error}`,
    `payload:`,
    d.data,
  ].join('\n');

/**
 * `streams dead-letters list|show|replay|purge`: what the consumers gave up on, and putting it
 * back. Returns what to print.
 */
export async function deadLettersCommand(c: DeadLettersCommand): Promise<string> {
  const bus = await createNatsBus({ servers: c.natsUrl, name: 'nvcf-dead-letters' });
  try {
    const dl = bus.deadLetters;
    switch (c.action) {
      case 'list': {
        const all = await dl.list({ stream: c.stream, durable: c.durable, limit: c.limit });
        if (c.json) return JSON.stringify(all, null, 2);
        if (!all.length) return 'no dead letters';
        return renderTable(['ID', 'DEAD SINCE', 'STREAM', 'MESSAGE', 'DURABLE', 'DELIVERIES', 'ERROR'], all.map(row));
      }
      case 'show': {
        const id = idOf(c.args[0]);
        const d = await dl.get(id);
        if (!d) throw new UsageError(`no dead letter ${id} (see: streams dead-letters list)`);
        return c.json ? JSON.stringify(d, null, 2) : details(d);
      }
      case 'replay': {
        const id = idOf(c.args[0]);
        const data = c.dataFile ? readFileSync(c.dataFile === '-' ? 0 : c.dataFile, 'utf8') : undefined;
        if (!(await dl.get(id))) throw new UsageError(`no dead letter ${id} (see: streams dead-letters list)`);
        const ack = await dl.replay(id, { data });
        return `replayed dead letter ${id}${data ? ' (the fixed copy)' : ''} as ${ack.stream}#${ack.seq}${ack.duplicate ? ' (already replayed: not published again)' : ''}`;
      }
      case 'purge': {
        if (!c.yes) {
          const n = (await dl.list({ stream: c.stream, limit: Number.MAX_SAFE_INTEGER })).length;
          throw new UsageError(`purge removes ${n} dead letter(s) for good; add --yes to do it`);
        }
        return `purged ${await dl.purge({ stream: c.stream })} dead letter(s)`;
      }
      default:
        throw new UsageError(`unknown dead-letters command '${c.action}'`);
    }
  } finally {
    await bus.dispose();
  }
}
