/** The agent's operator report: published when the cluster's support changes (or forced), with a clock that only moves forward. */
import type { Bus } from '@nvcf/bus';
import type { ClusterOperatorsMessage, OperatorSupport } from '@nvcf/contracts';
import type { ClusterDriver } from '../src/index.js';
import { OperatorReporter } from '../src/operator-report.js';

const helm = (missingCrds: string[] = []): OperatorSupport[] => [
  { operatorType: 'helm', clusterAttribute: 'helm', missingCrds },
];

function setup() {
  const published: ClusterOperatorsMessage[] = [];
  const lines: string[] = [];
  let support: OperatorSupport[] | Error = helm();
  const bus = {
    publish: async (_subject: string, m: ClusterOperatorsMessage) => {
      published.push(m);
      return { seq: published.length, duplicate: false };
    },
  } as unknown as Bus;
  const driver = {
    clusterId: 'c1',
    operatorSupport: async () => {
      if (support instanceof Error) throw support;
      return support;
    },
  } as unknown as ClusterDriver;
  const abort = new AbortController();
  const reporter = new OperatorReporter({ bus, driver, signal: abort.signal, log: (l) => lines.push(l) });
  return { reporter, published, lines, abort, set: (s: OperatorSupport[] | Error) => (support = s) };
}

describe('OperatorReporter', () => {
  it('publishes a change, skips an unchanged check unless forced', async () => {
    const t = setup();
    await t.reporter.report(false);
    await t.reporter.report(false);
    expect(t.published).toHaveLength(1);
    await t.reporter.report(true);
    expect(t.published).toHaveLength(2);
    t.set(helm(['charts.example.com']));
    await t.reporter.report(false);
    expect(t.published).toHaveLength(3);
    expect(t.published[2]).toMatchObject({
      type: 'operators',
      clusterId: 'c1',
      operators: helm(['charts.example.com']),
    });
    expect(t.lines).toEqual([
      'operator support reported: every operator type installed',
      'operator support reported: every operator type installed',
      'operator support reported: helm missing charts.example.com',
    ]);
  });

  it('moves its clock forward on every report, even within one millisecond', async () => {
    const t = setup();
    for (let i = 0; i < 3; i++) await t.reporter.report(true);
    const clocks = t.published.map((m) => m.clock);
    expect(clocks[1]).toBeGreaterThan(clocks[0]);
    expect(clocks[2]).toBeGreaterThan(clocks[1]);
  });

  it('logs a failed check and retries it next time; after the stop it neither checks nor logs', async () => {
    const t = setup();
    t.set(new Error('apiserver down'));
    await t.reporter.report(false);
    expect(t.lines).toEqual(["cannot check the cluster's operator CRDs: apiserver down"]);
    t.set(helm());
    await t.reporter.report(false);
    expect(t.published).toHaveLength(1);
    t.abort.abort();
    t.set(helm(['x.example.com']));
    await t.reporter.report(true);
    expect(t.published).toHaveLength(1);
  });
});
