import type { ServerResponse } from 'node:http';
import { once } from 'node:events';

/** Streams a fetch Response (from the in-process runtime) to a Node response. */
export async function pipeResponse(res: ServerResponse, response: Response) {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => {
    headers[k] = v;
  });
  res.writeHead(response.status, headers);
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
