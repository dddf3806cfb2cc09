/**
 * Helm from its Go module: built once with `go install` into .cache/bin (like nats-server),
 * then reused. The charts' tests (deploy/helm/test) and `npm run helm -- …` call it.
 *
 *   npm run helm -- lint deploy/helm/nvca-agent      builds on first use, then runs the cached binary
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ServiceStartError } from './errors.js';
import { log, runCommand } from './process.js';
import { ensureDirs, servicePaths, withLock, type ServicePaths } from './state.js';

/** Pinned Helm release (a version the Go module proxy serves and that is known to build). */
export const HELM_VERSION = 'v3.22.0';
const HELM_MODULE = 'helm.sh/helm/v3';
/**
 * What Helm's Makefile derives from the k8s.io/client-go it requires (v0.37 for v3.22): the
 * Kubernetes version `helm template` assumes without --kube-version and the one lint checks
 * deprecated APIs against. Without these ldflags a source build calls itself v3.22 and assumes Kubernetes 1.20.
 */
const HELM_KUBE = { major: '1', minor: '37' };

export const helmBinary = (p: ServicePaths) => path.join(p.binDir, 'helm');

function installedVersion(bin: string): string | undefined {
  try {
    return execFileSync(bin, ['version', '--template', '{{.Version}}'], { encoding: 'utf8', timeout: 10_000 }).trim();
  } catch {
    return undefined;
  }
}

/**
 * Builds the pinned Helm into .cache/bin unless that exact version is there; returns its path
 * and how long this call took (seconds of Go build on a first run, milliseconds after).
 * Holds a lock of its own, so two test files never build it at once.
 */
export async function ensureHelm(
  p: ServicePaths = servicePaths(),
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ bin: string; ms: number; built: boolean }> {
  const t0 = Date.now();
  const bin = helmBinary(p);
  if (installedVersion(bin) === HELM_VERSION) return { bin, ms: Date.now() - t0, built: false };
  ensureDirs(p);
  // its own lock (not up.lock): a build of minutes must not hold up `services:up`
  return withLock(
    { ...p, lockFile: path.join(p.servicesDir, 'helm-build.lock') },
    async () => {
      if (installedVersion(bin) === HELM_VERSION) return { bin, ms: Date.now() - t0, built: false };
      log(`building helm ${HELM_VERSION} with go install (first run only; a few minutes on two cores)...`);
      const x = (v: string, value: string) => `-X ${HELM_MODULE}/${v}=${value}`;
      const ldflags = [
        '-s',
        '-w',
        x('internal/version.version', HELM_VERSION),
        x('internal/version.gitTreeState', 'clean'),
        x('pkg/lint/rules.k8sVersionMajor', HELM_KUBE.major),
        x('pkg/lint/rules.k8sVersionMinor', HELM_KUBE.minor),
        x('pkg/chartutil.k8sVersionMajor', HELM_KUBE.major),
        x('pkg/chartutil.k8sVersionMinor', HELM_KUBE.minor),
      ].join(' ');
      await runCommand('go', ['install', '-trimpath', '-ldflags', ldflags, `${HELM_MODULE}/cmd/helm@${HELM_VERSION}`], {
        cwd: p.root,
        env: { ...env, GOBIN: p.binDir, CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false' },
      });
      const got = installedVersion(bin);
      if (got !== HELM_VERSION)
        throw new ServiceStartError(`built ${bin} but it reports "${got}", want ${HELM_VERSION}`);
      const ms = Date.now() - t0;
      log(`helm ${HELM_VERSION} built in ${(ms / 1000).toFixed(1)}s`);
      return { bin, ms, built: true };
    },
    1_800_000,
  );
}

export class HelmFailed extends Error {
  override name = 'HelmFailed';
  constructor(
    readonly args: string[],
    readonly code: number,
    readonly stdout: string,
    readonly stderr: string,
  ) {
    super(`helm ${args.join(' ')} exited with ${code}:\n${stderr.trim() || stdout.trim()}`);
  }
}

/**
 * Runs helm with its own empty home (no repositories, plugins or kubeconfig of the machine's user;
 * `kubeconfig` when it is to reach a cluster) and resolves with its output; rejects with HelmFailed
 * on a non-zero exit.
 */
export function runHelm(
  bin: string,
  args: string[],
  o: { cwd?: string; home?: string; kubeconfig?: string } = {},
): Promise<{ stdout: string; stderr: string }> {
  const home = o.home ?? path.join(servicePaths().cacheDir, 'helm-home');
  fs.mkdirSync(home, { recursive: true });
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    HELM_CACHE_HOME: path.join(home, 'cache'),
    HELM_CONFIG_HOME: path.join(home, 'config'),
    HELM_DATA_HOME: path.join(home, 'data'),
    KUBECONFIG: o.kubeconfig ?? path.join(home, 'no-kubeconfig'),
  };
  return new Promise((resolve, reject) => {
    execFile(bin, args, { cwd: o.cwd, env, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(new HelmFailed(args, typeof err.code === 'number' ? err.code : 1, stdout, stderr));
      else resolve({ stdout, stderr });
    });
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  ensureHelm().then(
    ({ bin }) => {
      spawn(bin, process.argv.slice(2), { stdio: 'inherit' }).on('exit', (code) => process.exit(code ?? 1));
    },
    (err: Error) => {
      process.stderr.write(`[services] ${err.name}: ${err.message}\n`);
      process.exit(1);
    },
  );
}
