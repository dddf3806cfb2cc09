/**
 * npm run probe -- --url URL --token T [--duration 60s] [--interval 50ms] [--timeout 2s]
 *                  [--function ID] [--ws-url URL] [--json]
 *
 * The token may come from PROBE_TOKEN instead (kept out of the process list). Failures and
 * reconnects go to stderr as they happen; the summary to stdout. Ctrl-C or SIGTERM ends the
 * run early with the summary. Exit codes: 0 clean, 1 a failed request, gap or duplicate, 2 usage.
 */
import {
  formatProbeFailure,
  formatProbeSummary,
  parseCommand,
  parseDuration,
  probePassed,
  startProbe,
  UsageError,
} from './index.js';

const USAGE =
  'usage: npm run probe -- --url URL --token T [--duration 60s] [--interval 50ms] [--timeout 2s] [--function ID] [--ws-url URL] [--json]';

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values } = parseCommand({
    args: argv,
    options: {
      url: { type: 'string' },
      'ws-url': { type: 'string' },
      token: { type: 'string' },
      function: { type: 'string' },
      duration: { type: 'string', default: '60s' },
      interval: { type: 'string', default: '50ms' },
      timeout: { type: 'string', default: '2s' },
      json: { type: 'boolean', default: false },
    },
  });
  const token = values.token ?? env.PROBE_TOKEN;
  if (!values.url) throw new UsageError('--url is required');
  if (!token) throw new UsageError('--token (or PROBE_TOKEN) is required');
  const durationMs = parseDuration(values.duration, '--duration');
  const intervalMs = parseDuration(values.interval, '--interval');
  if (intervalMs < 1) throw new UsageError('--interval must be at least 1ms');

  const probe = startProbe({
    url: values.url,
    wsUrl: values['ws-url'],
    token,
    functionId: values.function,
    intervalMs,
    timeoutMs: parseDuration(values.timeout, '--timeout'),
    onFailure: (f) => console.error(formatProbeFailure(f)),
    onNotice: (at, m) => console.error(`${at.toISOString()} note ${m}`),
  });
  console.error(
    `probing ${values.url} every ${intervalMs} ms for ${values.duration}${values.function ? `, status of function ${values.function}` : ''} (Ctrl-C ends it early)`,
  );
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, durationMs);
    const early = () => {
      clearTimeout(timer);
      resolve();
    };
    process.once('SIGINT', early);
    process.once('SIGTERM', early);
  });
  const summary = await probe.stop();
  console.log(values.json ? JSON.stringify(summary, null, 2) : formatProbeSummary(summary));
  return probePassed(summary) ? 0 : 1;
}

main(process.argv.slice(2), process.env).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const e = err instanceof Error ? err : new Error(String(err));
    console.error(e instanceof UsageError ? `probe: ${e.message}\n${USAGE}` : `probe: ${e.name}: ${e.message}`);
    process.exit(e instanceof UsageError ? 2 : 1);
  },
);
