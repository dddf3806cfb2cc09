/**
 * The cluster simulator as a process (started by `services:up -- kubernetes`):
 *   node --conditions=source --import tsx test/services/cluster-sim/main.ts KUBECONFIG [installMs updateMs operatorMs secondaryMs]
 * Prints "cluster-sim ready" once its watches have listed; stops on SIGTERM.
 */
import { createKubeClient, loadKubeConfig } from '@nvcf/agent/kubernetes';
import { defaultSimDelays, startClusterSim } from './index.js';

const [kubeconfig, ...ms] = process.argv.slice(2);
if (!kubeconfig) {
  process.stderr.write('usage: main.ts KUBECONFIG [installMs updateMs operatorMs secondaryMs]\n');
  process.exit(2);
}
const [installMs, updateMs, operatorMs, secondaryMs] = ms.map(Number);
const delays = {
  installMs: installMs ?? defaultSimDelays.installMs,
  updateMs: updateMs ?? defaultSimDelays.updateMs,
  operatorMs: operatorMs ?? defaultSimDelays.operatorMs,
  secondaryMs: secondaryMs ?? defaultSimDelays.secondaryMs,
};
const log = (m: string) => process.stdout.write(`${new Date().toISOString()} ${m}\n`);
const sim = startClusterSim({ client: createKubeClient(loadKubeConfig(kubeconfig)), delays, log });
void sim.synced.then(() => log(`cluster-sim ready (${JSON.stringify(delays)})`));
const stop = () => void sim.dispose().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
