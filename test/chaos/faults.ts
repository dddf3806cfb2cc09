import type { Topology } from '@nvcf/local/topology';
import type { Nodes } from '../cluster/system.js';
import type { NodeSpec } from '../services/cluster.js';
import { sleep, type Random } from './random.js';

export type FaultKind = 'SIGKILL' | 'SIGSTOP';

/** What one fault can hit; a group is faulted once at a time (its redundancy is one member). */
export interface Target {
  name: string;
  group: string;
  kinds: FaultKind[];
}

export interface FaultRecord {
  target: string;
  group: string;
  kind: FaultKind;
  at: string;
  held_ms: number;
  recovered_ms: number;
}

class FaultFailed extends Error {
  override name = 'FaultFailed';
}

/**
 * Injects faults into the processes of a topology and the nodes of the cluster, and heals them:
 * a killed process is started again (a Deployment's controller), a killed node restarted, a stopped
 * one continued; a fault ends when what it hit is ready again.
 */
export class Faults {
  readonly records: FaultRecord[] = [];
  private busy = new Set<string>();

  constructor(
    private readonly topology: Topology,
    private readonly nodes: Nodes,
    private readonly random: Random,
  ) {}

  targets(): Target[] {
    const processes: Target[] = this.topology.processes().map((p) => ({
      name: p.name,
      group: p.kind,
      // one replica of icms and nvca-status: a crash the controller restarts, never a hang nobody restarts
      kinds: p.kind === 'icms' || p.kind === 'nvca-status' ? ['SIGKILL'] : ['SIGKILL', 'SIGSTOP'],
    }));
    return [
      ...processes,
      ...this.nodes.nats.map((n) => ({ name: n.name, group: 'nats', kinds: ['SIGKILL', 'SIGSTOP'] as FaultKind[] })),
      // a killed Cassandra node takes half a minute and more to rejoin: stopped more often than killed
      ...this.nodes.cassandra.map((n) => ({
        name: n.name,
        group: 'cassandra',
        kinds: ['SIGSTOP', 'SIGSTOP', 'SIGKILL'] as FaultKind[],
      })),
    ];
  }

  /** a random fault on a group not faulted now, held a few seconds, then healed */
  async one(): Promise<FaultRecord | undefined> {
    // a group first, then one of its members: seven replicas of one kind do not make it seven times as likely
    const free = this.targets().filter((t) => !this.busy.has(t.group));
    if (!free.length) return undefined;
    const group = this.random.pick([...new Set(free.map((t) => t.group))]);
    const target = this.random.pick(free.filter((t) => t.group === group));
    const kind = this.random.pick(target.kinds);
    this.busy.add(target.group);
    try {
      return await this.inject(target, kind, this.random.between(2000, 8000));
    } finally {
      this.busy.delete(target.group);
    }
  }

  private async inject(target: Target, kind: FaultKind, holdMs: number): Promise<FaultRecord> {
    const at = new Date().toISOString();
    const node = [...this.nodes.nats, ...this.nodes.cassandra].find((n) => n.name === target.name);
    const heal = node ? await this.hitNode(node, target.group, kind) : await this.hitProcess(target.name, kind);
    await sleep(holdMs);
    const t = Date.now();
    try {
      await heal();
    } catch (err) {
      throw new FaultFailed(`${target.name} did not recover from ${kind}: ${(err as Error).message}`, { cause: err });
    }
    const record = {
      target: target.name,
      group: target.group,
      kind,
      at,
      held_ms: holdMs,
      recovered_ms: Date.now() - t,
    };
    this.records.push(record);
    return record;
  }

  private async hitNode(node: NodeSpec, group: string, kind: FaultKind): Promise<() => Promise<void>> {
    const settled = () => (group === 'nats' ? this.nodes.natsHealthy() : this.nodes.ringUp());
    if (kind === 'SIGSTOP') {
      this.nodes.signal(node, 'SIGSTOP');
      return async () => {
        this.nodes.signal(node, 'SIGCONT');
        await settled();
      };
    }
    await this.nodes.stop(node, 'kill');
    return async () => {
      await this.nodes.start(node);
      await settled();
    };
  }

  private async hitProcess(name: string, kind: FaultKind): Promise<() => Promise<void>> {
    const p = this.topology.processes().find((x) => x.name === name);
    if (!p) throw new FaultFailed(`no process named ${name}`);
    if (kind === 'SIGSTOP') {
      p.signal('SIGSTOP');
      return async () => {
        p.signal('SIGCONT');
        await p.ready(60_000);
      };
    }
    await this.topology.kill(name);
    return async () => {
      await this.topology.revive(name);
    };
  }
}
