/**
 * A throwaway single-node Cassandra for fault tests (outages, restarts). Stopping the shared one
 * from .services/ would break every other test file and every other process using it meanwhile.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cassandraJvmArgs, cassandraYaml, CLUSTER_NAME, type CassandraLayout, logbackXml } from './cassandra-config.js';
import { ensureCassandraLib } from './cassandra.js';
import { cqlLocalDc, cqlSupported } from './cql.js';
import { ServiceStartError } from './errors.js';
import { ephemeralPort, LOOPBACK } from './ports.js';
import { isAlive, spawnDetached, stopProcess, tailFile, waitUntil } from './process.js';
import { ensureDirs, servicePaths } from './state.js';

const START_TIMEOUT_MS = 120_000;

export interface PrivateCassandra extends AsyncDisposable {
  contactPoints: string[];
  localDataCenter: string;
  /** Stops the node (SIGTERM: Cassandra flushes and exits; SIGKILL after 20 s). Its data stays. */
  stop(): Promise<void>;
  /** Starts it again on the same ports and data, and waits until CQL answers. */
  start(): Promise<void>;
  /**
   * Freezes the node (SIGSTOP): connections stay open and nothing answers, as with a node stuck in
   * a long GC pause or a hung host, which clients can only notice by timing out. `thaw` resumes it.
   */
  freeze(): void;
  thaw(): void;
}

export async function startPrivateCassandra(): Promise<PrivateCassandra> {
  const p = servicePaths();
  ensureDirs(p);
  const lib = await ensureCassandraLib(p, process.env);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'cassandra-private-'));
  const layout: CassandraLayout = {
    home,
    confDir: path.join(home, 'conf'),
    logFile: path.join(home, 'cassandra.log'),
    errorFile: path.join(home, 'hs_err_%p.log'),
    nativePort: await ephemeralPort(),
    storagePort: await ephemeralPort(),
  };
  for (const d of ['conf', 'data', 'commitlog', 'hints', 'saved_caches', 'cdc_raw', 'triggers'])
    fs.mkdirSync(path.join(home, d), { recursive: true });
  // its own cluster name: it must never gossip with the shared node on the same address
  fs.writeFileSync(
    path.join(layout.confDir, 'cassandra.yaml'),
    cassandraYaml(layout).replace(`cluster_name: '${CLUSTER_NAME}'`, "cluster_name: 'private'"),
  );
  fs.writeFileSync(path.join(layout.confDir, 'logback.xml'), logbackXml(layout.logFile));
  const jamm = fs.readdirSync(lib).find((f) => /^jamm-.*\.jar$/.test(f));
  const args = cassandraJvmArgs(layout, lib, jamm && path.join(lib, jamm));
  const java = process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
  const stdout = path.join(home, 'stdout.log');
  let pid: number | undefined;
  let frozen = false;
  let localDataCenter = 'datacenter1';

  const signal = (sig: 'SIGSTOP' | 'SIGCONT') => {
    if (pid === undefined) throw new ServiceStartError('private cassandra is not running');
    process.kill(pid, sig);
    frozen = sig === 'SIGSTOP';
  };
  const stop = async () => {
    if (pid === undefined) return;
    if (frozen) signal('SIGCONT'); // a stopped process would not see the SIGTERM until then
    if (!(await stopProcess(pid, 20_000))) throw new ServiceStartError(`private cassandra pid ${pid} did not stop`);
    pid = undefined;
  };
  const start = async () => {
    if (pid !== undefined) return;
    const started = spawnDetached(java, args, { cwd: home, env: process.env, logFile: stdout });
    pid = started;
    const outcome = await waitUntil(() => cqlSupported(LOOPBACK, layout.nativePort), {
      timeoutMs: START_TIMEOUT_MS,
      intervalMs: 200,
      exited: () => !isAlive(started),
    });
    if (outcome !== 'ready') {
      await stop();
      throw new ServiceStartError(
        `private cassandra ${outcome === 'exited' ? 'exited during startup' : `did not answer CQL within ${START_TIMEOUT_MS / 1000}s`}; last lines of ${layout.logFile}:\n${tailFile(layout.logFile, 40)}\n${tailFile(stdout, 20)}`,
      );
    }
    localDataCenter = await cqlLocalDc(LOOPBACK, layout.nativePort).catch(() => 'datacenter1');
  };

  await start();
  return {
    contactPoints: [`${LOOPBACK}:${layout.nativePort}`],
    get localDataCenter() {
      return localDataCenter;
    },
    start,
    stop,
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    async [Symbol.asyncDispose]() {
      try {
        await stop();
      } finally {
        fs.rmSync(home, { recursive: true, force: true });
      }
    },
  };
}
