/** POST or GET over HTTPS trusting the webhook's CA (makeLocalTls of the package); the body as text. */
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
