/** On-disk layout and state: `.cache/` (build caches), `.services/` (runtime: env, pids, logs, data). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAlive, sleep } from './process.js';
import { ServiceStartError } from './errors.js';

export type ServiceName = 'nats' | 'cassandra' | 'kubernetes' | 'tracing';
/** what has a pid file: the services, and the three processes that make up `kubernetes` */
export type ProcessName = ServiceName | 'etcd' | 'kube-apiserver' | 'cluster-sim';

export interface ServicePaths {
  root: string;
  cacheDir: string;
  binDir: string;
  servicesDir: string;
  logsDir: string;
  pidsDir: string;
  envFile: string;
  lockFile: string;
  natsData: string;
  cassandraHome: string;
  cassandraLib: string;
  cassandraPom: string;
  etcdData: string;
  /** serving certs, token file, service-account keys and the kubeconfig of the local API server */
  kubeDir: string;
  kubeconfig: string;
  crdsDir: string;
}

/** Repository root: this file lives in <root>/test/services/. */
export function repoRoot(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
}

export function servicePaths(root: string = repoRoot()): ServicePaths {
  const cacheDir = path.join(root, '.cache');
  const servicesDir = path.join(root, '.services');
  return {
    root,
    cacheDir,
    binDir: path.join(cacheDir, 'bin'),
    servicesDir,
    logsDir: path.join(servicesDir, 'logs'),
    pidsDir: path.join(servicesDir, 'pids'),
    envFile: path.join(servicesDir, 'env'),
    lockFile: path.join(servicesDir, 'up.lock'),
    natsData: path.join(servicesDir, 'nats-data'),
    cassandraHome: path.join(servicesDir, 'cassandra'),
    cassandraLib: path.join(cacheDir, 'cassandra', 'lib'),
    cassandraPom: path.join(root, 'deploy', 'services', 'cassandra', 'pom.xml'),
    etcdData: path.join(servicesDir, 'etcd-data'),
    kubeDir: path.join(servicesDir, 'kubernetes'),
    kubeconfig: path.join(servicesDir, 'kubernetes', 'kubeconfig'),
    crdsDir: path.join(root, 'deploy', 'crds'),
  };
}

export function ensureDirs(p: ServicePaths): void {
  for (const d of [p.binDir, p.logsDir, p.pidsDir]) fs.mkdirSync(d, { recursive: true });
}

function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

/** Parses KEY=VALUE lines (blank lines and # comments ignored). */
export function readEnvFile(file: string): Record<string, string> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (m?.[1] !== undefined) env[m[1]] = (m[2] ?? '').trim();
  }
  return env;
}

export function writeEnvFile(file: string, env: Record<string, string>): void {
  const keys = Object.keys(env).sort();
  writeAtomic(file, keys.map((k) => `${k}=${env[k]}`).join('\n') + '\n');
}

const pidFile = (p: ServicePaths, name: ProcessName) => path.join(p.pidsDir, `${name}.pid`);

export function readPid(p: ServicePaths, name: ProcessName): number | undefined {
  try {
    const pid = Number(fs.readFileSync(pidFile(p, name), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Writes <name>.pid and, next to it, <name>.env with the instance's connection keys. */
export function writePid(p: ServicePaths, name: ProcessName, pid: number, env: Record<string, string>): void {
  fs.mkdirSync(p.pidsDir, { recursive: true });
  writeEnvFile(path.join(p.pidsDir, `${name}.env`), env);
  writeAtomic(pidFile(p, name), `${pid}\n`);
}

/** Connection keys recorded by writePid for the instance we started. */
export function readPidEnv(p: ServicePaths, name: ProcessName): Record<string, string> {
  return readEnvFile(path.join(p.pidsDir, `${name}.env`));
}

export function removePid(p: ServicePaths, name: ProcessName): void {
  fs.rmSync(pidFile(p, name), { force: true });
  fs.rmSync(path.join(p.pidsDir, `${name}.env`), { force: true });
}

/**
 * Runs `fn` while holding `.services/up.lock`, so that concurrent `up`/`down`
 * calls (two terminals, several jest projects) do not start services twice.
 * A lock whose owner pid is dead is taken over.
 */
export async function withLock<T>(p: ServicePaths, fn: () => Promise<T>, timeoutMs = 600_000): Promise<T> {
  fs.mkdirSync(p.servicesDir, { recursive: true });
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.writeFileSync(p.lockFile, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let owner: number;
      try {
        owner = Number(fs.readFileSync(p.lockFile, 'utf8').trim());
      } catch {
        continue; // released meanwhile
      }
      if (owner === process.pid) throw new ServiceStartError('services lock is not re-entrant');
      const st = fs.statSync(p.lockFile, { throwIfNoEntry: false });
      const stale = owner ? !isAlive(owner) : !st || Date.now() - st.mtimeMs > 2000;
      if (stale) fs.rmSync(p.lockFile, { force: true });
      else if (Date.now() > end) throw new ServiceStartError(`timed out waiting for ${p.lockFile} (pid ${owner})`);
      else await sleep(500);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(p.lockFile, { force: true });
  }
}
