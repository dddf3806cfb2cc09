/**
 * The local Kubernetes of `services:up -- kubernetes`: etcd, kube-apiserver with the CRDs of
 * deploy/crds, and the cluster simulator playing the controllers we do not own. Three
 * processes, one service: they start in that order and stop in the reverse one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createKubeClient, loadKubeConfig } from '@nvcf/agent/kubernetes';
import { ServiceStartError } from './errors.js';
import { etcdHealthy, isOurEtcd, startEtcd } from './etcd.js';
import { ensureEtcd, ensureKubeApiserver } from './kube-build.js';
import {
  isOurKubeApiserver,
  kubeReady,
  prepareCredentials,
  startKubeApiserver,
  writeKubeconfig,
} from './kubernetes-apiserver.js';
import { installCrds } from './kubernetes-crds.js';
import { pickPort } from './ports.js';
import { cmdlineOf, isAlive, log, spawnDetached, stopProcess, tailFile, waitUntil } from './process.js';
import {
  readPid,
  readPidEnv,
  removePid,
  writePid,
  type ProcessName,
  type ServiceName,
  type ServicePaths,
} from './state.js';

const PREFERRED = { etcd: 12379, etcdPeer: 12380, apiserver: 16443 };
export const KUBE_PROCESSES: ProcessName[] = ['etcd', 'kube-apiserver', 'cluster-sim'];

const simScript = (p: ServicePaths) => path.join(p.root, 'test', 'services', 'cluster-sim', 'main.ts');
export const isOurKubeProcess: Record<string, (p: ServicePaths, cmdline: string) => boolean> = {
  etcd: isOurEtcd,
  'kube-apiserver': isOurKubeApiserver,
  'cluster-sim': (p, cmdline) => cmdline.includes(simScript(p)),
};

/** True when the kubeconfig's API server answers /version. */
export async function kubeconfigReachable(file: string): Promise<boolean> {
  try {
    await createKubeClient(loadKubeConfig(file)).request('GET', '/version');
    return true;
  } catch {
    return false;
  }
}

/** True when the etcd and kube-apiserver recorded in `envs` both answer. */
export async function ourKubernetesHealthy(
  p: ServicePaths,
  envs: { etcd: Record<string, string>; apiserver: Record<string, string> },
): Promise<boolean> {
  const { ETCD_URL: etcd } = envs.etcd;
  const { KUBE_SERVER: server } = envs.apiserver;
  return !!etcd && !!server && (await etcdHealthy(etcd)) && (await kubeReady(server, prepareCredentials(p.kubeDir)));
}

/** Starts the simulator process and waits for its "ready" line. */
export async function startSimProcess(p: ServicePaths, env: NodeJS.ProcessEnv, kubeconfig: string): Promise<number> {
  const logFile = path.join(p.logsDir, 'cluster-sim.log');
  fs.appendFileSync(logFile, `\n=== services: starting cluster-sim ${new Date().toISOString()} ===\n`);
  const from = fs.statSync(logFile).size;
  const pid = spawnDetached(process.execPath, ['--conditions=source', '--import', 'tsx', simScript(p), kubeconfig], {
    cwd: p.root,
    env,
    logFile,
  });
  const ready = async () => fs.readFileSync(logFile, 'utf8').slice(from).includes('cluster-sim ready');
  const outcome = await waitUntil(ready, { timeoutMs: 60_000, intervalMs: 200, exited: () => !isAlive(pid) });
  if (outcome !== 'ready') {
    await stopProcess(pid, 5000);
    throw new ServiceStartError(
      `cluster-sim ${outcome === 'exited' ? 'exited during startup' : 'not ready after 60s'}; last lines of ${logFile}:\n${tailFile(logFile, 30)}`,
    );
  }
  writePid(p, 'cluster-sim', pid, { KUBECONFIG: kubeconfig });
  return pid;
}

/** Builds once, then starts etcd, kube-apiserver (CRDs installed and Established) and the simulator. */
export async function startKubernetes(
  p: ServicePaths,
  env: NodeJS.ProcessEnv,
): Promise<{ env: { KUBECONFIG: string } }> {
  const etcdBin = await ensureEtcd(p, env);
  const apiserverBin = await ensureKubeApiserver(p, env);
  const t0 = Date.now();
  const taken = new Set<number>();
  const ports = {
    etcd: await pickPort(PREFERRED.etcd, taken),
    etcdPeer: await pickPort(PREFERRED.etcdPeer, taken),
    apiserver: await pickPort(PREFERRED.apiserver, taken),
  };
  const started: ProcessName[] = [];
  try {
    const etcd = await startEtcd({
      bin: etcdBin,
      name: 'nvcf-local',
      dataDir: p.etcdData,
      clientPort: ports.etcd,
      peerPort: ports.etcdPeer,
      logFile: path.join(p.logsDir, 'etcd.log'),
      cwd: p.root,
      env,
    });
    writePid(p, 'etcd', etcd.pid, { ETCD_URL: etcd.url });
    started.push('etcd');
    log(`etcd pid ${etcd.pid} at ${etcd.url}; starting kube-apiserver...`);
    const credentials = prepareCredentials(p.kubeDir);
    const api = await startKubeApiserver({
      bin: apiserverBin,
      etcdUrl: etcd.url,
      port: ports.apiserver,
      credentials,
      logFile: path.join(p.logsDir, 'kube-apiserver.log'),
      cwd: p.root,
      env,
    });
    writePid(p, 'kube-apiserver', api.pid, { KUBE_SERVER: api.server });
    started.push('kube-apiserver');
    writeKubeconfig(p.kubeconfig, api.server, credentials);
    log(
      `kube-apiserver pid ${api.pid} at ${api.server} ready after ${((Date.now() - t0) / 1000).toFixed(1)}s; installing CRDs...`,
    );
    await installCrds(p.kubeconfig, p.crdsDir);
    await startSimProcess(p, env, p.kubeconfig);
    log(`kubernetes up in ${((Date.now() - t0) / 1000).toFixed(1)}s (builds excluded); KUBECONFIG=${p.kubeconfig}`);
    return { env: { KUBECONFIG: p.kubeconfig } };
  } catch (err) {
    await stopKubernetes(p, started);
    throw err;
  }
}

/** Stops the given processes (default: all three), the simulator first; returns those that would not stop. */
export async function stopKubernetes(p: ServicePaths, only: ProcessName[] = KUBE_PROCESSES): Promise<string[]> {
  const stuck: string[] = [];
  for (const name of [...KUBE_PROCESSES].reverse().filter((n) => only.includes(n))) {
    const pid = readPid(p, name);
    if (pid === undefined) continue;
    if (isAlive(pid) && !isOurKubeProcess[name](p, cmdlineOf(pid)))
      log(`pid ${pid} in ${name}.pid is no longer our ${name}; not signalling it`);
    else if (isAlive(pid)) {
      log(`stopping ${name} (pid ${pid})...`);
      if (!(await stopProcess(pid, 10_000))) stuck.push(`${name} pid ${pid}`);
    }
    removePid(p, name);
  }
  return stuck;
}

const liveOurs = (p: ServicePaths, name: ProcessName): number | undefined => {
  const pid = readPid(p, name);
  return pid !== undefined && isAlive(pid) && isOurKubeProcess[name](p, cmdlineOf(pid)) ? pid : undefined;
};

/**
 * A reachable KUBECONFIG from the environment is used as it is (CRDs applied, no simulator:
 * that cluster has controllers of its own); else our running processes are reused; else
 * everything is started. Adds 'kubernetes' to `started` only when this call started it.
 */
export async function upKubernetes(
  p: ServicePaths,
  env: NodeJS.ProcessEnv,
  started: Set<ServiceName>,
): Promise<{ KUBECONFIG: string }> {
  const given = env.KUBECONFIG;
  if (given && path.resolve(given) !== p.kubeconfig) {
    if (await kubeconfigReachable(given)) {
      log(`using Kubernetes from environment: KUBECONFIG=${given} (CRDs applied, no cluster simulator)`);
      await installCrds(given, p.crdsDir);
      return { KUBECONFIG: given };
    }
    log(`KUBECONFIG=${given} is not reachable; starting a local kube-apiserver instead`);
  }
  const etcd = liveOurs(p, 'etcd');
  const apiserver = liveOurs(p, 'kube-apiserver');
  if (
    etcd &&
    apiserver &&
    fs.existsSync(p.kubeconfig) &&
    (await ourKubernetesHealthy(p, { etcd: readPidEnv(p, 'etcd'), apiserver: readPidEnv(p, 'kube-apiserver') }))
  ) {
    log(`reusing etcd pid ${etcd} and kube-apiserver pid ${apiserver}`);
    await installCrds(p.kubeconfig, p.crdsDir); // the CRD files may have changed since
    if (!liveOurs(p, 'cluster-sim')) {
      removePid(p, 'cluster-sim');
      await startSimProcess(p, env, p.kubeconfig);
    }
    return { KUBECONFIG: p.kubeconfig };
  }
  if (etcd || apiserver) log('the running etcd / kube-apiserver are not healthy; restarting them');
  await stopKubernetes(p);
  started.add('kubernetes');
  return (await startKubernetes(p, env)).env;
}
