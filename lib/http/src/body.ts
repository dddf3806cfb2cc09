import type { IncomingMessage, ServerResponse } from 'node:http';

export class BodyTooLarge extends Error {
  override name = 'BodyTooLarge';
}

/** Reads a request body with a hard cap, so a huge document cannot exhaust memory. */
export async function readBody(req: IncomingMessage, limitBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) throw new BodyTooLarge(`request body exceeds ${limitBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export const graphqlError = (code: string, message: string) => ({ errors: [{ message, extensions: { code } }] });
