import type { Bus } from '@nvcf/bus';
import { msgIds, subjects, type ClusterOperatorsMessage } from '@nvcf/contracts';
import type { ClusterDriver } from './driver.js';

export interface OperatorReporterOptions {
  bus: Bus;
  driver: ClusterDriver;
  /** the agent's stop: no checks and no complaints after it */
  signal: AbortSignal;
  log: (msg: string) => void;
}

/** Tells ICMS which operator types this cluster can run (their CRDs served); only when that changed, unless forced. */
export class OperatorReporter {
  /** the support last published, so an unchanged check publishes nothing */
  private reported = '';
  /** microseconds, only moving forward: ICMS keeps the report with the highest clock */
  private clock = 0;

  constructor(private readonly o: OperatorReporterOptions) {}

  async report(force: boolean): Promise<void> {
    const { bus, driver, signal, log } = this.o;
    if (!driver.operatorSupport || signal.aborted) return;
    try {
      const operators = await driver.operatorSupport();
      const key = JSON.stringify(operators);
      if (!force && key === this.reported) return;
      this.clock = Math.max(this.clock + 1, Date.now() * 1000);
      const m: ClusterOperatorsMessage = {
        type: 'operators',
        clusterId: driver.clusterId,
        at: new Date(Math.floor(this.clock / 1000)).toISOString(),
        clock: this.clock,
        operators,
      };
      await bus.publish(subjects.cluster(driver.clusterId), m, { msgId: msgIds.cluster(m) });
      this.reported = key;
      const missing = operators.filter((o) => o.missingCrds.length);
      log(
        `operator support reported: ${missing.length ? missing.map((o) => `${o.operatorType} missing ${o.missingCrds.join(', ')}`).join('; ') : 'every operator type installed'}`,
      );
    } catch (err) {
      if (!signal.aborted) log(`cannot check the cluster's operator CRDs: ${(err as Error).message}`);
    }
  }

  /** Reports now (forced), then checks every `everyMs` until the agent stops. */
  async start(everyMs: number): Promise<void> {
    await this.report(true);
    const checks = setInterval(() => void this.report(false), everyMs);
    checks.unref();
    this.o.signal.addEventListener('abort', () => clearInterval(checks), { once: true });
  }
}
