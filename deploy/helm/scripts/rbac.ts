/**
 * The agent's ClusterRole, generated from the operator registry (deploy/operators.yaml) and the
 * CRDs (deploy/crds): exactly the verbs the Kubernetes driver (agent/src/drivers/kubernetes)
 * calls, on exactly the resources it calls them on, no wildcard. Onboarding an operator type
 * is one registry entry and `npm run helm:rbac`; deploy/helm/test/rbac.test.ts fails while the
 * chart's role and the registry disagree.
 *
 * The webhook's ClusterRole comes from what its namespace reads call (NAMESPACE_READ_RULES of
 * @nvcf/webhook): get on namespaces.
 *
 *   npm run helm:rbac            writes deploy/helm/nvca-agent/templates/{clusterrole,webhook-clusterrole}.yaml
 *   npm run helm:rbac -- --check exits 1 when one of them is stale
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { JOB, MINISERVICE } from '@nvcf/agent/kubernetes';
import { defaultRegistryPath, loadRegistry, type OperatorRegistry } from '@nvcf/operators';
import { NAMESPACE_READ_RULES } from '@nvcf/webhook';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const CRDS_DIR = path.join(ROOT, 'deploy', 'crds');
export const CLUSTERROLE_FILE = path.join(ROOT, 'deploy', 'helm', 'nvca-agent', 'templates', 'clusterrole.yaml');
export const WEBHOOK_CLUSTERROLE_FILE = path.join(ROOT, 'deploy', 'helm', 'nvca-agent', 'templates', 'webhook-clusterrole.yaml');

export interface PolicyRule { apiGroups: string[]; resources: string[]; verbs: string[] }

export class UnknownKind extends Error {
  override name = 'UnknownKind';
}

/** Built-in kinds an operator type may list; any other kind needs its CRD in deploy/crds. */
const BUILTIN: Record<string, string> = {
  'v1/ConfigMap': 'configmaps', 'v1/Namespace': 'namespaces', 'v1/PersistentVolumeClaim': 'persistentvolumeclaims', 'v1/Pod': 'pods',
  'v1/Secret': 'secrets', 'v1/Service': 'services', 'v1/ServiceAccount': 'serviceaccounts',
  'apps/v1/DaemonSet': 'daemonsets', 'apps/v1/Deployment': 'deployments', 'apps/v1/StatefulSet': 'statefulsets',
  'batch/v1/Job': 'jobs', 'networking.k8s.io/v1/Ingress': 'ingresses', 'autoscaling/v2/HorizontalPodAutoscaler': 'horizontalpodautoscalers',
};

/** apiVersion/kind → plural resource, from deploy/crds and the built-in table. */
export function resourceNames(crdsDir = CRDS_DIR): Map<string, string> {
  const out = new Map(Object.entries(BUILTIN));
  for (const f of fs.readdirSync(crdsDir).filter((f) => f.endsWith('.yaml')).sort()) {
    const crd = parse(fs.readFileSync(path.join(crdsDir, f), 'utf8')) as { spec: { group: string; names: { kind: string; plural: string }; versions: { name: string }[] } };
    for (const v of crd.spec.versions) out.set(`${crd.spec.group}/${v.name}/${crd.spec.names.kind}`, crd.spec.names.plural);
  }
  return out;
}

/**
 * What the driver does with each kind of object (agent/src/drivers/kubernetes/driver.ts). A
 * server-side apply is a PATCH, and the API server also authorizes `create` when the object does
 * not exist yet: every applied kind needs both.
 */
const USES = {
  // applyHelm, applyOperator: server-side apply (create+patch), status get, list+watch by cluster label, ready/reported merge patch; remove: delete
  miniService: ['create', 'delete', 'get', 'list', 'patch', 'watch'],
  // applyOperator: the instance namespace applied (create+patch), its record merge-patched, got by locate; remove: delete (takes the manifests along)
  namespace: ['create', 'delete', 'get', 'patch'],
  // each manifest: listed in the instance namespace when its removal is stuck (stuckReport); the
  // MiniService controller, not the agent, applies and watches the manifests (operator mode)
  manifest: ['list'],
  // what the operators create: listed likewise (stuckReport)
  secondary: ['list'],
  // a kind with `complete` rules: an operator task's objects, listed and watched for their end (tasks.ts)
  completing: ['list', 'watch'],
  // a container task's Job: applied (create+patch), got and watched for its conditions, deleted (Foreground) on a stop
  job: ['create', 'delete', 'get', 'list', 'patch', 'watch'],
};

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

/**
 * Rules for the driver over every type of `registry`: one per API group and verb set, sorted,
 * with `why` naming what each rule is for (the generated file's comments).
 */
export function agentRules(registry: OperatorRegistry, crdsDir = CRDS_DIR): (PolicyRule & { why: string[] })[] {
  const names = resourceNames(crdsDir);
  const need = new Map<string, { group: string; resource: string; verbs: Set<string>; why: Map<string, Set<string>> }>();
  /** `use` is what the object is to the driver, `by` who needs it (an operator type, or the driver itself) */
  const add = (apiVersion: string, kind: string, verbs: string[], use: string, by: string) => {
    const resource = names.get(`${apiVersion}/${kind}`);
    if (!resource) throw new UnknownKind(`${apiVersion} ${kind} (${use}, ${by}) has no CRD in deploy/crds and is not a built-in kind the generator knows: add its CRD, or its plural to BUILTIN in deploy/helm/scripts/rbac.ts`);
    const key = `${groupOf(apiVersion)}/${resource}`;
    const entry = need.get(key) ?? { group: groupOf(apiVersion), resource, verbs: new Set<string>(), why: new Map<string, Set<string>>() };
    verbs.forEach((v) => entry.verbs.add(v));
    entry.why.set(use, (entry.why.get(use) ?? new Set<string>()).add(by));
    need.set(key, entry);
  };
  add(MINISERVICE.apiVersion, MINISERVICE.kind, USES.miniService, 'MiniService', 'every instance, Helm and operator tasks');
  add('v1', 'Namespace', USES.namespace, 'Namespace', 'operator instances, tasks');
  add(JOB.apiVersion, JOB.kind, USES.job, 'Job', 'container tasks');
  for (const t of registry.types) {
    for (const k of [...t.kinds, ...t.extraTypes]) {
      add(k.apiVersion, k.kind, USES.manifest, k.kind, t.name);
      if (k.complete?.length) add(k.apiVersion, k.kind, USES.completing, `${k.kind} (task end)`, t.name);
    }
    for (const k of t.secondary) add(k.apiVersion, k.kind, USES.secondary, `${k.kind} (secondary)`, t.name);
  }
  const rules = new Map<string, PolicyRule & { why: string[] }>();
  for (const e of need.values()) {
    const verbs = [...e.verbs].sort();
    const key = `${e.group}|${verbs.join(',')}`;
    const rule = rules.get(key) ?? { apiGroups: [e.group], resources: [], verbs, why: [] };
    rule.resources.push(e.resource);
    rule.why.push(...[...e.why].map(([use, by]) => `${use}: ${[...by].sort().join(', ')}`));
    rules.set(key, rule);
  }
  return [...rules.values()]
    .map((r) => ({ ...r, resources: r.resources.sort(), why: r.why.sort() }))
    .sort((a, b) => a.apiGroups[0].localeCompare(b.apiGroups[0]) || a.verbs.join().localeCompare(b.verbs.join()));
}

const list = (xs: string[]) => `[${xs.map((x) => (x === '' ? '""' : x)).join(', ')}]`;

/** The chart's templates/clusterrole.yaml. */
export function renderClusterRole(rules: (PolicyRule & { why: string[] })[]): string {
  const body = rules.flatMap((r) => [
    `  # ${r.why.join('; ')}`,
    `  - apiGroups: ${list(r.apiGroups)}`,
    `    resources: ${list(r.resources)}`,
    `    verbs: ${list(r.verbs)}`,
  ]);
  return [
    '{{- /*',
    'Generated by `npm run helm:rbac` (deploy/helm/scripts/rbac.ts) from deploy/operators.yaml and',
    'deploy/crds: do not edit. What the agent\'s Kubernetes driver calls and nothing more: MiniServices',
    '(apply, get, list/watch, merge patch, delete), one namespace per operator instance or task (apply,',
    'get, merge patch, delete: the namespace takes its objects along), the Job of a container task',
    '(apply, get, list/watch, delete), each operator type\'s kinds, extraTypes and secondary kinds (list,',
    'to name what holds a stuck removal; the MiniService controller applies and watches them), and',
    'watch on kinds with `complete` rules (an operator task\'s end). An apply is a patch that creates the',
    'object when it is missing, so applied kinds need create and patch; never update. No wildcard anywhere.',
    '*/ -}}',
    '{{- if .Values.rbac.create }}',
    'apiVersion: rbac.authorization.k8s.io/v1',
    'kind: ClusterRole',
    'metadata:',
    '  name: {{ include "nvca.fullname" . }}',
    '  labels:',
    '    {{- include "nvca.labels" . | nindent 4 }}',
    'rules:',
    ...body,
    '{{- end }}',
    '',
  ].join('\n');
}

export const generatedClusterRole = (registryFile = defaultRegistryPath(), crdsDir = CRDS_DIR) => renderClusterRole(agentRules(loadRegistry(registryFile), crdsDir));

/** The webhook's rules: what its namespace reads call (@nvcf/webhook), sorted as the agent's. */
export const webhookRules = (): PolicyRule[] => NAMESPACE_READ_RULES.map((r) => ({ apiGroups: [...r.apiGroups], resources: [...r.resources].sort(), verbs: [...r.verbs].sort() }));

/** The chart's templates/webhook-clusterrole.yaml. */
export function renderWebhookClusterRole(rules: PolicyRule[] = webhookRules()): string {
  return [
    '{{- /*',
    'Generated by `npm run helm:rbac` (deploy/helm/scripts/rbac.ts) from NAMESPACE_READ_RULES of',
    '@nvcf/webhook: do not edit. The admission webhook reads the namespace of what it admits (its',
    'labels carry the instance\'s ids) and calls nothing else. No wildcard anywhere.',
    '*/ -}}',
    '{{- if and .Values.webhook.enabled .Values.rbac.create }}',
    'apiVersion: rbac.authorization.k8s.io/v1',
    'kind: ClusterRole',
    'metadata:',
    '  name: {{ include "nvca.webhook.fullname" . }}',
    '  labels:',
    '    {{- include "nvca.webhook.labels" . | nindent 4 }}',
    'rules:',
    ...rules.flatMap((r) => [`  - apiGroups: ${list(r.apiGroups)}`, `    resources: ${list(r.resources)}`, `    verbs: ${list(r.verbs)}`]),
    '{{- end }}',
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const check = process.argv.includes('--check');
  try {
    let stale = false;
    for (const [file, text] of [[CLUSTERROLE_FILE, generatedClusterRole()], [WEBHOOK_CLUSTERROLE_FILE, renderWebhookClusterRole()]] as const) {
      const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      if (check) {
        if (current !== text) console.error(`${path.relative(ROOT, file)} is stale: run npm run helm:rbac`);
        else console.log(`${path.relative(ROOT, file)} is current`);
        stale ||= current !== text;
      } else {
        fs.writeFileSync(file, text);
        console.log(`${current === text ? 'unchanged' : 'wrote'} ${path.relative(ROOT, file)}`);
      }
    }
    if (stale) process.exit(1);
  } catch (err) {
    console.error(`helm:rbac: ${(err as Error).message}`);
    process.exit(1);
  }
}
