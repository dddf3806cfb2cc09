/**
 * etcd and kube-apiserver from the Go module proxy, built once into .cache/bin. Neither can be
 * `go install`ed (both modules carry replace directives), so each is built from a generated
 * go.mod under .cache/: kube-apiserver's with a replace for every k8s.io staging module, which
 * k8s.io/kubernetes requires at v0.0.0 and resolves only inside its own repository.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ServiceStartError } from './errors.js';
import { log, runCommand } from './process.js';
import type { ServicePaths } from './state.js';

export const KUBERNETES_VERSION = 'v1.35.4';
/** the staging modules are tagged v0.<minor>.<patch> alongside each Kubernetes release */
const STAGING_VERSION = KUBERNETES_VERSION.replace(/^v1\./, 'v0.');
export const ETCD_VERSION = 'v3.6.16';

// every module under staging/src/k8s.io of k8s.io/kubernetes v1.35
const STAGING = [
  'api',
  'apiextensions-apiserver',
  'apimachinery',
  'apiserver',
  'cli-runtime',
  'client-go',
  'cloud-provider',
  'cluster-bootstrap',
  'code-generator',
  'component-base',
  'component-helpers',
  'controller-manager',
  'cri-api',
  'cri-client',
  'csi-translation-lib',
  'dynamic-resource-allocation',
  'endpointslice',
  'externaljwt',
  'kms',
  'kube-aggregator',
  'kube-controller-manager',
  'kube-proxy',
  'kube-scheduler',
  'kubectl',
  'kubelet',
  'metrics',
  'mount-utils',
  'pod-security-admission',
  'sample-apiserver',
  'sample-cli-plugin',
  'sample-controller',
];

export const etcdBinary = (p: ServicePaths) => path.join(p.binDir, 'etcd');
export const kubeApiserverBinary = (p: ServicePaths) => path.join(p.binDir, 'kube-apiserver');

function versionOf(bin: string): string {
  try {
    return execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  } catch {
    return '';
  }
}

interface GoBuild {
  name: string;
  dir: string;
  module: string;
  version: string;
  pkg: string;
  bin: string;
  replace?: string[];
  ldflags?: string;
}

/** Writes go.mod and a tools.go that imports the main package, so `go mod tidy` pins everything. */
async function goBuild(b: GoBuild, env: NodeJS.ProcessEnv): Promise<void> {
  fs.mkdirSync(b.dir, { recursive: true });
  const replace = b.replace?.length ? `\nreplace (\n${b.replace.map((r) => `\t${r}`).join('\n')}\n)\n` : '';
  const gomod = `module nvcf.local/${b.name}-build\n\ngo 1.25.0\n\nrequire ${b.module} ${b.version}\n${replace}`;
  const gomodFile = path.join(b.dir, 'go.mod');
  if (!fs.existsSync(gomodFile) || !fs.readFileSync(gomodFile, 'utf8').includes(`require ${b.module} ${b.version}\n`)) {
    fs.writeFileSync(gomodFile, gomod);
    fs.rmSync(path.join(b.dir, 'go.sum'), { force: true });
  }
  fs.writeFileSync(path.join(b.dir, 'tools.go'), `//go:build tools\n\npackage tools\n\nimport _ "${b.pkg}"\n`);
  const goEnv = { ...env, CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false' };
  const t0 = Date.now();
  log(
    `building ${b.name} ${b.version} from the Go module proxy (first run only; kube-apiserver takes many minutes)...`,
  );
  await runCommand('go', ['mod', 'tidy'], { cwd: b.dir, env: goEnv });
  const args = ['build', '-trimpath', '-o', b.bin + '.tmp'];
  if (b.ldflags) args.push('-ldflags', b.ldflags);
  await runCommand('go', [...args, b.pkg], { cwd: b.dir, env: goEnv });
  fs.renameSync(b.bin + '.tmp', b.bin);
  log(`${b.name} ${b.version} built in ${((Date.now() - t0) / 1000).toFixed(0)}s`);
}

/** Builds the pinned etcd into .cache/bin unless `etcd --version` already reports it. */
export async function ensureEtcd(p: ServicePaths, env: NodeJS.ProcessEnv): Promise<string> {
  const bin = etcdBinary(p);
  const want = ETCD_VERSION.slice(1);
  if (versionOf(bin).includes(`etcd Version: ${want}`)) return bin;
  await goBuild(
    {
      name: 'etcd',
      dir: path.join(p.cacheDir, 'etcd-build'),
      module: 'go.etcd.io/etcd/server/v3',
      version: ETCD_VERSION,
      pkg: 'go.etcd.io/etcd/server/v3',
      bin,
      ldflags: '-s -w',
    },
    env,
  );
  if (!versionOf(bin).includes(`etcd Version: ${want}`))
    throw new ServiceStartError(`built ${bin} but it does not report etcd ${want}`);
  return bin;
}

/** Builds the pinned kube-apiserver into .cache/bin unless `kube-apiserver --version` already reports it. */
export async function ensureKubeApiserver(p: ServicePaths, env: NodeJS.ProcessEnv): Promise<string> {
  const bin = kubeApiserverBinary(p);
  if (versionOf(bin).trim() === `Kubernetes ${KUBERNETES_VERSION}`) return bin;
  const [major, minor] = KUBERNETES_VERSION.slice(1).split('.');
  const v = 'k8s.io/component-base/version';
  await goBuild(
    {
      name: 'kube-apiserver',
      dir: path.join(p.cacheDir, 'kube-build'),
      module: 'k8s.io/kubernetes',
      version: KUBERNETES_VERSION,
      pkg: 'k8s.io/kubernetes/cmd/kube-apiserver',
      bin,
      replace: STAGING.map((m) => `k8s.io/${m} => k8s.io/${m} ${STAGING_VERSION}`),
      // without these the binary calls itself v0.0.0-master
      ldflags: `-s -w -X ${v}.gitVersion=${KUBERNETES_VERSION} -X ${v}.gitMajor=${major} -X ${v}.gitMinor=${minor} -X ${v}.gitTreeState=clean`,
    },
    env,
  );
  if (versionOf(bin).trim() !== `Kubernetes ${KUBERNETES_VERSION}`)
    throw new ServiceStartError(`built ${bin} but it reports "${versionOf(bin).trim()}"`);
  return bin;
}
