/**
 * A throwaway etcd + kube-apiserver (CRDs installed) for tests that restart the API server or
 * compact etcd: doing that to the shared one from .services/ would disturb every other test.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ServiceStartError } from './errors.js';
import { startEtcd } from './etcd.js';
import { ensureEtcd, ensureKubeApiserver } from './kube-build.js';
import { prepareCredentials, startKubeApiserver, writeKubeconfig } from './kubernetes-apiserver.js';
import { installCrds } from './kubernetes-crds.js';
import { ephemeralPort } from './ports.js';
import { stopProcess } from './process.js';
import { ensureDirs, servicePaths } from './state.js';

export interface PrivateKubernetes extends AsyncDisposable {
  kubeconfig: string;
  etcdUrl: string;
  /** stops kube-apiserver: SIGTERM, and SIGKILL after 3 s (open watches hold its exit for long) */
  stopApiserver(): Promise<void>;
  /** starts it again on the same port, and waits for /readyz */
  startApiserver(): Promise<void>;
  /** writes past every resourceVersion seen so far and compacts them away (410 Gone on resume) */
  compactEtcd(): Promise<void>;
}

export interface PrivateKubernetesOptions {
  /** off (default): watches are served by etcd, so a resume after a restart needs no re-list */
  watchCache?: boolean;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

export async function startPrivateKubernetes(o: PrivateKubernetesOptions = {}): Promise<PrivateKubernetes> {
  const p = servicePaths();
  ensureDirs(p);
  const [etcdBin, apiserverBin] = [await ensureEtcd(p, process.env), await ensureKubeApiserver(p, process.env)];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-private-'));
  const [clientPort, peerPort, port] = [await ephemeralPort(), await ephemeralPort(), await ephemeralPort()];
  const etcd = await startEtcd({
    bin: etcdBin,
    name: 'private',
    dataDir: path.join(dir, 'etcd'),
    clientPort,
    peerPort,
    logFile: path.join(p.logsDir, 'etcd-private.log'),
    cwd: p.root,
    env: process.env,
  });
  const credentials = prepareCredentials(path.join(dir, 'kube'));
  const kubeconfig = path.join(dir, 'kubeconfig');
  let apiserverPid: number | undefined;

  const startApiserver = async () => {
    if (apiserverPid !== undefined) return;
    const api = await startKubeApiserver({
      bin: apiserverBin,
      etcdUrl: etcd.url,
      port,
      credentials,
      watchCache: o.watchCache ?? false,
      logFile: path.join(p.logsDir, 'kube-apiserver-private.log'),
      cwd: p.root,
      env: process.env,
    });
    apiserverPid = api.pid;
    writeKubeconfig(kubeconfig, api.server, credentials, 'nvcf-private');
  };
  const stopApiserver = async () => {
    if (apiserverPid === undefined) return;
    if (!(await stopProcess(apiserverPid, 3000)))
      throw new ServiceStartError(`private kube-apiserver pid ${apiserverPid} did not stop`);
    apiserverPid = undefined;
  };
  const dispose = async () => {
    await stopApiserver().catch(() => {});
    await stopProcess(etcd.pid, 10_000);
    fs.rmSync(dir, { recursive: true, force: true });
  };

  try {
    await startApiserver();
    await installCrds(kubeconfig, p.crdsDir);
  } catch (err) {
    await dispose();
    throw err;
  }
  return {
    kubeconfig,
    etcdUrl: etcd.url,
    startApiserver,
    stopApiserver,
    async compactEtcd() {
      // etcd's JSON gateway: writes outside the API server's prefix move the revision on; two,
      // so that the revision after the last one anybody saw is compacted too
      let header = { revision: '0' };
      for (const n of [1, 2]) {
        const put = await fetch(`${etcd.url}/v3/kv/put`, {
          method: 'POST',
          body: JSON.stringify({ key: b64(`/nvcf-test/compact-${n}`), value: b64(String(Date.now())) }),
        });
        ({ header } = (await put.json()) as { header: { revision: string } });
      }
      const res = await fetch(`${etcd.url}/v3/kv/compaction`, {
        method: 'POST',
        body: JSON.stringify({ revision: header.revision, physical: true }),
      });
      if (!res.ok) throw new ServiceStartError(`etcd compaction failed: ${res.status} ${await res.text()}`);
    },
    [Symbol.asyncDispose]: dispose,
  };
}
