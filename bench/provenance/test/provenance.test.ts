import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { commandLine, gitCommit, startRun, type Run } from '../run.js';
import { mergeSections } from '../latest.js';
import { runLine } from '../render.js';

const npm = (event: string, script: string, args: string[]) => ({
  argv: ['/usr/bin/node', `/repo/${script}`, ...args],
  execArgv: ['--conditions=source', '--import', 'tsx'],
  env: { npm_lifecycle_event: event, npm_lifecycle_script: `exec node --conditions=source --import tsx ${script}` },
  cwd: '/repo',
});

const run = (over: Partial<Run> = {}): Run => ({
  commit: 'abc1234',
  command: 'npm run bench:queries',
  started_at: '2026-12-01T10:00:00.000Z',
  duration_s: 60,
  machine: { cpu: 'AMD EPYC', cores: 2, memory_gib: 24 },
  node: 'v20.20.2',
  load_avg_1m: 0.3,
  ...over,
});

describe('the run record of a benchmark section', () => {
  it('gives the command as typed: through npm with its arguments, or node with its flags', () => {
    expect(commandLine(npm('bench:fleet', 'bench/fleet.ts', ['--single', '--sizes', '10x1000']))).toBe(
      'npm run bench:fleet -- --single --sizes 10x1000',
    );
    expect(commandLine(npm('bench', 'bench/run.ts', []))).toBe('npm run bench');
    // an npm script's variables leak into whatever it starts: another script is not that npm script
    expect(
      commandLine({ ...npm('test', 'node_modules/jest/bin/jest.js', []), argv: ['node', '/repo/bench/rollout.ts'] }),
    ).toBe('node --conditions=source --import tsx bench/rollout.ts');
    expect(commandLine({ ...npm('bench', 'bench/run.ts', ['--only', 'a b']) })).toBe("npm run bench -- --only 'a b'");
  });

  it('marks the commit dirty for uncommitted code, not for results written by the benchmark', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-prov-'));
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
    git('init', '-q');
    mkdirSync(path.join(dir, 'bench/results'), { recursive: true });
    writeFileSync(path.join(dir, 'code.ts'), '1');
    writeFileSync(path.join(dir, 'bench/results/latest.json'), '{}');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'x');
    const head = git('rev-parse', '--short', 'HEAD');
    expect(gitCommit(dir)).toBe(head);
    writeFileSync(path.join(dir, 'bench/results/latest.json'), '{"a":1}');
    expect(gitCommit(dir)).toBe(head);
    writeFileSync(path.join(dir, 'code.ts'), '2');
    expect(gitCommit(dir)).toBe(`${head}-dirty`);
    expect(gitCommit(tmpdir())).toBeNull();
  });

  it('takes the machine, Node and load at the start and the duration at the end', () => {
    const r = startRun(npm('bench', 'bench/run.ts', []), new Date('2026-12-01T10:00:00Z')).finish(
      new Date('2026-12-01T10:01:30Z'),
    );
    expect(r).toMatchObject({ command: 'npm run bench', started_at: '2026-12-01T10:00:00.000Z', duration_s: 90 });
    expect(Object.keys(r)).toEqual(['commit', 'command', 'started_at', 'duration_s', 'machine', 'node', 'load_avg_1m']);
    expect(r.machine?.cores).toBeGreaterThan(0);
    expect(typeof r.load_avg_1m).toBe('number');
  });
});

describe('latest.json by section', () => {
  it('replaces only the sections merged, each with its run, and drops the file-wide fields', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'bench-latest-')), 'latest.json');
    writeFileSync(
      file,
      JSON.stringify({
        date: '2026-11-29T00:00:00Z',
        machine: 'linux',
        rollout: { run: run({ commit: 'old1234' }), instances_100_s: 1 },
        queries: { run: run({ commit: 'old1234' }), ours_rps: 1 },
      }),
    );
    mergeSections({ queries: { run: run(), ours_rps: 2 } }, file);
    const after = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(after)).toEqual(['queries', 'rollout']);
    expect(after.queries).toEqual({ run: run(), ours_rps: 2 });
    expect(after.rollout.run.commit).toBe('old1234');
  });

  it('prints unknown for what a run did not record, never a guess', () => {
    expect(runLine(run())).toBe(
      'Run: from 2026-12-01, commit abc1234, AMD EPYC, 2 cores, 24 GiB, Node v20.20.2, load average 0.3, 60 s; `npm run bench:queries`.',
    );
    const old = run({
      commit: null,
      started_at: null,
      duration_s: null,
      load_avg_1m: null,
      backfilled: { recorded_in: '2326e82', recorded_at: '2026-11-29T13:41:31.706Z', note: 'from the git log' },
    });
    expect(runLine(old)).toMatch(
      /^Run: from 2026-11-29, recorded in commit 2326e82, AMD EPYC, 2 cores, 24 GiB, Node v20\.20\.2, load average unknown, duration unknown; `npm run bench:queries` \(reconstructed/,
    );
  });
});
