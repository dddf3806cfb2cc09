import { randomUUID } from 'node:crypto';
import type { NvcfStore } from '../src/index.js';
import type {
  DeploymentRecord,
  FunctionRecord,
  Revision,
  RevisionPair,
  SpecRecord,
  VersionRecord,
} from '../src/model.js';

// Fresh ids in every test: the Cassandra runner shares one keyspace across tests and runs.
const id = (kind: string) => `${kind}-${randomUUID()}`;
const at = '2026-01-01T00:00:00.000Z';
const byId = <T extends { id: string }>(xs: T[]) => [...xs].sort((a, b) => a.id.localeCompare(b.id));
const bySpec = (ps: RevisionPair[]) => [...ps].sort((a, b) => a.specId.localeCompare(b.specId));

const fn = (ncaId: string, name = 'fn'): FunctionRecord => ({ id: id('fn'), ncaId, name, createdAt: at });
const version = (f: FunctionRecord, patch: Partial<VersionRecord> = {}): VersionRecord => ({
  id: id('ver'),
  functionId: f.id,
  ncaId: f.ncaId,
  status: 'INACTIVE',
  workloadType: 'HELM',
  helmChart: 'oci://registry/charts/app-1.0.0.tgz',
  helmChartServiceName: 'svc',
  inferencePort: 8000,
  health: { protocol: 'HTTP', uri: '/health', port: 8000 },
  createdAt: at,
  ...patch,
});
const spec = (v: VersionRecord, deploymentId: string): SpecRecord => ({
  id: id('spec'),
  deploymentId,
  versionId: v.id,
  functionId: v.functionId,
  ncaId: v.ncaId,
  gpu: 'L40S',
  instanceType: 'gl40s_1.br25_2xlarge',
  minInstances: 1,
  maxInstances: 2,
  maxRequestConcurrency: 4,
  clusters: ['c1'],
  regions: ['us-east'],
  attributes: [],
});
const revision = (specId: string, status: Revision['status'], patch: Partial<Revision> = {}): Revision => ({
  id: id('rev'),
  specId,
  status,
  configuration: { replicas: 1, nested: { a: [1, 2] } },
  createdAt: at,
  targets: ['i1'],
  ...patch,
});

/** The NvcfStore contract: memory and Cassandra must both pass it unchanged. */
export function nvcfStoreContract(name: string, make: () => Promise<NvcfStore>) {
  describe(`${name}: nvcf store`, () => {
    let store: NvcfStore;
    beforeEach(async () => {
      store = await make();
    });
    afterEach(async () => store.dispose());

    /** A deployed version with one spec whose first revision has `status`. */
    async function deployed(status: Revision['status'] = 'APPLIED') {
      const f = fn(id('nca'));
      const v = version(f);
      await store.putFunction(f);
      await store.putVersion(v);
      const d: DeploymentRecord = { id: id('dep'), versionId: v.id, ncaId: v.ncaId, specIds: [], createdAt: at };
      const s = spec(v, d.id);
      d.specIds = [s.id];
      const pair: RevisionPair = { specId: s.id, latest: revision(s.id, status), lastApplied: null };
      await store.putDeployment(d, [s], [pair]);
      return { f, v, d, s, pair };
    }

    /** A deployed spec whose pair has no revision at all. */
    async function deployedWithoutRevision() {
      const v = version(fn(id('nca')));
      const d: DeploymentRecord = { id: id('dep'), versionId: v.id, ncaId: v.ncaId, specIds: [], createdAt: at };
      const s = spec(v, d.id);
      await store.putDeployment({ ...d, specIds: [s.id] }, [s], [{ specId: s.id, latest: null, lastApplied: null }]);
      return s.id;
    }

    it('reads functions back in request order, null for missing ids, and lists them by tenant', async () => {
      const nca = id('nca');
      const [a, b, other] = [fn(nca, 'a'), fn(nca, 'b'), fn(id('nca'), 'other')];
      for (const f of [a, b, other]) await store.putFunction(f);
      expect(await store.getFunctions([b.id, 'missing', a.id, b.id])).toEqual([b, null, a, b]);
      expect(byId(await store.listFunctions(nca))).toEqual(byId([a, b]));
      expect(await store.listFunctions(id('nca'))).toEqual([]);
      await store.putFunction({ ...a, name: 'renamed' });
      expect((await store.getFunctions([a.id]))[0]?.name).toBe('renamed');
    });

    it('keeps versions per function and returns copies, not shared state', async () => {
      const [f1, f2] = [fn(id('nca')), fn(id('nca'))];
      const [v1, v2, v3] = [
        version(f1),
        version(f1, { workloadType: 'CONTAINER', containerImage: 'img:1', containerEnvironment: { A: '1' } }),
        version(f2),
      ];
      for (const v of [v1, v2, v3]) await store.putVersion(v);
      expect(await store.getVersions([v3.id, id('ver'), v1.id])).toEqual([v3, null, v1]);
      const lists = await store.listVersions([f2.id, id('fn'), f1.id]);
      expect(lists.map(byId)).toEqual([[v3], [], byId([v1, v2])]);
      const [got] = await store.getVersions([v1.id]);
      got!.status = 'ACTIVE';
      expect((await store.getVersions([v1.id]))[0]?.status).toBe('INACTIVE');
    });

    it('sets a version status unconditionally, or only from an expected status', async () => {
      const v = version(fn(id('nca')));
      await store.putVersion(v);
      expect(await store.setVersionStatus(v.id, 'DEPLOYING')).toBe(true);
      expect(await store.setVersionStatus(v.id, 'ACTIVE', ['INACTIVE', 'ERROR'])).toBe(false);
      expect((await store.getVersions([v.id]))[0]?.status).toBe('DEPLOYING');
      expect(await store.setVersionStatus(v.id, 'ACTIVE', ['INACTIVE', 'DEPLOYING'])).toBe(true);
      expect((await store.getVersions([v.id]))[0]).toEqual({ ...v, status: 'ACTIVE' });
      expect(await store.setVersionStatus(id('ver'), 'ACTIVE')).toBe(false);
      expect(await store.setVersionStatus(id('ver'), 'ACTIVE', ['INACTIVE'])).toBe(false);
      expect(await store.getVersions([id('ver')])).toEqual([null]);
    });

    it('writes a deployment with its specs and first revisions, and links the version', async () => {
      const { v, d, s, pair } = await deployed();
      expect(await store.getDeployments([id('dep'), d.id])).toEqual([null, d]);
      expect(await store.getSpecs([s.id, id('spec')])).toEqual([s, null]);
      expect(await store.getRevisions([s.id])).toEqual([pair]);
      expect((await store.getVersions([v.id]))[0]).toEqual({ ...v, deploymentId: d.id });
      // the version link survives a later status change, and a later put of the whole version wins
      await store.setVersionStatus(v.id, 'DEPLOYING');
      expect((await store.getVersions([v.id]))[0]).toEqual({ ...v, status: 'DEPLOYING', deploymentId: d.id });
      await store.putVersion({ ...v, status: 'DEGRADED' });
      expect((await store.getVersions([v.id]))[0]).toEqual({ ...v, status: 'DEGRADED' });
    });

    it('changes only the bounds of a spec, and ignores unknown specs', async () => {
      const { s } = await deployed();
      await store.setSpecBounds(s.id, 0, 5);
      expect(await store.getSpecs([s.id])).toEqual([{ ...s, minInstances: 0, maxInstances: 5 }]);
      const ghost = id('spec');
      await store.setSpecBounds(ghost, 1, 1);
      expect(await store.getSpecs([ghost])).toEqual([null]);
    });

    it('answers an empty pair for a spec without revisions', async () => {
      const specId = id('spec');
      expect(await store.getRevisions([specId])).toEqual([{ specId, latest: null, lastApplied: null }]);
    });

    it('replaces the pair only when the latest id is the expected one', async () => {
      const specId = id('spec');
      const r1 = revision(specId, 'APPLIED');
      expect(await store.casRevisions(specId, null, { latest: r1, lastApplied: r1 })).toBe(true);
      expect(await store.casRevisions(specId, null, { latest: revision(specId, 'APPLIED'), lastApplied: null })).toBe(
        false,
      );
      const r2 = revision(specId, 'FAILED', { failureReason: 'deadline passed', supersedes: r1.id });
      expect(await store.casRevisions(specId, 'not-the-latest', { latest: r2, lastApplied: r1 })).toBe(false);
      expect(await store.getRevisions([specId])).toEqual([{ specId, latest: r1, lastApplied: r1 }]);
      expect(await store.casRevisions(specId, r1.id, { latest: r2, lastApplied: r1 })).toBe(true);
      expect(await store.getRevisions([specId])).toEqual([{ specId, latest: r2, lastApplied: r1 }]);
    });

    it('CAS works on a pair created by putDeployment, and from a pair without a latest revision', async () => {
      const { s, pair } = await deployed();
      const next = revision(s.id, 'APPLIED');
      expect(await store.casRevisions(s.id, null, { latest: next, lastApplied: null })).toBe(false);
      expect(await store.casRevisions(s.id, pair.latest!.id, { latest: next, lastApplied: pair.latest })).toBe(true);

      const empty = await deployedWithoutRevision();
      expect(await store.casRevisions(empty, null, { latest: revision(empty, 'APPLIED'), lastApplied: null })).toBe(
        true,
      );
    });
    it.each([
      ['an existing latest revision', true],
      ['no revision yet', false],
    ])('lets exactly one of 20 racing owners replace %s', async (_label, seeded) => {
      const specId = id('spec');
      const base = revision(specId, 'APPLIED');
      if (seeded) await store.casRevisions(specId, null, { latest: base, lastApplied: base });
      const expected = seeded ? base.id : null;
      const contenders = Array.from({ length: 20 }, () => revision(specId, 'APPLIED'));
      const results = await Promise.all(
        contenders.map((r) => store.casRevisions(specId, expected, { latest: r, lastApplied: r })),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = contenders[results.indexOf(true)];
      expect(await store.getRevisions([specId])).toEqual([{ specId, latest: winner, lastApplied: winner }]);
    });

    it('tracks in-flight pairs through every CAS and putDeployment', async () => {
      const mine = (pairs: RevisionPair[], ids: string[]) => pairs.filter((p) => ids.includes(p.specId));
      const { s, pair } = await deployed('ROLLING_OUT');
      const other = id('spec');
      const pending = revision(other, 'PENDING');
      await store.casRevisions(other, null, { latest: pending, lastApplied: null });
      expect(bySpec(mine(await store.inFlightRevisions(), [s.id, other]))).toEqual(
        bySpec([pair, { specId: other, latest: pending, lastApplied: null }]),
      );

      const applied = { ...pair.latest!, status: 'APPLIED' as const, appliedAt: at };
      await store.casRevisions(s.id, pair.latest!.id, { latest: applied, lastApplied: applied });
      const rolling = { ...pending, status: 'ROLLING_OUT' as const };
      await store.casRevisions(other, pending.id, { latest: rolling, lastApplied: null });
      expect(mine(await store.inFlightRevisions(), [s.id, other])).toEqual([
        { specId: other, latest: rolling, lastApplied: null },
      ]);

      const failed = { ...rolling, status: 'FAILED' as const, failureReason: 'permanent' };
      expect(await store.casRevisions(other, rolling.id, { latest: failed, lastApplied: null })).toBe(true);
      expect(mine(await store.inFlightRevisions(), [s.id, other])).toEqual([]);
    });

    it('keeps the newest observation per instance, whatever order observations arrive in', async () => {
      const specId = id('spec');
      const [i1, i2] = [id('inst'), id('inst')];
      const obs = (instanceId: string, clock: number, state: 'STARTING' | 'ACTIVE' | 'UPDATING' = 'ACTIVE') => ({
        instanceId,
        state,
        revisionId: 'r1',
        clock,
        failedRevisionId: null,
        message: null,
      });
      const t = Date.now() * 1000;
      await store.recordInstance(specId, obs(i1, t, 'STARTING'));
      await store.recordInstance(specId, obs(i1, t + 2, 'ACTIVE'));
      // an older one redelivered late, and the newest one again (at-least-once): neither changes it
      await store.recordInstance(specId, obs(i1, t + 1, 'UPDATING'));
      await store.recordInstance(specId, obs(i1, t + 2, 'ACTIVE'));
      // the newest first, then the older one
      await store.recordInstance(specId, obs(i2, t + 7, 'ACTIVE'));
      await store.recordInstance(specId, obs(i2, t + 3, 'STARTING'));
      const states = (await store.instanceStates(specId)).sort((a, b) => a.instanceId.localeCompare(b.instanceId));
      expect(states).toEqual(
        [obs(i1, t + 2, 'ACTIVE'), obs(i2, t + 7, 'ACTIVE')].sort((a, b) => a.instanceId.localeCompare(b.instanceId)),
      );
      expect(await store.instanceStates(id('spec'))).toEqual([]);
    });

    it("keeps what Revision.progress reads: an observation's target revision and a revision's startedAt", async () => {
      const specId = id('spec');
      const t = Date.now() * 1000;
      await store.recordInstance(specId, {
        instanceId: id('inst'),
        state: 'UPDATING',
        revisionId: 'r1',
        targetRevisionId: 'r2',
        clock: t,
        failedRevisionId: null,
        message: null,
      });
      expect(await store.instanceStates(specId)).toEqual([
        expect.objectContaining({ state: 'UPDATING', revisionId: 'r1', targetRevisionId: 'r2' }),
      ]);
      const rolling = revision(specId, 'ROLLING_OUT', { startedAt: '2026-01-01T00:00:01.000Z' });
      await store.casRevisions(specId, null, { latest: rolling, lastApplied: null });
      expect((await store.getRevisions([specId]))[0].latest!.startedAt).toBe('2026-01-01T00:00:01.000Z');
    });

    it('ends with the newest of many concurrent observations of one instance', async () => {
      const specId = id('spec');
      const instanceId = id('inst');
      const t = Date.now() * 1000;
      const clocks = Array.from({ length: 12 }, (_, i) => t + ((i * 7) % 12));
      await Promise.all(
        clocks.map((clock) =>
          store.recordInstance(specId, { instanceId, state: 'ACTIVE', revisionId: `r${clock}`, clock }),
        ),
      );
      expect(await store.instanceStates(specId)).toEqual([
        { instanceId, state: 'ACTIVE', revisionId: `r${t + 11}`, clock: t + 11 },
      ]);
    });
  });
}
