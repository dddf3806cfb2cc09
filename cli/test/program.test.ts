import { EXIT, memoryIo, run } from '../src/index.js';

describe('nvcf command line', () => {
  it('--version and --help exit 0; the help lists the exit codes', async () => {
    const v = memoryIo();
    expect(await run(['--version'], v)).toBe(EXIT.ok);
    expect(v.out).toMatch(/^\d+\.\d+\.\d+\n$/);
    const h = memoryIo();
    expect(await run(['--help'], h)).toBe(EXIT.ok);
    expect(h.out).toContain('Exit codes:');
    expect(h.out).toContain('130  interrupted');
  });

  it.each([
    [['bogus'], /unknown command 'bogus'/],
    [[], /Usage: nvcf/],
    [['deploy', 'v1', '--gpu', 'L40S'], /required option '--instance-type <type>'/],
    [
      ['deploy', 'v1', '--gpu', 'L40S', '--instance-type', 't', '--min', 'two', '--max', '2'],
      /--min must be an integer/,
    ],
    [['functions', 'list', '-o', 'xml'], /Allowed choices are table, json, yaml/],
  ])('a bad command line %j exits 2', async (argv, message) => {
    const io = memoryIo();
    expect(await run(argv, io)).toBe(EXIT.usage);
    expect(io.err).toMatch(message);
  });

  it('without a URL or a token, says where to configure them (exit 2, nothing sent)', async () => {
    const io = memoryIo({ env: { XDG_CONFIG_HOME: '/nonexistent' } });
    expect(await run(['functions', 'list'], io)).toBe(EXIT.usage);
    expect(io.err).toBe(
      'error: no gateway URL\nhint: pass --url URL, set NVCF_URL, or run `nvcf login --url URL --token TOKEN`\n',
    );
  });

  it('checks --set before it reads anything from the gateway', async () => {
    const io = memoryIo({ env: { NVCF_URL: 'http://127.0.0.1:1/graphql', NVCF_TOKEN: 't' } });
    expect(await run(['gpu-spec', 'update', 'spec', '--set', 'novalue'], io)).toBe(EXIT.usage);
    expect(io.err).toContain('error: --set novalue: expected key=value');
  });

  it('an unreachable gateway exits 4 with the code and what to do', async () => {
    const io = memoryIo({ env: { NVCF_URL: 'http://127.0.0.1:1/graphql', NVCF_TOKEN: 't' } });
    expect(await run(['functions', 'list'], io)).toBe(EXIT.unavailable);
    expect(io.err).toMatch(
      /^error: UNAVAILABLE: cannot reach the gateway at http:\/\/127\.0\.0\.1:1\/graphql: .*\nhint: check --url/,
    );
  });
});
