import type { ServerResponse } from 'node:http';
import { once } from 'node:events';

/**
 * The runtime's (@whatwg-node) Response built from a whole string keeps it: sent as it is, it
 * skips a stream and a reader per answer (as the runtime's own Node adapter does).
 */
function wholeText(response: Response): string | undefined {
  const r = response as Response & { bodyType?: unknown; bodyInit?: unknown };
  return r.bodyType === 'String' && typeof r.bodyInit === 'string' ? r.bodyInit : undefined;
}

/** Streams a fetch Response (from the in-process runtime) to a Node response. */
export async function pipeResponse(res: ServerResponse, response: Response) {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => {
    headers[k] = v;
  });
  res.writeHead(response.status, headers);
  const text = wholeText(response);
  if (text !== undefined) return res.end(text);
  if (!response.body) return res.end();
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!res.write(value)) await once(res, 'drain');
  }
  res.end();
}
