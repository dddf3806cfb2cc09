import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EXIT, memoryIo, run } from '../src/index.js';

// an unreachable gateway: a command that sent anything would exit 4, not 2
const env = { NVCF_URL: 'http://127.0.0.1:1/graphql', NVCF_TOKEN: 't' };
const GPU = ['--gpu', 'L40S', '--instance-type', 'gl40s_1.br25_2xlarge'];

describe('nvcf tasks command line', () => {
  it('the help names the exit codes of tasks watch', async () => {
    const io = memoryIo();
    expect(await run(['--help'], io)).toBe(EXIT.ok);
    expect(io.out).toContain('tasks watch: the task COMPLETED');
    expect(io.out).toContain('tasks watch: the task ended ERRORED, CANCELED or EXCEEDED_*');
    const sub = memoryIo();
    expect(await run(['tasks', '--help'], sub)).toBe(EXIT.ok);
    for (const cmd of ['create', 'get', 'list', 'cancel', 'watch'])
      expect(sub.out).toMatch(new RegExp(`^  ${cmd}\\b`, 'm'));
  });

  it.each([
    [['tasks', 'create', 'x', '--container-image', 'i', '--gpu', 'L40S'], /required option '--instance-type <type>'/],
    [
      ['tasks', 'create', 'x', ...GPU],
      /error: say what it runs: --helm-chart URI --helm-service NAME, or --container-image IMAGE\nhint: operator workloads: -f/,
    ],
    [['tasks', 'create', 'x', '--helm-chart', 'oci://c-1.0.0.tgz', '--container-image', 'i', ...GPU], /exclusive/],
    [
      ['tasks', 'create', 'x', '-f', 'm.yaml', '--container-image', 'i', ...GPU],
      /-f \(operator manifests\) and .* are exclusive/,
    ],
    [['tasks', 'create', 'x', '--operator-type', 'nim', ...GPU], /--operator-type needs the manifests/],
    [
      ['tasks', 'create', 'x', '--container-image', 'i', '--env', 'NOEQUALS', ...GPU],
      /--env NOEQUALS: expected KEY=VALUE/,
    ],
    [
      ['tasks', 'create', 'x', '--container-image', 'i', '--set', 'novalue', ...GPU],
      /--set novalue: expected key=value/,
    ],
    [['tasks', 'create', 'x', '-f', 'no-such.yaml', ...GPU], /-f no-such.yaml: no such file/],
    [
      ['tasks', 'create', 'x', '--container-image', 'i', '--watch', '-o', 'id', ...GPU],
      /-o id prints the ids of a result/,
    ],
    [['tasks', 'watch', 'id', '--interval', 'soon'], /--interval must be an integer/],
    [['tasks', 'watch', 'id', '-o', 'id'], /-o id prints the ids of a result/],
    [['tasks', 'list', '--status', 'DONE'], /--status DONE: one of QUEUED, LAUNCHED, RUNNING, COMPLETED/],
    [['tasks', 'get'], /missing required argument 'task-id'/],
  ])('%j exits 2 before sending anything', async (argv, message) => {
    const io = memoryIo({ env, cwd: '/nonexistent' });
    expect(await run(argv, io)).toBe(EXIT.usage);
    expect(io.err).toMatch(message);
  });

  it('reaching the gateway: an unreachable one exits 4', async () => {
    const io = memoryIo({ env });
    expect(await run(['tasks', 'create', 'x', '--container-image', 'i', ...GPU], io)).toBe(EXIT.unavailable);
    expect(io.err).toMatch(/^error: UNAVAILABLE: /);
  });
});

describe('nvcf tasks watch', () => {
  let server: Server;
  let url: string;
  /** what the fake gateway answers to queries, in turn: a reply body, or an HTTP status without one */
  let replies: (object | number)[];
  let requests = 0;
  /** what it answers to taskStatusChanged, per subscription in turn: the statuses it pushes (kept open), or an HTTP status */
  let streams: (string[] | number)[];
  let subscriptions = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if ((req.headers.accept ?? '').includes('text/event-stream')) {
          const s = streams[Math.min(subscriptions++, streams.length - 1)];
          if (typeof s === 'number') return res.writeHead(s).end();
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          s.forEach((status, i) => {
            const event = { cursor: `s${i}`, at: '2026-12-02T12:00:00.000Z', status, message: null };
            const data = { taskStatusChanged: { ...event, task: { id: 't1', status }, lag: null } };
            res.write(`event: next\nid: s${i}\ndata: ${JSON.stringify({ data })}\n\n`);
          });
          return;
        }
        const r = replies[Math.min(requests++, replies.length - 1)];
        if (typeof r === 'number') res.writeHead(r).end();
        else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(r));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });

  const event = (n: number, status: string, message: string | null = null) => ({
    cursor: `c${n}`,
    at: `2026-12-02T12:00:0${n}.000Z`,
    status,
    message,
  });
  const task = (status: string, events: object[], message: string | null = null) => ({
    data: { task: { id: 't1', status, message, events } },
  });

  it('reads the task again when the subscription announces a transition, waits out outages, exits 0 on COMPLETED', async () => {
    requests = 0;
    subscriptions = 0;
    // the client retries a query twice itself: three 503s in a row reach the watch
    replies = [
      task('QUEUED', [event(1, 'QUEUED')]),
      503,
      503,
      503,
      task('COMPLETED', [event(1, 'QUEUED'), event(2, 'RUNNING'), event(3, 'COMPLETED', 'done')], 'done'),
    ];
    // the first subscription is refused (it reconnects); the second's snapshot is a status already printed, then RUNNING
    streams = [503, ['QUEUED', 'RUNNING']];
    const io = memoryIo({ env: { NVCF_URL: url, NVCF_TOKEN: 't' } });
    expect(await run(['tasks', 'watch', 't1', '--interval', '10'], io)).toBe(EXIT.ok);
    expect(io.out).toBe(
      '2026-12-02T12:00:01Z t1 QUEUED\n' + '2026-12-02T12:00:02Z t1 RUNNING\n2026-12-02T12:00:03Z t1 COMPLETED: done\n',
    );
    expect(subscriptions).toBe(2);
    // QUEUED from the subscription read nothing: one first read, three failed ones, one more
    expect(requests).toBe(5);
    const retries = io.err.trimEnd().split('\n');
    expect(retries).toHaveLength(2);
    expect(retries[0]).toMatch(/^retrying in \d+ ms: UNAVAILABLE: /);
    expect(retries[1]).toMatch(/^retrying in 10 ms: UNAVAILABLE: /);
  });

  it('Ctrl-C stops a watch of a task that does not end (130) and says how to resume', async () => {
    requests = 0;
    subscriptions = 0;
    replies = [task('QUEUED', [event(1, 'QUEUED')])];
    streams = [['QUEUED']];
    const stop = new AbortController();
    const io = memoryIo({ env: { NVCF_URL: url, NVCF_TOKEN: 't' }, signal: stop.signal });
    const done = run(['tasks', 'watch', 't1', '--interval', '10'], io);
    while (subscriptions < 1) await new Promise((r) => setTimeout(r, 5));
    stop.abort();
    expect(await done).toBe(EXIT.interrupted);
    expect(io.out).toBe('2026-12-02T12:00:01Z t1 QUEUED\n');
    expect(io.err).toBe('stopped watching; resume with: nvcf tasks watch t1\n');
    expect(requests).toBe(1);
  });

  it('the first read failing ends the watch (exit 4); an end other than COMPLETED exits 1 with its message', async () => {
    requests = 0;
    replies = [503];
    const down = memoryIo({ env: { NVCF_URL: url, NVCF_TOKEN: 't' } });
    expect(await run(['tasks', 'watch', 't1', '--interval', '10'], down)).toBe(EXIT.unavailable);

    requests = 0;
    replies = [task('ERRORED', [event(1, 'QUEUED'), event(2, 'ERRORED', 'exit code 3')], 'exit code 3')];
    const io = memoryIo({ env: { NVCF_URL: url, NVCF_TOKEN: 't' } });
    expect(await run(['tasks', 'watch', 't1', '-o', 'json'], io)).toBe(EXIT.taskNotCompleted);
    expect(
      io.out
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([
      { type: 'event', taskId: 't1', ...event(1, 'QUEUED') },
      { type: 'event', taskId: 't1', ...event(2, 'ERRORED', 'exit code 3') },
    ]);
    expect(io.err).toBe('task t1 ended ERRORED: exit code 3\n');
  });
});
