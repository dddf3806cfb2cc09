/**
 * A throwaway CA and a serving certificate for 127.0.0.1 signed by it, made with openssl: what
 * the chart generates (or cert-manager issues) in a cluster, for a webhook served outside one
 * (`npm start` with CLUSTER_DRIVER=kubernetes, the tests). Valid one day; removed on dispose.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface LocalTls extends Disposable {
  dir: string;
  caFile: string;
  certFile: string;
  keyFile: string;
  /** the CA in PEM */
  ca: string;
  /** the CA, base64 of its PEM: a webhook configuration's caBundle */
  caBundle: string;
}

const openssl = (args: string[], cwd: string) =>
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });

export function makeLocalTls(): LocalTls {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nvca-webhook-tls-'));
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=nvca-webhook local CA',
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
    ],
    dir,
  );
  openssl(
    ['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', 'tls.key', '-out', 'tls.csr'],
    dir,
  );
  // the API server checks the address against the subject alternative names, never the CN
  fs.writeFileSync(path.join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'tls.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      'san.ext',
      '-out',
      'tls.crt',
    ],
    dir,
  );
  const ca = fs.readFileSync(path.join(dir, 'ca.crt'), 'utf8');
  return {
    dir,
    caFile: path.join(dir, 'ca.crt'),
    certFile: path.join(dir, 'tls.crt'),
    keyFile: path.join(dir, 'tls.key'),
    ca,
    caBundle: Buffer.from(ca).toString('base64'),
    [Symbol.dispose]: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
