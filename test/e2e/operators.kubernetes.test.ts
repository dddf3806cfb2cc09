import { cleanupKube, describeKubernetes, startKubeSystem } from './suites/kubernetes.js';
import { operatorsKubernetesSuite } from './suites/operators.suite.js';

describeKubernetes('Kubernetes driver on NATS JetStream and Cassandra', () =>
  operatorsKubernetesSuite(
    () => startKubeSystem(),
    async (k) => {
      if (k) await cleanupKube(k.client, k.system);
    },
  ),
);
