/** The test CA (the webhook's own local pair) and an HTTPS client that trusts it. */
import { makeLocalTls, type LocalTls } from '../src/index.js';

export type TestTls = LocalTls;
export const makeTestTls = makeLocalTls;

/** POST or GET over HTTPS trusting the test CA; the body as text. */
export async function httpsCall(
  url: string,
  ca: string,
  o: { method?: string; body?: string } = {},
): Promise<{ status: number; text: string }> {
  const https = await import('node:https');
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      { method: o.method ?? 'GET', ca, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(o.body);
  });
}
