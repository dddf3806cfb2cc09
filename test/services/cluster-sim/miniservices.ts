/**
 * The MiniService controller we do not own: installs (pretends to) the chart of every new
 * generation, Installing → Running, and honours `spec.values.nvcfSimulate`:
 * `{ failure: "permanent" }` → Failed, `{ failure: "temporary", failTimes: N }` → Retrying N
 * times, then Running; `delayMs` overrides the delay.
 */
import {
  isOperatorMode,
  MINISERVICE,
  type KubeClient,
  type KubeObject,
  type MiniServicePhase,
} from '@nvcf/agent/kubernetes';
import { applyStatus, generationController, stillAt, type Controller } from './controller.js';
import type { Steps } from './timers.js';

export interface MiniServiceDelays {
  installMs: number;
  updateMs: number;
}
interface Simulate {
  failure?: 'permanent' | 'temporary';
  failTimes?: number;
  delayMs?: number;
}

const MANAGER = 'nvcf-sim-miniservice';
const simulateOf = (obj: KubeObject): Simulate =>
  (obj.spec?.values as { nvcfSimulate?: Simulate } | undefined)?.nvcfSimulate ?? {};
const statusOf = (obj: KubeObject) => (obj.status ?? {}) as { observedGeneration?: number; phase?: MiniServicePhase };

export function miniServiceController(
  client: KubeClient,
  delays: MiniServiceDelays,
  labelSelector: string,
  log: (m: string) => void,
): Controller {
  const setStatus = (obj: KubeObject, gen: number, phase: MiniServicePhase, message?: string) =>
    applyStatus(
      client,
      obj,
      { observedGeneration: gen, phase, lastTransitionTime: new Date().toISOString(), ...(message ? { message } : {}) },
      MANAGER,
    );

  /** Install attempt `n` of generation `gen`, unless the object moved on meanwhile. */
  const attempt = async (obj: KubeObject, gen: number, n: number, steps: Steps, key: string): Promise<void> => {
    const cur = await stillAt(client, obj, gen);
    if (!cur) return;
    const sim = simulateOf(cur);
    if (sim.failure === 'permanent')
      return void (await setStatus(
        cur,
        gen,
        'Failed',
        'values rejected by the chart (nvcfSimulate permanent failure)',
      ));
    const failTimes = sim.failTimes ?? 1;
    if (sim.failure === 'temporary' && n <= failTimes) {
      await setStatus(
        cur,
        gen,
        'Retrying',
        `worker not ready yet (nvcfSimulate temporary failure ${n} of ${failTimes})`,
      );
      steps.after(key, sim.delayMs ?? delays.updateMs, () => attempt(cur, gen, n + 1, steps, key));
      return;
    }
    await setStatus(cur, gen, 'Running');
  };

  return generationController(client, {
    ...MINISERVICE,
    labelSelector,
    log,
    // operator mode is the agent's own controller code (startOperatorMode), not simulated here
    settled: (obj) =>
      isOperatorMode(obj) ||
      (statusOf(obj).observedGeneration === obj.metadata.generation &&
        ['Running', 'Failed'].includes(statusOf(obj).phase ?? '')),
    async start(obj, steps, key) {
      const gen = obj.metadata.generation ?? 1;
      if (statusOf(obj).observedGeneration !== gen) await setStatus(obj, gen, 'Installing');
      steps.after(key, simulateOf(obj).delayMs ?? (gen === 1 ? delays.installMs : delays.updateMs), () =>
        attempt(obj, gen, 1, steps, key),
      );
    },
  });
}
