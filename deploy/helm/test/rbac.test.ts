/**
 * The agent chart's ClusterRole is the one deploy/operators.yaml generates (`npm run helm:rbac`):
 * this fails while a registry change has not been regenerated into the chart, and checks the
 * generator against the registry on its own terms.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { defaultRegistryPath, loadRegistry } from '@nvcf/operators';
import { agentRules, CLUSTERROLE_FILE, generatedClusterRole, renderWebhookClusterRole, resourceNames, UnknownKind, WEBHOOK_CLUSTERROLE_FILE, webhookRules } from '../scripts/rbac.js';
import { HELM_BUILD_TIMEOUT_MS, helmBinary, named, render } from './helm-fixtures.js';

const registry = loadRegistry(defaultRegistryPath());
const strip = (rules: { apiGroups: string[]; resources: string[]; verbs: string[] }[]) => rules.map(({ apiGroups, resources, verbs }) => ({ apiGroups, resources, verbs }));

/** group/resource → verbs, over a list of rules */
const grants = (rules: { apiGroups: string[]; resources: string[]; verbs: string[] }[]) => {
  const out = new Map<string, Set<string>>();
  for (const r of rules) for (const g of r.apiGroups) for (const res of r.resources) out.set(`${g}/${res}`, new Set([...(out.get(`${g}/${res}`) ?? []), ...r.verbs]));
  return out;
};

beforeAll(async () => { await helmBinary(); }, HELM_BUILD_TIMEOUT_MS);

describe('the agent\'s ClusterRole and the operator registry', () => {
  it('the chart\'s templates/clusterrole.yaml is what `npm run helm:rbac` generates from the registry (stale: regenerate)', () => {
    expect(fs.readFileSync(CLUSTERROLE_FILE, 'utf8')).toBe(generatedClusterRole());
  });

  it('the rendered ClusterRole holds exactly the generated rules', async () => {
    const role = named(await render('agent'), 'ClusterRole', '-nvca-agent');
    expect(role.rules).toEqual(strip(agentRules(registry)));
  });

  it('covers every kind, extra type and secondary kind of every registered operator type, and nothing else', async () => {
    const role = named(await render('agent'), 'ClusterRole', '-nvca-agent');
    const granted = grants(role.rules);
    const names = resourceNames();
    const group = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');
    const want = new Map<string, string[]>([
      ['nvca.nvcf.nvidia.io/miniservices', ['create', 'delete', 'get', 'list', 'patch', 'watch']],
      ['/namespaces', ['create', 'delete', 'get', 'patch']],
      // a container task's Job: applied, watched, deleted; its pods are the Job's, never the agent's to read
      ['batch/jobs', ['create', 'delete', 'get', 'list', 'patch', 'watch']],
    ]);
    for (const t of registry.types) {
      // the MiniService controller applies and watches them; the agent lists them to name a stuck removal,
      // and watches those whose kind can end an operator task (`complete` rules)
      for (const k of [...t.kinds, ...t.extraTypes]) want.set(`${group(k.apiVersion)}/${names.get(`${k.apiVersion}/${k.kind}`)}`, k.complete?.length ? ['list', 'watch'] : ['list']);
      for (const k of t.secondary) {
        const key = `${group(k.apiVersion)}/${names.get(`${k.apiVersion}/${k.kind}`)}`;
        want.set(key, [...new Set([...(want.get(key) ?? []), 'list'])].sort());
      }
    }
    expect(want.get('apps.nvidia.com/nimcaches')).toEqual(['list', 'watch']);
    expect(granted.has('/pods')).toBe(false);
    expect(Object.fromEntries([...granted].map(([k, v]) => [k, [...v].sort()]))).toEqual(Object.fromEntries([...want].map(([k, v]) => [k, [...v].sort()])));
    // what the agent never does: update (it applies), deletecollection, escalate, bind, impersonate
    for (const verbs of granted.values()) for (const v of ['update', 'deletecollection', 'escalate', 'bind', 'impersonate', '*']) expect(verbs.has(v)).toBe(false);
  });

  it('the webhook\'s ClusterRole is generated from what its namespace reads call: get on namespaces, nothing else', async () => {
    expect(fs.readFileSync(WEBHOOK_CLUSTERROLE_FILE, 'utf8')).toBe(renderWebhookClusterRole());
    const role = named(await render('agent'), 'ClusterRole', '-webhook');
    expect(role.rules).toEqual(webhookRules());
    expect(role.rules).toEqual([{ apiGroups: [''], resources: ['namespaces'], verbs: ['get'] }]);
  });

  describe('onboarding an operator type changes the role', () => {
    let dir: string;
    beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rbac-')); });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
    const withType = (t: object) => {
      const raw = parse(fs.readFileSync(defaultRegistryPath(), 'utf8'));
      raw.operatorTypes.push(t);
      const file = path.join(dir, `registry-${raw.operatorTypes.length}-${Math.random()}.yaml`);
      fs.writeFileSync(file, stringify(raw));
      return file;
    };
    const kind = (apiVersion: string, k: string) => ({ apiVersion, kind: k, ready: { path: 'status.readyReplicas', values: [], atLeast: 1 } });

    it('its kinds and its secondary kinds gain list', () => {
      const file = withType({ name: 'sts', clusterAttribute: 'StsSupport', kinds: [kind('apps/v1', 'StatefulSet')], secondary: [kind('v1', 'Pod')], rbac: [] });
      const rules = grants(agentRules(loadRegistry(file)));
      expect([...rules.get('apps/statefulsets')!].sort()).toEqual(['list']);
      expect([...rules.get('/pods')!].sort()).toEqual(['list']);
      expect(generatedClusterRole(file)).not.toBe(generatedClusterRole());
    });

    it('a kind with neither a CRD in deploy/crds nor a known built-in plural is refused, by name', () => {
      const file = withType({ name: 'x', clusterAttribute: 'X', kinds: [kind('example.com/v1', 'Widget')], rbac: [] });
      expect(() => agentRules(loadRegistry(file))).toThrow(UnknownKind);
      expect(() => agentRules(loadRegistry(file))).toThrow(/example\.com\/v1 Widget \(Widget, x\) has no CRD in deploy\/crds/);
    });
  });
});
