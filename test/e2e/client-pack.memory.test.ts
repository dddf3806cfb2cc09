/**
 * The published shape of @nvcf/client: `npm pack`, installed from the tarball into a folder outside
 * the monorepo (its dependencies from the registry, as a user gets them), then a typed program
 * checked by `tsc --noEmit` and a plain `node` program run against the embedded system.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startSystem, type System } from '@nvcf/local';
import { buildDist } from '../src/index.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, maxBuffer: 16 << 20 });

const typedProgram = `
import { createClient, NvcfError, FunctionsDocument, CreateFunctionDocument, type StatusEvent, type WatchItem } from '@nvcf/client';

const client = createClient({ url: process.env.NVCF_URL!, token: 'dev-token-a' });
const created = await client.mutate(CreateFunctionDocument, { input: { name: 'packed', helm: { chart: 'oci://nvcr.io/nca-a/echo-1.2.3.tgz', serviceName: 'echo' } } });
const id: string = created.createFunction.function.id;
const { functions } = await client.query(FunctionsDocument);
const names: string[] = functions.map((f) => f.name);
// @ts-expect-error the variables are typed: createFunction needs its input
await client.mutate(CreateFunctionDocument, {});
// @ts-expect-error the result is typed: there is no such field
functions[0]?.nope;
const onItem = (item: WatchItem): string | undefined => (item.type === 'event' ? (item.event as StatusEvent).state : undefined);
try { await client.query(FunctionsDocument); } catch (e) { if (e instanceof NvcfError) console.log(e.code); }
console.log(id, names, onItem);
declare const process: { env: Record<string, string | undefined> };
`;

const plainProgram = `
import { createClient, NvcfError, FunctionsDocument, CreateFunctionDocument } from '@nvcf/client';
const client = createClient({ url: process.env.NVCF_URL, token: 'dev-token-a' });
const created = await client.mutate(CreateFunctionDocument, { input: { name: 'packed-plain', helm: { chart: 'oci://nvcr.io/nca-a/echo-1.2.3.tgz', serviceName: 'echo' } } });
const { functions } = await client.query(FunctionsDocument);
const refused = await createClient({ url: process.env.NVCF_URL, token: 'wrong' }).query(FunctionsDocument).catch((e) => e);
console.log(JSON.stringify({ id: created.createFunction.function.id, names: functions.map((f) => f.name), refused: refused instanceof NvcfError ? refused.code : String(refused) }));
`;

describe('@nvcf/client, packed and installed outside the monorepo', () => {
  let system: System;
  let dir: string;
  beforeAll(async () => {
    await buildDist();
    system = await startSystem();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nvcf-client-user-'));
  }, 300_000);
  afterAll(async () => {
    await system?.dispose();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('packs only its built files, installs from the tarball, type-checks a typed program and runs a plain one', async () => {
    const { stdout } = await npm(['pack', '--json', '--pack-destination', dir], path.join(ROOT, 'client'));
    const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
    const files = packed.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/generated/graphql.js',
        'persisted-documents.json',
      ]),
    );
    expect(files.filter((f) => f.startsWith('src/') || f.includes('.test.') || f.endsWith('.tsbuildinfo'))).toEqual([]);

    fs.writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'nvcf-client-user', private: true, type: 'module' }),
    );
    await npm(['install', path.join(dir, packed.filename)], dir);
    expect(fs.realpathSync(path.join(dir, 'node_modules/@nvcf/client')).startsWith(ROOT)).toBe(false);

    fs.writeFileSync(path.join(dir, 'program.ts'), typedProgram);
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          lib: ['ES2022', 'DOM'],
          types: [],
        },
        files: ['program.ts'],
      }),
    );
    // the monorepo's compiler, but only the folder's own node_modules to resolve against
    await run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir]).catch(
      (e: { stdout?: string }) => {
        throw new Error(`tsc --noEmit failed on the packed client:\n${e.stdout}`);
      },
    );

    fs.writeFileSync(path.join(dir, 'program.mjs'), plainProgram);
    const out = await run(process.execPath, [path.join(dir, 'program.mjs')], {
      cwd: dir,
      env: { ...process.env, NVCF_URL: system.url, NODE_OPTIONS: '' },
    });
    const result = JSON.parse(out.stdout) as { id: string; names: string[]; refused: string };
    expect(result.id).toMatch(/\S/);
    expect(result.names).toContain('packed-plain');
    expect(result.refused).toBe('UNAUTHENTICATED');
  }, 240_000);
});
