/**
 * `nvcf completion bash|zsh|fish`: each script is syntax-checked by its shell and then asked, the
 * way the shell asks it on TAB, what follows a few command lines. zsh and fish run where they are
 * installed (test/services/ci-prereqs.sh installs them); bash always.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildProgram, EXIT, memoryIo, run } from '../src/index.js';

const installed = (shell: string) => spawnSync(shell, ['-c', 'true']).status === 0;
const withShell = (shell: string) => (installed(shell) ? it : it.skip);

const topLevel = buildProgram(memoryIo(), () => {}).commands.map((c) => c.name());

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nvcf-completion-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function script(shell: string): Promise<string> {
  const io = memoryIo();
  expect(await run(['completion', shell], io)).toBe(EXIT.ok);
  expect(io.err).toBe('');
  const file = path.join(dir, `nvcf.${shell}`);
  fs.writeFileSync(file, io.out);
  return file;
}

/** What a program run by `shell` printed. */
const sh = (shell: string, program: string) => execFileSync(shell, ['-c', program], { encoding: 'utf8' });

describe('nvcf completion', () => {
  it('refuses a shell it does not know (exit 2)', async () => {
    const io = memoryIo();
    expect(await run(['completion', 'tcsh'], io)).toBe(EXIT.usage);
    expect(io.err).toMatch(/Allowed choices are bash, zsh, fish/);
  });

  it('bash: valid syntax; completes commands, subcommands, flags and their choices', async () => {
    const file = await script('bash');
    execFileSync('bash', ['-n', file]);
    const probe = (...words: string[]) =>
      sh(
        'bash',
        `source ${file}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _nvcf; printf '%s\\n' "\${COMPREPLY[@]}"`,
      )
        .split('\n')
        .filter(Boolean);
    expect(probe('nvcf', '')).toEqual(expect.arrayContaining(topLevel));
    expect(topLevel).toEqual(expect.arrayContaining(['functions', 'clusters', 'deploy', 'completion']));
    expect(probe('nvcf', 'gpu')).toEqual(['gpu-spec']);
    // a global option and its value before the command do not count as commands
    expect(probe('nvcf', '--url', 'http://x', 'functions', '')).toEqual(['list', 'get', 'undeploy', 'create', 'help']);
    expect(probe('nvcf', 'functions', 'list', '-o', '')).toEqual(['table', 'json', 'yaml', 'id']);
    expect(probe('nvcf', 'deploy', 'v1', '--gpu', 'L40S', '--w')).toEqual(['--watch']);
    expect(probe('nvcf', 'completion', '')).toEqual(['bash', 'zsh', 'fish']);
    // a value without choices (a file): nothing, so bash falls back to file names
    expect(probe('nvcf', 'deploy', '--values', '')).toEqual([]);
  });

  withShell('zsh')('zsh: valid syntax; completes through _describe and compadd', async () => {
    const file = await script('zsh');
    execFileSync('zsh', ['-n', file]);
    // compsys is stubbed: each helper prints what it was handed
    const probe = (...words: string[]) =>
      sh(
        'zsh',
        [
          'compdef() { :; }',
          `_describe() { shift 3; print -rl -- "\${(@P)1}"; }`,
          'compadd() { shift; print -rl -- "${(@P)1}"; }',
          '_files() { print -r -- FILES; }',
          `source ${file}`,
          `words=(${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length}; _nvcf`,
        ].join('\n'),
      )
        .split('\n')
        .filter(Boolean);
    const names = (lines: string[]) => lines.map((l) => l.replace(/(?<!\\):.*/, ''));
    expect(names(probe('nvcf', ''))).toEqual(expect.arrayContaining(topLevel));
    expect(probe('nvcf', '')).toContain('clusters:clusters you may deploy to, their GPUs and instance types');
    expect(names(probe('nvcf', '--token', 't', 'rollout', ''))).toEqual(['status', 'help']);
    expect(probe('nvcf', 'clusters', '--output', '')).toEqual(['table', 'json', 'yaml', 'id']);
    expect(probe('nvcf', 'operator', 'submit', '-f', '')).toEqual(['FILES']);
    expect(names(probe('nvcf', 'clusters', '-'))).toContain('--output');
  });

  withShell('fish')('fish: valid syntax; complete -C answers from it', async () => {
    const file = await script('fish');
    execFileSync('fish', ['-n', file]);
    const probe = (line: string) =>
      sh('fish', `source ${file}; complete -C${JSON.stringify(line)}`)
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]);
    expect(probe('nvcf ')).toEqual(expect.arrayContaining(topLevel));
    expect(probe('nvcf --url x gpu-spec ').sort()).toEqual(['get', 'help', 'rollback', 'update']);
    expect(probe('nvcf watch -o ').sort()).toEqual(['id', 'json', 'table', 'yaml']);
    expect(probe('nvcf completion ').sort()).toEqual(['bash', 'fish', 'zsh']);
  });
});
