import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { startSystem, type System } from '@nvcf/local';
import { startGateway, type RunningGateway } from '@nvcf/gateway';
import { staticTokens, DEV_TOKENS } from '@nvcf/auth';
import { waitUntil } from '@nvcf/testing';
import { EXIT } from '@nvcf/cli';
import { fast } from './suites/system.js';
import { watchSubscriptions } from '@nvcf/test';
import { cliAgainst, runBin } from '../src/cli.js';

interface Spec {
  id: string;
  configuration: unknown;
  minInstances: number;
  maxInstances: number;
  latestRevision: { id: string; status: string; configuration: unknown; manifestMergePatches: unknown[] | null } | null;
  instances: { id: string; revisionId: string | null }[];
}
interface Version {
  id: string;
  status: string;
  workloadType: string;
  operatorTypes: string[] | null;
  function: { id: string; name: string };
}
type Item = { type: string; result?: string; state?: string; instanceId?: string; revisionId?: string };

const files = mkdtempSync(join(tmpdir(), 'nvcf-cli-files-'));
const file = (name: string, text: string) => {
  writeFileSync(join(files, name), text);
  return name;
};

/** Every command of `nvcf` against the embedded system, in-process through run(argv, io). */
describe('nvcf CLI against the embedded system', () => {
  let system: System;
  let cli: ReturnType<typeof cliAgainst>;
  const nvcf = (argv: string[], opts?: Parameters<typeof cli.nvcf>[1]) => cli.nvcf(argv, { cwd: files, ...opts });

  beforeAll(async () => {
    system = await startSystem(fast);
    cli = cliAgainst(system.url);
  });
  afterAll(async () => system?.dispose());

  /** A Helm function deployed on `instances` instances, its first revision applied. */
  async function deployed(instances = 2, configuration = ['replicas=1', 'model=v1']) {
    const v = (
      await nvcf([
        'functions',
        'create',
        `fn-${Date.now().toString(36)}`,
        '--helm-chart',
        'oci://nvcr.io/nca-a/echo-1.2.3.tgz',
        '--helm-service',
        'echo',
        '--inference-url',
        '/v1/infer',
        '--inference-port',
        '8000',
        '-o',
        'json',
      ])
    ).json<Version>();
    const d = await nvcf([
      'deploy',
      v.id,
      '--gpu',
      'L40S',
      '--instance-type',
      'gl40s_1.br25_2xlarge',
      '--min',
      String(instances),
      '--max',
      String(instances),
      ...configuration.flatMap((c) => ['--set', c]),
      '--watch',
    ]);
    expect(d.code).toBe(EXIT.ok);
    const specId = /^([0-9a-f-]{36})\s+L40S/m.exec(d.out)![1];
    return { versionId: v.id, functionId: v.function.id, specId };
  }
  const spec = async (id: string) => (await nvcf(['gpu-spec', 'get', id, '-o', 'json'])).json<Spec>();

  describe('configuration', () => {
    it('login proves the token before saving it, 0600; flags beat NVCF_* beat the file', async () => {
      const noEnv = { NVCF_URL: undefined, NVCF_TOKEN: undefined };
      const refused = await nvcf(['login', '--url', system.url, '--token', 'wrong'], { env: noEnv });
      expect(refused.code).toBe(EXIT.api);
      expect(refused.err).toContain('error: UNAUTHENTICATED:');
      expect((await nvcf(['config', 'view', '-o', 'json'], { env: noEnv })).json()).toMatchObject({
        url: null,
        token: null,
      });

      const ok = await nvcf(['login', '--url', system.url, '--token-stdin'], { env: noEnv, stdin: 'dev-token-b\n' });
      expect(ok.code).toBe(EXIT.ok);
      const saved = join(cli.configHome, 'nvcf', 'config.json');
      expect(statSync(saved).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(saved, 'utf8'))).toEqual({ url: system.url, token: 'dev-token-b' });
      expect((await nvcf(['config', 'view', '-o', 'json'], { env: noEnv })).json()).toMatchObject({
        url: { source: 'file' },
        token: { value: 'dev-…-b', source: 'file' },
      });
      expect((await nvcf(['config', 'view', '-o', 'json'], { env: { NVCF_URL: undefined } })).json()).toMatchObject({
        url: { source: 'file' },
        token: { source: 'env' },
      });
      expect((await nvcf(['--token', 'x', 'config', 'view', '-o', 'json'])).json()).toMatchObject({
        url: { source: 'env' },
        token: { source: 'flag' },
      });

      // the file's token is tenant b's: a's function is not visible with it, and is with the variable
      const a = await nvcf([
        'functions',
        'create',
        'only-a',
        '--container-image',
        'nvcr.io/nca-a/echo:1',
        '-o',
        'json',
      ]);
      const fnA = a.json<Version>().function.id;
      expect((await nvcf(['functions', 'get', fnA], { env: { NVCF_TOKEN: undefined } })).code).toBe(EXIT.api);
      expect((await nvcf(['functions', 'get', fnA])).code).toBe(EXIT.ok);

      expect((await nvcf(['logout'], { env: noEnv })).code).toBe(EXIT.ok);
      expect((await nvcf(['config', 'view', '-o', 'json'], { env: noEnv })).json()).toMatchObject({
        url: { source: 'file' },
        token: null,
      });
    });
  });

  describe('functions, clusters, deploy', () => {
    it('create (Helm, container, a new version), list and get in every output format', async () => {
      const helm = await nvcf([
        'functions',
        'create',
        'echo',
        '--helm-chart',
        'oci://nvcr.io/nca-a/echo-1.2.3.tgz',
        '--helm-service',
        'echo',
        '--inference-url',
        '/v1/infer',
        '--inference-port',
        '8000',
        '-o',
        'json',
      ]);
      expect(helm.code).toBe(EXIT.ok);
      const v1 = helm.json<Version>();
      expect(v1).toMatchObject({ status: 'INACTIVE', workloadType: 'HELM', function: { name: 'echo' } });

      const ctr = await nvcf([
        'functions',
        'create',
        '--function',
        v1.function.id,
        '--container-image',
        'nvcr.io/nca-a/echo:2',
        '--arg',
        '--port=8000',
        '--env',
        'MODE=fast',
        '-o',
        'yaml',
      ]);
      expect(ctr.code).toBe(EXIT.ok);
      expect(YAML.parse(ctr.out)).toMatchObject({
        workloadType: 'CONTAINER',
        containerImage: 'nvcr.io/nca-a/echo:2',
        containerArgs: ['--port=8000'],
        function: { id: v1.function.id },
      });

      const list = await nvcf(['functions', 'list', '-o', 'json']);
      expect(
        list.json<{ id: string; versions: unknown[] }[]>().find((f) => f.id === v1.function.id)?.versions,
      ).toHaveLength(2);
      const table = await nvcf(['functions', 'list']);
      expect(table.out).toMatch(/^ID\s+NAME\s+VERSIONS\s+LATEST VERSION\s+STATUS\s+WORKLOAD\s+CREATED$/m);
      expect(table.out).toMatch(new RegExp(`^${v1.function.id}\\s+echo\\s+2\\s`, 'm'));

      const get = await nvcf(['functions', 'get', v1.function.id, '-o', 'yaml']);
      expect(YAML.parse(get.out)).toMatchObject({ id: v1.function.id, name: 'echo', ncaId: 'nca-a' });
      expect((await nvcf(['functions', 'get', v1.function.id])).out).toContain('oci://nvcr.io/nca-a/echo-1.2.3.tgz');
    });

    it('create refuses an incomplete workload before sending anything (exit 2)', async () => {
      for (const argv of [
        ['functions', 'create', 'x'],
        ['functions', 'create', 'x', '--helm-chart', 'oci://r/c-1.0.0.tgz'],
        ['functions', 'create', 'x', '--container-image', 'i', '--env', 'NOEQUALS'],
      ]) {
        const r = await nvcf(argv);
        expect(r.code).toBe(EXIT.usage);
        expect(r.err).toMatch(/^error: /);
      }
    });

    it('clusters lists where to deploy', async () => {
      const r = await nvcf(['clusters', '-o', 'json']);
      expect(
        r
          .json<{ id: string; gpus: { name: string }[] }[]>()
          .map((c) => c.id)
          .sort(),
      ).toEqual(system.clusters.map((c) => c.id).sort());
    });

    it('deploy --watch follows the first rollout to APPLIED (exit 0); -o json without --watch is the deployment', async () => {
      const { specId } = await deployed(2);
      expect((await spec(specId)).latestRevision).toMatchObject({
        status: 'APPLIED',
        configuration: { replicas: 1, model: 'v1' },
      });
      const v = (
        await nvcf([
          'functions',
          'create',
          'plain',
          '--helm-chart',
          'oci://nvcr.io/nca-a/echo-1.2.3.tgz',
          '--helm-service',
          'echo',
          '-o',
          'json',
        ])
      ).json<Version>();
      const values = file('deploy-values.yaml', 'model: from-file\nimage:\n  tag: v1\n');
      const d = await nvcf([
        'deploy',
        v.id,
        '--gpu',
        'L40S',
        '--instance-type',
        'gl40s_1.br25_2xlarge',
        '--min',
        '1',
        '--max',
        '2',
        '--values',
        values,
        '--set',
        'image.tag=v2',
        '-o',
        'json',
      ]);
      expect(d.code).toBe(EXIT.ok);
      const deployment = d.json<{ gpuSpecifications: { id: string; minInstances: number }[] }>();
      expect(deployment.gpuSpecifications[0]).toMatchObject({ minInstances: 1 });
      expect((await spec(deployment.gpuSpecifications[0].id)).configuration).toEqual({
        model: 'from-file',
        image: { tag: 'v2' },
      });
    });
  });

  describe('-o id, for scripts', () => {
    it('prints only the ids of the result, one per line; refused with --watch (exit 2)', async () => {
      const created = await nvcf([
        'functions',
        'create',
        'ids',
        '--helm-chart',
        'oci://nvcr.io/nca-a/echo-1.2.3.tgz',
        '--helm-service',
        'echo',
        '-o',
        'id',
      ]);
      expect(created.code).toBe(EXIT.ok);
      const versionId = created.out.trim();
      expect(versionId).toMatch(/^[0-9a-f-]{36}$/);
      const deployedIds = await nvcf([
        'deploy',
        versionId,
        '--gpu',
        'L40S',
        '--instance-type',
        'gl40s_1.br25_2xlarge',
        '--min',
        '1',
        '--max',
        '1',
        '-o',
        'id',
      ]);
      const specId = deployedIds.out.trim();
      expect((await spec(specId)).id).toBe(specId);
      const listed = await nvcf(['functions', 'list', '-o', 'id']);
      expect(listed.out.trim().split('\n')).toEqual(
        (await nvcf(['functions', 'list', '-o', 'json'])).json<{ id: string }[]>().map((f) => f.id),
      );
      const undeployed = await nvcf(['functions', 'undeploy', versionId, '-o', 'json']);
      expect(undeployed.code).toBe(EXIT.ok);
      expect(undeployed.json<{ id: string; status: string }>()).toMatchObject({ id: versionId });
      await waitUntil(async () => (await spec(specId)).instances.length === 0, {
        what: "the undeployed version's instances gone",
      });
      const refused = await nvcf(['rollout', 'status', specId, '--watch', '-o', 'id']);
      expect(refused.code).toBe(EXIT.usage);
      expect(refused.err).toMatch(/-o id/);
      expect(refused.out).toBe('');
    });
  });

  describe('gpu-spec and rollouts', () => {
    it('update --set changes only the keys named; --values replaces; --dry-run submits nothing; --min/--max', async () => {
      const { specId } = await deployed(1, ['replicas=1', 'model=v1', 'image.tag=a']);
      const dry = await nvcf(['gpu-spec', 'update', specId, '--set', 'image.tag=b', '--dry-run', '-o', 'json']);
      expect(dry.json()).toEqual({ replicas: 1, model: 'v1', image: { tag: 'b' } });
      const before = (await spec(specId)).latestRevision!.id;
      expect((await spec(specId)).latestRevision!.id).toBe(before);

      const set = await nvcf([
        'gpu-spec',
        'update',
        specId,
        '--set',
        'image.tag=b',
        '--set',
        'replicas=2',
        '--set',
        'model=null',
        '--set-string',
        'chart.version=1.10',
        '-o',
        'json',
      ]);
      expect(set.code).toBe(EXIT.ok);
      expect(set.json<Spec>().latestRevision!.configuration).toEqual({
        replicas: 2,
        image: { tag: 'b' },
        chart: { version: '1.10' },
      });

      const values = file('values.yaml', 'model: v3\n');
      const replaced = await nvcf(['gpu-spec', 'update', specId, '--values', values, '--watch']);
      expect(replaced.code).toBe(EXIT.ok);
      expect((await spec(specId)).configuration).toEqual({ model: 'v3' });

      const bounds = await nvcf(['gpu-spec', 'update', specId, '--max', '3']);
      expect(bounds.code).toBe(EXIT.ok);
      expect(bounds.out).toBe(`GPU specification ${specId} updated: min 1, max 3 instances\n`);
      expect((await spec(specId)).maxInstances).toBe(3);

      const get = await nvcf(['gpu-spec', 'get', specId]);
      expect(get.out).toMatch(/^Latest revision:\s+\S+ APPLIED/m);
      expect(get.out).toContain('Configuration:\n  model: v3\n');
      expect(YAML.parse((await nvcf(['gpu-spec', 'get', specId, '-o', 'yaml'])).out)).toMatchObject({
        id: specId,
        configuration: { model: 'v3' },
      });
    });

    it('update --watch, piped: one line per transition, then `revision … APPLIED (n/n)`, exit 0', async () => {
      const { specId } = await deployed(2);
      const old = (await spec(specId)).latestRevision!.id;
      const r = await nvcf([
        'gpu-spec',
        'update',
        specId,
        '--set',
        'model=v2',
        '--set',
        'nvcfSimulate.delayMs=300',
        '--watch',
      ]);
      expect(r.code).toBe(EXIT.ok);
      const rev = (await spec(specId)).latestRevision!.id;
      const s = await spec(specId);
      for (const i of s.instances) {
        expect(
          r.out.match(
            new RegExp(
              `^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ ${i.id} cluster-[ab] UPDATING ${rev} \\(from ${old}\\)$`,
              'gm',
            ),
          ),
        ).toHaveLength(1);
        expect(r.out.match(new RegExp(`^\\S+ ${i.id} cluster-[ab] ACTIVE ${rev}$`, 'gm'))).toHaveLength(1);
      }
      expect(r.out.trimEnd().split('\n').at(-1)).toBe(`revision ${rev} APPLIED (2/2)`);
      expect(r.err).toBe('');
    });

    it('rollout status --watch -o json: one object per line, the last one the result; an applied revision ends it at once', async () => {
      const { specId } = await deployed(2);
      expect(
        (await nvcf(['gpu-spec', 'update', specId, '--set', 'model=v2', '--set', 'nvcfSimulate.delayMs=800'])).code,
      ).toBe(EXIT.ok);
      const r = await nvcf(['rollout', 'status', specId, '--watch', '-o', 'json']);
      expect(r.code).toBe(EXIT.ok);
      const items = r.lines<Item>();
      expect(items[0]).toMatchObject({ type: 'status', revision: { status: 'ROLLING_OUT' } });
      expect(items.filter((i) => i.type === 'transition' && i.state === 'ACTIVE')).toHaveLength(2);
      expect(items.at(-1)).toMatchObject({
        type: 'result',
        result: 'APPLIED',
        progress: { total: 2, applied: 2, failed: 0 },
      });

      const again = await nvcf(['rollout', 'status', specId, '--watch']);
      expect(again.code).toBe(EXIT.ok);
      expect(again.out).toMatch(/^revision \S+ APPLIED \(2\/2 applied\)\nrevision \S+ APPLIED \(2\/2\)\n$/);
    });

    it("a permanent failure: exit 1, the failing instances' messages on stderr; rollback --watch brings it back (exit 0)", async () => {
      const { specId } = await deployed(2);
      const r = await nvcf(['gpu-spec', 'update', specId, '--set', 'nvcfSimulate.failure=permanent', '--watch']);
      expect(r.code).toBe(EXIT.rolloutFailed);
      const s = await spec(specId);
      expect(r.out).toMatch(new RegExp(`^revision ${s.latestRevision!.id} FAILED \\(0/2 applied, 2 failed\\)$`, 'm'));
      expect(r.err).toMatch(new RegExp(`^error: revision ${s.latestRevision!.id} FAILED: instance `, 'm'));
      for (const i of s.instances)
        expect(r.err).toMatch(
          new RegExp(
            `^  ${i.id} cluster-[ab]: update to revision ${s.latestRevision!.id} failed: values rejected by the chart \\(nvcfSimulate permanent failure`,
            'm',
          ),
        );
      expect(r.err).toContain(
        `hint: fix the configuration and submit a new revision, or roll back: nvcf gpu-spec rollback ${specId}`,
      );

      const status = await nvcf(['rollout', 'status', specId, '-o', 'json']);
      expect(status.code).toBe(EXIT.rolloutFailed);
      expect(status.json()).toMatchObject({ revision: { status: 'FAILED' }, progress: { failed: 2 } });

      const back = await nvcf(['gpu-spec', 'rollback', specId, '--watch']);
      expect(back.code).toBe(EXIT.ok);
      expect((await spec(specId)).configuration).toEqual({ replicas: 1, model: 'v1' });
    });

    it('a revision not applied by its deadline: exit 1, and the instances still on the old revision named', async () => {
      const { specId } = await deployed(1);
      const old = (await spec(specId)).latestRevision!.id;
      const r = await nvcf(['gpu-spec', 'update', specId, '--set', 'nvcfSimulate.delayMs=30000', '--watch']);
      expect(r.code).toBe(EXIT.rolloutFailed);
      expect(r.err).toMatch(/FAILED: deadline .* passed with 0 of 1 instances/);
      const [instance] = (await spec(specId)).instances;
      expect(r.err).toContain(`  ${instance.id} ${/cluster-[ab]/.exec(r.out)![0]}: still UPDATING on ${old}`);
    });
  });

  describe('watch', () => {
    it('streams events as JSON lines until interrupted (130), says how to resume, and --after resumes there', async () => {
      const { functionId, specId } = await deployed(2);
      const stop = new AbortController();
      const subscriptions = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
      const watching = cli.start(['watch', '--function', functionId, '-o', 'json'], { signal: stop.signal });
      await subscriptions.opened(1);
      await nvcf(['gpu-spec', 'update', specId, '--set', 'model=v2', '--watch']);
      const rev = (await spec(specId)).latestRevision!.id;
      const activeOnRev = () =>
        watching.io.out
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { state: string; revisionId: string })
          .filter((e) => e.state === 'ACTIVE' && e.revisionId === rev);
      await waitUntil(() => activeOnRev().length === 2, { what: 'both instances ACTIVE on the new revision' });
      stop.abort();
      const r = await watching.done;
      expect(r.code).toBe(EXIT.interrupted);
      const events = r.lines<{ cursor: string; state: string; kind: string; instance: { id: string } }>();
      expect(events.every((e) => e.cursor && e.instance.id)).toBe(true);
      const last = events.at(-1)!.cursor;
      expect(r.err).toContain(`resume with: nvcf watch --function ${functionId} --after ${last}`);

      // after the first event: every later one again, in the same order
      expect(events.length).toBeGreaterThanOrEqual(4);
      const stop2 = new AbortController();
      const again = cli.start(['watch', '--function', functionId, '--after', events[0].cursor, '-o', 'json'], {
        signal: stop2.signal,
      });
      await waitUntil(() => again.io.out.split('\n').filter(Boolean).length >= events.length - 1, {
        what: 'the replay',
      });
      stop2.abort();
      expect((await again.done).lines<{ cursor: string }>().map((e) => e.cursor)).toEqual(
        events.slice(1).map((e) => e.cursor),
      );
    });

    it('table lines, and at least one filter', async () => {
      const { specId } = await deployed(1);
      const stop = new AbortController();
      const watching = cli.start(['watch', '--gpu-spec', specId, '--snapshot'], { signal: stop.signal });
      await waitUntil(() => watching.io.out.includes('(current state)'), { what: 'the snapshot' });
      stop.abort();
      expect((await watching.done).out).toMatch(/^\S+Z \S+ cluster-[ab] ACTIVE \S+ \(current state\)$/m);
      expect((await nvcf(['watch'])).code).toBe(EXIT.usage);
    });
  });

  describe('operator workloads', () => {
    const manifests = file(
      'nim.yaml',
      [
        'apiVersion: apps.nvidia.com/v1alpha1',
        'kind: NIMService',
        'metadata: { name: llama }',
        'spec: { image: { repository: nvcr.io/nim/llama, tag: "1.0" }, replicas: 1, expose: { service: { port: 8000 } } }',
        '---',
        'apiVersion: v1',
        'kind: Service',
        'metadata: { name: llama-svc }',
        'spec: { ports: [{ port: 8000 }] }',
        '',
      ].join('\n'),
    );
    const patch = file('patch.yaml', 'kind: NIMService\nmetadata: { name: llama }\nspec: { replicas: 2 }\n');

    it('submit infers the operator type from the manifests; deploy; patch --watch rolls out the merge patches', async () => {
      const s = await nvcf(['operator', 'submit', 'llama', '-f', manifests, '-o', 'json']);
      expect(s.code).toBe(EXIT.ok);
      const v = s.json<Version>();
      expect(v).toMatchObject({ workloadType: 'OPERATOR', operatorTypes: ['nim'] });
      const d = await nvcf([
        'deploy',
        v.id,
        '--gpu',
        'L40S',
        '--instance-type',
        'gl40s_1.br25_2xlarge',
        '--min',
        '1',
        '--max',
        '1',
        '--service-name',
        'llama-svc',
        '--service-port',
        '8000',
        '--watch',
      ]);
      expect(d.code).toBe(EXIT.ok);
      const specId = /^([0-9a-f-]{36})\s+L40S/m.exec(d.out)![1];
      const p = await nvcf(['operator', 'patch', specId, '-f', patch, '--watch', '-o', 'json']);
      expect(p.code).toBe(EXIT.ok);
      expect(p.lines<Item>().at(-1)).toMatchObject({ type: 'result', result: 'APPLIED' });
      expect((await spec(specId)).latestRevision!.manifestMergePatches).toEqual([
        { kind: 'NIMService', metadata: { name: 'llama' }, spec: { replicas: 2 } },
      ]);
      const set = await nvcf(['gpu-spec', 'update', specId, '--set', 'a=1']);
      expect(set.code).toBe(EXIT.usage);
      expect(set.err).toContain(`hint: nvcf operator patch ${specId} -f patch.yaml`);
    });

    it('refusals: a kind no operator drives (exit 2), an invalid manifest (exit 3, the registry code)', async () => {
      const pod = file('pod.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: { name: p }\n');
      const none = await nvcf(['operator', 'submit', 'x', '-f', pod]);
      expect(none.code).toBe(EXIT.usage);
      expect(none.err).toContain('no operator type drives the kinds of these manifests (v1/Pod)');
      const invalid = await nvcf(['operator', 'submit', 'x', '-f', pod, '--operator-type', 'nim']);
      expect(invalid.code).toBe(EXIT.api);
      expect(invalid.err).toMatch(
        /^error: INVALID_MANIFEST: operator\.manifests\[0\] \(kind Pod\): v1\/Pod is not on the allowlist/,
      );
      expect((await nvcf(['operator', 'submit', 'x', '-f', 'missing.yaml'])).code).toBe(EXIT.usage);
    });
  });

  describe('errors', () => {
    it("NOT_FOUND and another tenant's objects: exit 3 with the code; an unreachable gateway: exit 4", async () => {
      const { specId } = await deployed(1);
      const missing = await nvcf(['gpu-spec', 'get', 'no-such-spec']);
      expect(missing).toMatchObject({
        code: EXIT.api,
        err: 'error: NOT_FOUND: no GPU specification no-such-spec for this tenant\n',
      });
      const b = await nvcf(['gpu-spec', 'rollback', specId], { env: { NVCF_TOKEN: 'dev-token-b' } });
      expect(b.code).toBe(EXIT.api);
      expect(b.err).toMatch(/^error: NOT_FOUND: /);
      const down = await nvcf(['--url', 'http://127.0.0.1:1/graphql', 'rollout', 'status', specId]);
      expect(down.code).toBe(EXIT.unavailable);
      expect(down.err).toMatch(/^error: UNAVAILABLE: cannot reach the gateway at http:\/\/127\.0\.0\.1:1\/graphql/);
    });
  });

  describe('the launcher (cli/bin/nvcf.js) in a child process', () => {
    it('prints its version, reads with -o json, and exits with the documented codes', async () => {
      const env = { NVCF_URL: system.url, NVCF_TOKEN: 'dev-token-a', XDG_CONFIG_HOME: cli.configHome };
      const version = await runBin(['--version'], env);
      expect(version).toMatchObject({
        code: 0,
        out: `${JSON.parse(readFileSync(new URL('../../cli/package.json', import.meta.url), 'utf8')).version}\n`,
      });
      const list = await runBin(['functions', 'list', '-o', 'json'], env);
      expect(list.code).toBe(0);
      // the same functions the in-process commands see (this suite created some before)
      const names = list.json<{ name: string }[]>().map((f) => f.name);
      expect(names.length).toBeGreaterThan(0);
      expect(names).toEqual(
        (await nvcf(['functions', 'list', '-o', 'json'])).json<{ name: string }[]>().map((f) => f.name),
      );
      expect((await runBin(['gpu-spec', 'get', 'nope'], env)).code).toBe(EXIT.api);
      expect((await runBin(['deploy'], env)).code).toBe(EXIT.usage);
    });
  });
});

/** A gateway restart in the middle of `rollout status --watch`: it resumes, nothing lost or repeated. */
describe('nvcf rollout status --watch across a gateway restart', () => {
  let system: System;
  let replacement: RunningGateway | undefined;
  beforeAll(async () => {
    system = await startSystem(fast);
  });
  afterAll(async () => {
    await replacement?.dispose();
    await system?.dispose();
  });

  it('resumes from its cursor and exits 0 once APPLIED, every transition shown once', async () => {
    const cli = cliAgainst(system.url);
    const v = (
      await cli.nvcf([
        'functions',
        'create',
        'restart',
        '--helm-chart',
        'oci://nvcr.io/nca-a/echo-1.2.3.tgz',
        '--helm-service',
        'echo',
        '-o',
        'json',
      ])
    ).json<Version>();
    const d = (
      await cli.nvcf([
        'deploy',
        v.id,
        '--gpu',
        'L40S',
        '--instance-type',
        'gl40s_1.br25_2xlarge',
        '--min',
        '2',
        '--max',
        '2',
        '--set',
        'model=v1',
        '--watch',
        '-o',
        'json',
      ])
    ).lines<{ type: string; result?: string; deployment?: { gpuSpecifications: { id: string }[] } }>();
    expect(d[0].type).toBe('deployed');
    expect(d.at(-1)).toMatchObject({ type: 'result', result: 'APPLIED' });
    const specId = d[0].deployment!.gpuSpecifications[0].id;

    const following = cli.start([
      'gpu-spec',
      'update',
      specId,
      '--set',
      'model=v2',
      '--set',
      'nvcfSimulate.delayMs=1500',
      '--watch',
    ]);
    await waitUntil(() => (following.io.out.match(/ UPDATING /g) ?? []).length === 2, {
      what: 'both instances UPDATING',
    });
    // the restart: the replica drains (its SSE streams end without `complete`), a new one takes its port
    const port = Number(new URL(system.url).port);
    await system.gateway.drain(0);
    await waitUntil(() => following.io.err.includes('reconnecting to the status stream'), {
      what: 'the CLI to notice',
    });
    replacement = await startGateway({
      subgraphs: system.subgraphs,
      verify: staticTokens(DEV_TOKENS),
      secret: system.secret,
      cursorSecret: system.secret,
      bus: system.backends.bus,
      port,
    });
    const r = await following.done;
    expect(r.code).toBe(EXIT.ok);
    expect(r.err).toContain('resumed the status stream');
    const rev = /^revision (\S+) submitted/m.exec(r.out)![1];
    for (const state of ['UPDATING', 'ACTIVE'])
      expect(r.out.match(new RegExp(` cluster-[ab] ${state} ${rev}`, 'g'))).toHaveLength(2);
    expect(r.out.trimEnd().split('\n').at(-1)).toBe(`revision ${rev} APPLIED (2/2)`);
  });
});

describe('nvcf with TRUSTED_DOCUMENTS=require (the gateway runs the documents of released clients only)', () => {
  let system: System;
  beforeAll(async () => {
    system = await startSystem({ ...fast, trustedDocuments: 'require' });
  });
  afterAll(async () => system?.dispose());

  it('works unchanged: every operation it sends is a trusted document id; an ad-hoc document is refused', async () => {
    const cli = cliAgainst(system.url);
    const nvcf = (argv: string[]) => cli.nvcf(argv, { cwd: files });
    const created = await nvcf([
      'functions',
      'create',
      'trusted',
      '--helm-chart',
      'oci://nvcr.io/nca-a/echo-1.2.3.tgz',
      '--helm-service',
      'echo',
      '-o',
      'id',
    ]);
    expect(created.code).toBe(EXIT.ok);
    const deployed = await nvcf([
      'deploy',
      created.out.trim(),
      '--gpu',
      'L40S',
      '--instance-type',
      'gl40s_1.br25_2xlarge',
      '--min',
      '2',
      '--max',
      '2',
      '--set',
      'model=v1',
      '--watch',
      '-o',
      'json',
    ]);
    expect(deployed.code).toBe(EXIT.ok);
    const specId = deployed.lines<{ deployment?: { gpuSpecifications: { id: string }[] } }>()[0].deployment!
      .gpuSpecifications[0].id;
    const updated = await nvcf(['gpu-spec', 'update', specId, '--set', 'model=v2', '--watch']);
    expect(updated.code).toBe(EXIT.ok);
    expect(updated.out).toMatch(/APPLIED \(2\/2\)\s*$/);
    for (const argv of [
      ['functions', 'list'],
      ['gpu-spec', 'get', specId],
      ['rollout', 'status', specId],
      ['clusters'],
    ])
      expect((await nvcf(argv)).code).toBe(EXIT.ok);

    const adHoc = await fetch(system.url, {
      method: 'POST',
      headers: { authorization: 'Bearer dev-token-a', 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ functions { id } }' }),
    });
    expect(((await adHoc.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe(
      'PERSISTED_QUERY_REQUIRED',
    );
  });
});
