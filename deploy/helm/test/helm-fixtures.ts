/** What the chart tests share: the cached Helm, rendering into plain objects, and the API server gate. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { KUBERNETES_VERSION } from '../../../test/services/kube-build.js';
import { ensureHelm, runHelm } from '../../../test/services/helm.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const HELM_DIR = path.join(ROOT, 'deploy', 'helm');
export const CHARTS = { controlPlane: path.join(HELM_DIR, 'nvcf-control-plane'), agent: path.join(HELM_DIR, 'nvca-agent') } as const;
export const EXAMPLES = { controlPlane: path.join(HELM_DIR, 'examples', 'production.yaml'), agent: path.join(HELM_DIR, 'examples', 'production-agent.yaml') } as const;
export type ChartName = keyof typeof CHARTS;

/** What needs the API server runs unless NVCF_TEST_KUBERNETES=0 (or memory-only), as the agent's suites. */
export const kubeEnabled = process.env.NVCF_TEST_KUBERNETES !== '0' && process.env.NVCF_TEST_BACKENDS !== 'memory';
export const describeKube = (name: string, fn: () => void) =>
  kubeEnabled ? describe(name, fn) : describe.skip(`${name} [skipped: NVCF_TEST_KUBERNETES=0 or NVCF_TEST_BACKENDS=memory]`, fn);

/** the first use builds Helm from its Go module (minutes, once); later ones find it in .cache/bin */
export const HELM_BUILD_TIMEOUT_MS = 1_800_000;

 
export type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> }; [field: string]: any };

let helmBin: Promise<string> | undefined;
/** The Helm binary, built on first use; timings go to stderr (the issue's closing note quotes them). */
export function helmBinary(): Promise<string> {
  helmBin ??= ensureHelm().then(({ bin, ms, built }) => {
    if (built) process.stderr.write(`[helm] built helm from its Go module in ${(ms / 1000).toFixed(1)}s\n`);
    return bin;
  });
  return helmBin;
}

/** Runs helm; rejects with HelmFailed (its stderr in the message) on a non-zero exit. */
export async function helm(args: string[], o: { kubeconfig?: string } = {}): Promise<{ stdout: string; stderr: string }> {
  return runHelm(await helmBinary(), args, { cwd: ROOT, kubeconfig: o.kubeconfig });
}

/** The symlinked chart files (the supergraph, the MiniService CRD) make Helm say so on stderr. */
export const helmWarnings = (stderr: string) => stderr.split('\n').filter((l) => l.trim() && !/found symbolic link in path/.test(l));

export interface RenderOptions {
  release?: string;
  namespace?: string;
  values?: string[];
  set?: Record<string, string | number | boolean>;
  includeCrds?: boolean;
}

/**
 * `helm template` of a chart into objects, parsed as Helm and kubectl parse YAML (1.1: 0440 is
 * octal, yes/no are booleans). Hooks are included, as an install creates them too.
 */
export async function render(chart: ChartName, o: RenderOptions = {}): Promise<K8sObject[]> {
  const args = ['template', o.release ?? 'nvcf', CHARTS[chart], '--namespace', o.namespace ?? 'nvcf', '--kube-version', KUBERNETES_VERSION];
  for (const f of o.values ?? []) args.push('--values', f);
  for (const [k, v] of Object.entries(o.set ?? {})) args.push(typeof v === 'string' ? '--set-string' : '--set', `${k}=${v}`);
  if (o.includeCrds) args.push('--include-crds');
  const { stdout } = await helm(args);
  return parseObjects(stdout);
}

export function parseObjects(text: string): K8sObject[] {
  return parseAllDocuments(text, { version: '1.1' }).map((d) => {
    if (d.errors.length) throw new Error(`helm rendered invalid YAML: ${d.errors[0].message}`);
    return d.toJS() as K8sObject | null;
  }).filter((o): o is K8sObject => !!o);
}

export const byKind = (objs: K8sObject[], kind: string) => objs.filter((o) => o.kind === kind);
export const named = (objs: K8sObject[], kind: string, suffix: string) => {
  const found = objs.find((o) => o.kind === kind && o.metadata.name.endsWith(suffix));
  if (!found) throw new Error(`no ${kind} named *${suffix} among ${objs.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  return found;
};
export const countByKind = (objs: K8sObject[]) =>
  Object.fromEntries([...new Set(objs.map((o) => o.kind))].sort().map((k) => [k, objs.filter((o) => o.kind === k).length]));

/** Every pod template of the rendered workloads, with where it came from. */
export function podSpecs(objs: K8sObject[]): { owner: string; kind: string; spec: K8sObject['spec'] }[] {
  return objs.filter((o) => ['Deployment', 'Job', 'StatefulSet', 'DaemonSet'].includes(o.kind))
    .map((o) => ({ owner: `${o.kind}/${o.metadata.name}`, kind: o.kind, spec: o.spec.template.spec }));
}

/** A container's env as a map (valueFrom entries as the object). */
export const envOf = (container: { env?: { name: string; value?: string; valueFrom?: unknown }[] }) =>
  Object.fromEntries((container.env ?? []).map((e) => [e.name, e.value ?? e.valueFrom]));
