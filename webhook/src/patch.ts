import { isDeepStrictEqual } from 'node:util';
import type { Injection } from './identity.js';

/** One operation of an RFC 6902 JSON Patch, as the API server applies it. */
export interface PatchOp {
  op: 'add' | 'replace';
  path: string;
  value: unknown;
}

/** The object cannot be read as the kind it claims to be; it is admitted unchanged. */
export class MalformedObject extends Error {
  override name = 'MalformedObject';
}

/** What the AdmissionRequest says is being admitted. */
export interface Target {
  /** API group, '' for the core group */
  group: string;
  kind: string;
  operation: 'CREATE' | 'UPDATE';
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where each workload kind keeps its pod template (an object with `metadata` and `spec`). */
const TEMPLATES: Record<string, readonly string[]> = {
  'apps/Deployment': ['spec', 'template'],
  'apps/StatefulSet': ['spec', 'template'],
  'apps/DaemonSet': ['spec', 'template'],
  'apps/ReplicaSet': ['spec', 'template'],
  '/ReplicationController': ['spec', 'template'],
  'batch/Job': ['spec', 'template'],
  'batch/CronJob': ['spec', 'jobTemplate', 'spec', 'template'],
};

/**
 * Kinds whose pod spec the API server refuses to change after creation (a pod's containers, a
 * job's template): on an update only their metadata is patched, or the operator's update of an
 * object created before the webhook ran would be refused.
 */
const SPEC_FIXED_AFTER_CREATE = new Set(['/Pod', 'batch/Job']);

/** RFC 6901: '~' and '/' inside a key (every NVCF label key has a '/'). */
const token = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

function mapOps(cur: unknown, path: string, want: Record<string, string>, replace: boolean): PatchOp[] {
  if (cur === undefined || cur === null)
    return Object.keys(want).length ? [{ op: 'add', path, value: { ...want } }] : [];
  if (!isObj(cur)) throw new MalformedObject(`${path} is not an object`);
  return Object.entries(want)
    .filter(([k, v]) => (replace ? cur[k] !== v : cur[k] === undefined))
    .map(([k, v]) => ({ op: 'add', path: `${path}/${token(k)}`, value: v }));
}

function metadataOps(owner: Obj, base: string, inj: Injection): PatchOp[] {
  const meta = owner.metadata;
  if (meta === undefined || meta === null) {
    const value: Obj = { labels: { ...inj.labels } };
    if (Object.keys(inj.annotations).length) value.annotations = { ...inj.annotations };
    return [{ op: 'add', path: `${base}/metadata`, value }];
  }
  if (!isObj(meta)) throw new MalformedObject(`${base}/metadata is not an object`);
  return [
    ...mapOps(meta.labels, `${base}/metadata/labels`, inj.labels, true),
    ...mapOps(meta.annotations, `${base}/metadata/annotations`, inj.annotations, false),
  ];
}

/**
 * A container's env with ours set once each: an entry of the same name (a literal of another
 * value, a valueFrom) is replaced in place and its duplicates dropped, since the kubelet keeps
 * the last of a name; a missing one goes first, so that the container's own variables can refer
 * to it as $(NVCF_INSTANCE_ID).
 */
export function withEnv(env: readonly unknown[], want: Record<string, string>, path: string): unknown[] {
  const kept: unknown[] = [];
  const placed = new Set<string>();
  env.forEach((e, i) => {
    if (!isObj(e)) throw new MalformedObject(`${path}/${i} is not an object`);
    const name = e.name;
    if (typeof name !== 'string' || !Object.hasOwn(want, name)) return void kept.push(e);
    if (placed.has(name)) return;
    placed.add(name);
    kept.push({ name, value: want[name] });
  });
  const missing = Object.keys(want)
    .filter((n) => !placed.has(n))
    .map((name) => ({ name, value: want[name] }));
  return [...missing, ...kept];
}

function podSpecOps(spec: unknown, base: string, inj: Injection): PatchOp[] {
  if (spec === undefined || spec === null) return [];
  if (!isObj(spec)) throw new MalformedObject(`${base} is not an object`);
  const ops: PatchOp[] = [];
  for (const list of ['initContainers', 'containers'] as const) {
    const containers = spec[list];
    if (containers === undefined || containers === null) continue;
    if (!Array.isArray(containers)) throw new MalformedObject(`${base}/${list} is not a list`);
    containers.forEach((c, i) => {
      const at = `${base}/${list}/${i}`;
      if (!isObj(c)) throw new MalformedObject(`${at} is not an object`);
      const env = c.env ?? [];
      if (!Array.isArray(env)) throw new MalformedObject(`${at}/env is not a list`);
      const next = withEnv(env, inj.env, `${at}/env`);
      if (isDeepStrictEqual(next, env)) return;
      ops.push({ op: c.env === undefined || c.env === null ? 'add' : 'replace', path: `${at}/env`, value: next });
    });
  }
  return ops;
}

/** The object `path` leads to, which the kind requires to be there. */
function required(obj: Obj, path: readonly string[]): Obj {
  let cur: unknown = obj;
  for (const key of path) cur = isObj(cur) ? cur[key] : undefined;
  if (!isObj(cur)) throw new MalformedObject(`/${path.join('/')} is missing or not an object`);
  return cur;
}

/**
 * The JSON Patch that puts the injection on an object: its own labels and annotations, and for
 * a pod or a workload, its pod template's labels, annotations and every container's env. Empty
 * when the object already carries all of it, so a second admission changes nothing.
 */
export function buildPatch(obj: unknown, target: Target, inj: Injection): PatchOp[] {
  if (!isObj(obj)) throw new MalformedObject('the object is not a JSON object');
  const key = `${target.group}/${target.kind}`;
  const ops = metadataOps(obj, '', inj);
  if (target.operation === 'UPDATE' && SPEC_FIXED_AFTER_CREATE.has(key)) return ops;
  if (key === '/Pod') return [...ops, ...podSpecOps(obj.spec, '/spec', inj)];
  const path = TEMPLATES[key];
  if (!path) return ops;
  const template = required(obj, path);
  const base = `/${path.join('/')}`;
  return [...ops, ...metadataOps(template, base, inj), ...podSpecOps(template.spec, `${base}/spec`, inj)];
}
