/** The shared kube-apiserver of the test run (jest's global setup starts it), seen as admin or as someone else. */
import https from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import { createKubeClient, type KubeClient } from '@nvcf/agent/kubernetes';
import type { K8sObject } from './helm-fixtures.js';

export function adminConfig(): KubeConfig {
  const file = process.env.KUBECONFIG;
  if (!file) throw new Error('KUBECONFIG is not set: run through jest (its global setup starts Kubernetes) or `npm run services:up -- kubernetes`');
  const kc = new KubeConfig();
  kc.loadFromFile(file);
  return kc;
}

/** The admin's credentials, impersonating `user` (a service account: system:serviceaccount:NS:NAME). */
export function impersonating(admin: KubeConfig, user: string): KubeConfig {
  const kc = new KubeConfig();
  const cluster = admin.getCurrentCluster()!;
  kc.loadFromOptions({
    clusters: [cluster],
    users: [{ ...admin.getCurrentUser()!, name: 'impersonated', impersonateUser: user }],
    contexts: [{ name: 'impersonated', cluster: cluster.name, user: 'impersonated' }],
    currentContext: 'impersonated',
  });
  return kc;
}

export interface KubeAnswer { status: number; body: any; warnings: string[] }  

/** One request with `kc`'s credentials (impersonation headers included), answered whatever the status. */
export async function kubeRequest(kc: KubeConfig, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<KubeAnswer> {
  const opts: https.RequestOptions & { headers: Record<string, string> } = { method, headers: { Accept: 'application/json' } };
  await kc.applyToHTTPSOptions(opts);
  if (body !== undefined) opts.headers['Content-Type'] = contentType;
  const url = new URL(path, kc.getCurrentCluster()!.server);
  return new Promise((resolve, reject) => {
    const req = https.request(url, opts, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => {
        const w = res.headers.warning;
        let parsed: unknown = text;
        try { parsed = JSON.parse(text); } catch { /* not JSON */ }
        resolve({ status: res.statusCode ?? 0, body: parsed, warnings: (Array.isArray(w) ? w : w ? [w] : []).map(String) });
      });
    });
    req.on('error', reject);
    req.setTimeout(15_000, () => req.destroy(new Error(`${method} ${path}: timed out`)));
    if (body !== undefined) req.end(JSON.stringify(body)); else req.end();
  });
}

/** Where an object lives: its kind's collection (found by discovery), in `namespace` when the kind is namespaced. */
export async function objectPath(client: KubeClient, obj: K8sObject, namespace: string): Promise<string> {
  return `${await client.collectionPath(obj.apiVersion, obj.kind, namespace)}/${obj.metadata.name}`;
}

/**
 * Server-Side Apply of `obj`, with strict field validation (an unknown or misspelt field is an
 * error, not a warning); `dryRun`: the API server validates, defaults and admits it, and stores nothing.
 */
export async function serverSideApply(kc: KubeConfig, client: KubeClient, obj: K8sObject, namespace: string, o: { dryRun: boolean; fieldManager?: string }): Promise<KubeAnswer> {
  const q = new URLSearchParams({ fieldManager: o.fieldManager ?? 'nvcf-helm-test', force: 'true', fieldValidation: 'Strict' });
  if (o.dryRun) q.set('dryRun', 'All');
  return kubeRequest(kc, 'PATCH', `${await objectPath(client, obj, namespace)}?${q}`, obj, 'application/apply-patch+yaml');
}

export const adminClient = (kc: KubeConfig) => createKubeClient(kc);

/**
 * Deletes a namespace and finalizes it: this API server has no namespace controller (the
 * cluster simulator finalizes only NVCF's), and whatever was in it has been deleted by the caller.
 */
export async function dropNamespace(kc: KubeConfig, name: string): Promise<void> {
  await kubeRequest(kc, 'DELETE', `/api/v1/namespaces/${name}`);
  await kubeRequest(kc, 'PUT', `/api/v1/namespaces/${name}/finalize`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name }, spec: { finalizers: [] } });
}

/** Polls until `check` holds; fails naming `what` after `timeoutMs`. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
