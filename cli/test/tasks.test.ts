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
