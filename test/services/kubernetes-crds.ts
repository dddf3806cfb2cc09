/** Installs deploy/crds/*.yaml with Server-Side Apply and waits until each is Established. */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { createKubeClient, loadKubeConfig, type KubeObject } from '@nvcf/agent/kubernetes';
import { ServiceStartError } from './errors.js';
import { waitUntil } from './process.js';

const CRD = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };

const established = (crd: KubeObject | null) =>
  (crd?.status?.conditions as { type: string; status: string }[] | undefined)?.some(
    (c) => c.type === 'Established' && c.status === 'True',
  ) ?? false;

export async function installCrds(kubeconfig: string, dir: string, timeoutMs = 60_000): Promise<string[]> {
  const client = createKubeClient(loadKubeConfig(kubeconfig));
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  const names: string[] = [];
  for (const f of files) {
    const crd = parse(fs.readFileSync(path.join(dir, f), 'utf8')) as KubeObject;
    try {
      await client.apply(crd, 'nvcf-services');
    } catch (err) {
      throw new ServiceStartError(`installing ${f}: ${(err as Error).message}`, { cause: err });
    }
    names.push(crd.metadata.name!);
  }
  for (const name of names) {
    const ref = { ...CRD, metadata: { name } };
    const outcome = await waitUntil(async () => established(await client.get(ref)), { timeoutMs, intervalMs: 100 });
    if (outcome !== 'ready') throw new ServiceStartError(`CRD ${name} not Established after ${timeoutMs / 1000}s`);
  }
  return names;
}
