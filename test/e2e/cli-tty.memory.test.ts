import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSimulatedCluster } from '@nvcf/agent';
import { startSystem, type System } from '@nvcf/local';
import { waitUntil } from '@nvcf/testing';
import { EXIT } from '@nvcf/cli';
import { fast } from './suites/system.js';
import { cliAgainst, nvcfBin } from '../src/cli.js';

const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
const STEP_MS = 2000;

/**
 * Simulated clusters whose in-place updates finish one instance after another (STEP_MS apart,
 * across both clusters), so that a screen captured mid-rollout has some instances applied and
 * others still UPDATING.
 */
function staggeredUpdates() {
  const nth = new Map<string, number>();
  return (clusterId: string) => {
    const inner = createSimulatedCluster({ clusterId, startDelayMs: 20, updateDelayMs: 20 });
    return {
      ...inner,
      async apply(desired: Parameters<typeof inner.apply>[0], signal: AbortSignal) {
        if (await inner.observe(desired.instanceId)) {
          const n = (nth.get(desired.revisionId) ?? 0) + 1;
          nth.set(desired.revisionId, n);
          await new Promise<void>((resolve, reject) => {
            const t = setTimeout(resolve, n * STEP_MS);
            signal.addEventListener(
              'abort',
              () => {
                clearTimeout(t);
                reject(signal.reason instanceof Error ? signal.reason : new Error('aborted', { cause: signal.reason }));
              },
              { once: true },
            );
          });
        }
        return inner.apply(desired, signal);
      },
    };
  };
}

/** `nvcf rollout status --watch` on a real pseudo-terminal: tmux, 100×24, its screen captured. */
describe('nvcf rollout status --watch in a terminal (tmux)', () => {
  const socket = `nvcf-cli-test-${process.pid}`;
  const tmux = (...args: string[]) =>
    execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  let system: System;

  beforeAll(async () => {
    if (spawnSync('tmux', ['-V']).status !== 0)
      throw new Error('tmux is needed for this test: apt-get install tmux (test/services/ci-prereqs.sh installs it)');
    system = await startSystem({ ...fast, revisionDeadlineMs: 600_000, driver: staggeredUpdates() });
  });
  afterAll(async () => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    await system?.dispose();
  });

  it('draws the progress bar and the instance table in place, then exits 0 once APPLIED', async () => {
    const cli = cliAgainst(system.url);
    const v = (
      await cli.nvcf([
        'functions',
        'create',
        'echo',
        '--helm-chart',
        'oci://nvcr.io/nca-a/echo-1.2.3.tgz',
        '--helm-service',
        'echo',
        '-o',
        'json',
      ])
    ).json<{ id: string }>();
    const d = await cli.nvcf([
      'deploy',
      v.id,
      '--gpu',
      'L40S',
      '--instance-type',
      'gl40s_1.br25_2xlarge',
      '--min',
      '4',
      '--max',
      '4',
      '--set',
      'model=v1',
      '--watch',
    ]);
    expect(d.code).toBe(EXIT.ok);
    const specId = /^([0-9a-f-]{36})\s+L40S/m.exec(d.out)![1];
    expect((await cli.nvcf(['gpu-spec', 'update', specId, '--set', 'model=v2'])).code).toBe(EXIT.ok);

    const dir = mkdtempSync(join(tmpdir(), 'nvcf-tty-'));
    const exitFile = join(dir, 'exit');
    const script = join(dir, 'run.sh');
    const env = { ...cli.env, NVCF_CLI_SOURCE: '1', TERM: 'xterm-256color' };
    // the pane stays after the command, so that its last screen can be read too
    writeFileSync(
      script,
      `${Object.entries(env)
        .map(([k, v]) => `export ${k}='${v}'`)
        .join(
          '\n',
        )}\n'${process.execPath}' '${nvcfBin}' rollout status ${specId} --watch\necho $? > '${exitFile}'\nexec sleep 600\n`,
    );
    tmux('new-session', '-d', '-s', 'cli', '-x', '100', '-y', '24', `bash '${script}'`);
    const screen = () => tmux('capture-pane', '-p', '-t', 'cli');

    // mid-rollout: some instances applied, the others still UPDATING
    const mid = await waitUntil(
      () => {
        const s = screen();
        return (
          /^[\u2588\u2591]+ [1-3]\/4 applied \| [1-3] updating \| 0 failed \| deadline in 09m\d\ds$/m.test(s) &&
          /UPDATING/.test(s) &&
          s
        );
      },
      { what: 'the live view mid-rollout', timeoutMs: 30_000, intervalMs: 100 },
    );
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, 'cli-rollout-status-watch.txt'), mid);
    writeFileSync(join(ARTIFACTS, 'cli-rollout-status-watch.ansi'), tmux('capture-pane', '-p', '-e', '-t', 'cli'));
    expect(mid).toMatch(new RegExp(`^GPU specification ${specId}  echo · L40S gl40s_1\\.br25_2xlarge$`, 'm'));
    expect(mid).toMatch(/^revision \S+ {2}ROLLING_OUT$/m);
    expect(mid).toMatch(/^INSTANCE {2,}CLUSTER {2,}STATE {2,}REVISION$/m);
    const rows = mid.split('\n').filter((l) => /^[0-9a-f-]{36} {2,}cluster-[ab] /.test(l));
    expect(rows).toHaveLength(4);
    expect(rows.some((r) => /ACTIVE {2,}[0-9a-f]{8}$/.test(r))).toBe(true);
    expect(rows.some((r) => /UPDATING {2,}[0-9a-f]{8} → [0-9a-f]{8}$/.test(r))).toBe(true);

    await waitUntil(() => existsSync(exitFile), { what: 'the command to exit', timeoutMs: 30_000 });
    expect(readFileSync(exitFile, 'utf8').trim()).toBe(String(EXIT.ok));
    const last = screen();
    writeFileSync(join(ARTIFACTS, 'cli-rollout-status-watch-end.txt'), last);
    expect(last).toMatch(/^\u2588+ 4\/4 applied \| 0 updating \| 0 failed \| applied \S+Z$/m);
    expect(last).toMatch(/^revision \S+ APPLIED \(4\/4\)$/m);
    // one frame, redrawn in place: the header is on the screen once
    expect(last.match(/^GPU specification /gm)).toHaveLength(1);
  }, 90_000);
});
