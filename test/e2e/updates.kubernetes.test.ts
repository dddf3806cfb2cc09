import { cleanupKube, describeKubernetes, startKubeSystem } from './suites/kubernetes.js';
import { updatesKubernetesSuite } from './suites/updates.suite.js';

describeKubernetes('Kubernetes driver on NATS JetStream and Cassandra', () =>
  updatesKubernetesSuite(
    () => startKubeSystem(),
    (k) => cleanupKube(k?.client ?? (undefined as never), k?.system),
  ),
);
