/**
 * The environment the charts give each container is one the services accept: it goes through
 * the services' own configuration readers, with the pod's mounted files (Secrets, the supergraph
 * ConfigMap) stood in for by temporary files at the paths the variables name.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '@nvcf/config';
import { limitEnv, readGatewayConfig } from '@nvcf/gateway';
import { readClusters } from '@nvcf/subgraph-icms';
import { readBusConfig, readCassandraConfig, readCursorSecret, readInternalSecret, readServiceConfig, url } from '@nvcf/service';
import { CHARTS, EXAMPLES, envOf, HELM_BUILD_TIMEOUT_MS, helmBinary, named, render, type K8sObject } from './helm-fixtures.js';

let dir: string;
beforeAll(async () => {
  await helmBinary();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'helm-config-'));
}, HELM_BUILD_TIMEOUT_MS);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * A Deployment's container env, the mounted files written under `dir` (Secrets: a random value;
 * ConfigMaps: their data) and every *_FILE variable pointed there.
 */
function podEnv(objs: K8sObject[], deployment: K8sObject): Record<string, string> {
  const pod = deployment.spec.template.spec;
  const c = pod.containers[0];
  const root = fs.mkdtempSync(path.join(dir, 'pod-'));
  for (const m of c.volumeMounts as { name: string; mountPath: string }[]) {
    const vol = pod.volumes.find((v: { name: string }) => v.name === m.name);
    const target = path.join(root, m.mountPath);
    fs.mkdirSync(target, { recursive: true });
    if (vol.secret) for (const item of vol.secret.items) fs.writeFileSync(path.join(target, item.path), randomBytes(24).toString('hex'));
    if (vol.configMap) {
      const cm = named(objs, 'ConfigMap', vol.configMap.name);
      for (const [k, v] of Object.entries(cm.data as Record<string, string>)) fs.writeFileSync(path.join(target, k), v);
    }
  }
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(envOf(c))) {
    if (typeof v !== 'string') throw new Error(`${k} comes from ${JSON.stringify(v)}; give it a value in the test`);
    env[k] = k.endsWith('_FILE') ? path.join(root, v) : v;
  }
  return env;
}

describe('the services accept the environment the chart gives them', () => {
  it('production example: the gateway\'s configuration reads, with its subgraphs at their Services and its limits', async () => {
    const objs = await render('controlPlane', { values: [EXAMPLES.controlPlane] });
    const gw = readGatewayConfig(podEnv(objs, named(objs, 'Deployment', '-gateway')));
    expect(gw).toMatchObject({ authMode: 'jwt', introspection: 'claim', graphiql: false, console: true, metricsHost: '0.0.0.0', host: '0.0.0.0', streamReplicas: 3, drainGraceMs: 30000 });
    for (const [name, key] of [['nvcf', 'nvcf'], ['icms', 'icms'], ['nvca-status', 'nvca-status'], ['nvct', 'nvct']] as const) {
      const svc = named(objs, 'Service', `-${name}`);
      expect(gw.subgraphs[key]).toBe(`http://${svc.metadata.name}:${svc.spec.ports[0].port}/graphql`);
    }
    expect(gw.limits).toMatchObject({ operationsPerSecond: 50, operationsBurst: 100, requestTimeoutMs: 30000 });
    expect(gw.supergraph).toContain('@join__graph(name: "nvcf"');
  });

  it('production example: every subgraph reads its common, Cassandra, secret and own settings', async () => {
    const objs = await render('controlPlane', { values: [EXAMPLES.controlPlane] });
    for (const svc of ['nvcf', 'icms', 'nvca-status', 'nvct']) {
      const env = podEnv(objs, named(objs, 'Deployment', `-${svc}`));
      expect(readServiceConfig(env, { port: 0 }).port).toBe(Number(env.PORT));
      expect(readBusConfig(env).streamReplicas).toBe(3);
      expect(readCassandraConfig(env).contactPoints).toHaveLength(3);
      expect(readInternalSecret(env)).toHaveLength(48);
      if (svc === 'nvca-status') expect(readCursorSecret(env)).toHaveLength(48);
      if (svc === 'nvcf') expect(url(env, 'ICMS_URL', '')).toBe(`http://${named(objs, 'Service', '-icms').metadata.name}:4002`);
      // ICMS's own loader takes the clusters as the chart writes them, node labels included
      if (svc === 'icms')
        expect(readClusters(env)).toMatchObject([
          { id: 'gpu-west-1', gpus: [{ nodeSelectors: { 'gh100_8.br25_16xlarge': { 'nvidia.com/gpu.count': '8' } } }] },
        ]);
    }
  });

  it('defaults: the gateway refuses to start until the JWT settings are given (NOTES.txt says so)', async () => {
    const objs = await render('controlPlane');
    expect(() => readGatewayConfig(podEnv(objs, named(objs, 'Deployment', '-gateway')))).toThrow(new ConfigError('JWT_ISSUER is required: AUTH_MODE=jwt needs the identity provider'));
  });

  it('gateway.limits in the schema are exactly the gateway\'s GATEWAY_* variables', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(CHARTS.controlPlane, 'values.schema.json'), 'utf8'));
    expect(Object.keys(schema.properties.gateway.properties.limits.properties).sort()).toEqual(Object.values(limitEnv).sort());
  });
});
