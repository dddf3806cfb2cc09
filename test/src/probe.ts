import WebSocket from 'ws';

/**
 * Runs `act` while probing `GET /health` back to back, and returns what the probe saw: a
 * gateway whose event loop an abusive request blocks answers its probe late (or not at all).
 * The first probe is sent before `act` starts, so at least one overlaps it.
 */
export async function whileProbing<T>(
  baseUrl: string,
  act: () => Promise<T>,
): Promise<{ result: T; probes: number; worstMs: number; failed: number }> {
  let running = true;
  let probes = 0;
  let failed = 0;
  let worstMs = 0;
  const loop = (async () => {
    while (running || probes === 0) {
      const t = performance.now();
      try {
        const r = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(5000) });
        if (r.status !== 200) failed++;
        await r.arrayBuffer();
      } catch {
        failed++;
      }
      worstMs = Math.max(worstMs, performance.now() - t);
      probes++;
    }
  })();
  let result: T;
  try {
    result = await act();
  } finally {
    running = false;
    await loop;
  }
  return { result, probes, worstMs, failed };
}

/**
 * `whileProbing`, repeated while its probe was slow. A request that blocks the event loop blocks it
 * every time it is sent; a probe held up by the machine (a GC pause, the other suites on a loaded CI
 * host) is not held up again. So a stall is a slow probe on every attempt, and `act` must be
 * repeatable (a refused request is). Returns the attempt whose probe was fastest, with every
 * attempt's failed probes.
 */
export async function withoutStall<T>(
  baseUrl: string,
  act: (attempt: number) => Promise<T>,
  { stallMs = 200, attempts = 3 }: { stallMs?: number; attempts?: number } = {},
): Promise<{ result: T; probes: number; worstMs: number; failed: number; stalled: boolean }> {
  let best: Awaited<ReturnType<typeof whileProbing<T>>> | undefined;
  let failed = 0;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const seen = await whileProbing(baseUrl, () => act(attempt));
    failed += seen.failed;
    if (!best || seen.worstMs < best.worstMs) best = seen;
    if (seen.worstMs < stallMs) break;
  }
  return { ...best!, failed, stalled: best!.worstMs >= stallMs };
}

export interface RawWs {
  messages: { type: string; id?: string; payload?: any }[];
  closed: Promise<{ code: number; reason: string }>;
  send(msg: unknown): void;
  /** resolves with the first message matching, or rejects when the socket closes first */
  next(
    match: (m: { type: string; id?: string; payload?: any }) => boolean,
    timeoutMs?: number,
  ): Promise<{ type: string; id?: string; payload?: any }>;
  close(): void;
}

/** A WebSocket message's text, whichever form ws hands it over in. */
export const wsText = (d: WebSocket.RawData): string =>
  (Buffer.isBuffer(d) ? d : Array.isArray(d) ? Buffer.concat(d) : Buffer.from(d)).toString();

/** A bare graphql-transport-ws socket: sends exactly what the test says, in that order. */
export async function rawWs(wsUrl: string): Promise<RawWs> {
  const ws = new WebSocket(wsUrl, 'graphql-transport-ws');
  const messages: RawWs['messages'] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (d) => {
    messages.push(JSON.parse(wsText(d)));
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => {
      resolve({ code, reason: String(reason) });
      for (const w of waiters.splice(0)) w();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    messages,
    closed,
    send: (msg) => ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg)),
    next: (match, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(messages).slice(0, 500)}`),
            ),
          timeoutMs,
        );
        const check = () => {
          const m = messages.find(match);
          if (m) {
            clearTimeout(timer);
            return resolve(m);
          }
          if (ws.readyState >= WebSocket.CLOSING) {
            clearTimeout(timer);
            return reject(new Error(`socket closed; got ${JSON.stringify(messages).slice(0, 500)}`));
          }
          waiters.push(check);
        };
        check();
      }),
    close: () => ws.close(),
  };
}
