/** A kube-apiserver on loopback: token auth, RBAC, a self-signed serving cert, readiness by /readyz. */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { ServiceStartError } from './errors.js';
import { kubeApiserverBinary } from './kube-build.js';
import { LOOPBACK } from './ports.js';
import { isAlive, spawnDetached, stopProcess, tailFile, waitUntil } from './process.js';
import type { ServicePaths } from './state.js';

const START_TIMEOUT_MS = 120_000;
const ISSUER = 'https://kubernetes.default.svc.cluster.local';

export const isOurKubeApiserver = (p: ServicePaths, cmdline: string) => cmdline.startsWith(kubeApiserverBinary(p));

export interface KubeCredentials {
  dir: string;
  token: string;
  tokenFile: string;
  saKey: string;
  saPub: string;
  certDir: string;
  /** the self-signed serving certificate and its CA, once the server has written them */
  caFile: string;
}

/** Token file and service-account keys in `dir`, made once and kept, so kubeconfigs stay valid. */
export function prepareCredentials(dir: string): KubeCredentials {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const c = {
    dir,
    tokenFile: path.join(dir, 'tokens.csv'),
    saKey: path.join(dir, 'sa.key'),
    saPub: path.join(dir, 'sa.pub'),
    certDir: path.join(dir, 'certs'),
    caFile: path.join(dir, 'certs', 'apiserver.crt'),
  };
  if (!fs.existsSync(c.tokenFile)) {
    // token,user,uid,"groups": system:masters passes every RBAC check
    fs.writeFileSync(c.tokenFile, `${randomBytes(24).toString('hex')},nvcf-admin,nvcf-admin,"system:masters"\n`, {
      mode: 0o600,
    });
  }
  if (!fs.existsSync(c.saKey) || !fs.existsSync(c.saPub)) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    fs.writeFileSync(c.saKey, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    fs.writeFileSync(c.saPub, publicKey.export({ type: 'spki', format: 'pem' }));
  }
  const token = fs.readFileSync(c.tokenFile, 'utf8').split(',')[0];
  return { ...c, token };
}

/** GET <server><path> with the admin token, trusting `ca` (or nothing yet, before the cert exists). */
export function kubeGet(
  server: string,
  urlPath: string,
  token: string,
  ca?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.get(
      `${server}${urlPath}`,
      { headers: { Authorization: `Bearer ${token}` }, ca, rejectUnauthorized: !!ca, timeout: 3000 },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

export const kubeReady = async (server: string, c: KubeCredentials): Promise<boolean> => {
  const ca = fs.existsSync(c.caFile) ? fs.readFileSync(c.caFile, 'utf8') : undefined;
  return (await kubeGet(server, '/readyz', c.token, ca).catch(() => ({ status: 0 }))).status === 200;
};

export function writeKubeconfig(file: string, server: string, c: KubeCredentials, name = 'nvcf-local'): void {
  const ca = Buffer.from(fs.readFileSync(c.caFile)).toString('base64');
  const text = [
    'apiVersion: v1',
    'kind: Config',
    `current-context: ${name}`,
    'clusters:',
    `- name: ${name}`,
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${ca}`,
    'users:',
    '- name: nvcf-admin',
    '  user:',
    `    token: ${c.token}`,
    'contexts:',
    `- name: ${name}`,
    '  context:',
    `    cluster: ${name}`,
    '    user: nvcf-admin',
    '',
  ].join('\n');
  fs.writeFileSync(file, text, { mode: 0o600 });
}

export interface ApiserverOptions {
  bin: string;
  etcdUrl: string;
  /** keeps several API servers apart on one etcd */
  etcdPrefix?: string;
  port: number;
  credentials: KubeCredentials;
  logFile: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** off: watches are served by etcd itself, so any retained resourceVersion resumes */
  watchCache?: boolean;
}

export async function startKubeApiserver(o: ApiserverOptions): Promise<{ pid: number; server: string }> {
  const c = o.credentials;
  const server = `https://${LOOPBACK}:${o.port}`;
  fs.appendFileSync(
    o.logFile,
    `\n=== services: starting kube-apiserver on ${server} ${new Date().toISOString()} ===\n`,
  );
  const args = [
    `--etcd-servers=${o.etcdUrl}`,
    `--etcd-prefix=${o.etcdPrefix ?? '/registry'}`,
    `--bind-address=${LOOPBACK}`,
    `--advertise-address=${LOOPBACK}`,
    `--secure-port=${o.port}`,
    `--cert-dir=${c.certDir}`,
    `--token-auth-file=${c.tokenFile}`,
    '--anonymous-auth=false',
    '--authorization-mode=RBAC',
    `--service-account-issuer=${ISSUER}`,
    `--api-audiences=${ISSUER}`,
    `--service-account-key-file=${c.saPub}`,
    `--service-account-signing-key-file=${c.saKey}`,
    '--service-cluster-ip-range=10.96.0.0/16',
    // no kubelets, no controller-manager, one replica: nothing here needs these
    '--endpoint-reconciler-type=none',
    '--enable-priority-and-fairness=false',
    '--profiling=false',
    `--watch-cache=${o.watchCache ?? true}`,
    '--v=1',
  ];
  const pid = spawnDetached(o.bin, args, { cwd: o.cwd, env: o.env, logFile: o.logFile });
  const outcome = await waitUntil(() => kubeReady(server, c), {
    timeoutMs: START_TIMEOUT_MS,
    intervalMs: 250,
    exited: () => !isAlive(pid),
  });
  if (outcome !== 'ready') {
    await stopProcess(pid, 5000);
    const why = outcome === 'exited' ? 'exited during startup' : `not ready after ${START_TIMEOUT_MS / 1000}s`;
    throw new ServiceStartError(`kube-apiserver ${why}; last lines of ${o.logFile}:\n${tailFile(o.logFile, 40)}`);
  }
  return { pid, server };
}
