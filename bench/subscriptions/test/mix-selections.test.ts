import { parse } from 'graphql';
import { missingRemote, selectionOf, SELECTIONS } from '../mix/selections.js';
import { subscribersByTenant } from '../mix/tenants.js';

const count = (xs: string[]) => xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>());

describe("the realistic mix's selections", () => {
  it('are five distinct query texts, two of them naming remote fields', () => {
    expect(new Set(SELECTIONS.map((s) => s.query)).size).toBe(5);
    expect(SELECTIONS.filter((s) => s.remote)).toHaveLength(2);
    for (const s of SELECTIONS) expect(() => parse(s.query)).not.toThrow();
  });

  it('gives one third of the subscribers a remote selection, and uses every selection evenly', () => {
    const picked = Array.from({ length: 1200 }, (_, i) => selectionOf(i));
    const by = count(picked.map((s) => s.name));
    expect(picked.filter((s) => s.remote)).toHaveLength(400);
    expect(by.get('cluster')).toBe(200);
    expect(by.get('cluster+state')).toBe(200);
    const local = SELECTIONS.filter((s) => !s.remote).map((s) => by.get(s.name)!);
    expect(local.reduce((a, b) => a + b)).toBe(800);
    expect(Math.max(...local) - Math.min(...local)).toBeLessThanOrEqual(1);
  });

  it('gives every tenant remote and local subscribers', () => {
    for (const mine of subscribersByTenant(1000, 50)) {
      const remote = mine.filter((i) => selectionOf(i).remote).length;
      expect(remote).toBeGreaterThan(0);
      expect(remote).toBeLessThan(mine.length);
    }
  });

  it('says what a remote delivery lacks, and asks nothing of a local one', () => {
    const [local] = SELECTIONS;
    const cluster = SELECTIONS.find((s) => s.name === 'cluster')!,
      stored = SELECTIONS.find((s) => s.name === 'cluster+state')!;
    expect(missingRemote(local, null, undefined)).toBeNull();
    expect(missingRemote(cluster, { id: 'i', cluster: { name: 'c' } }, 'c')).toBeNull();
    expect(missingRemote(cluster, null, 'c')).toBe('no instance');
    expect(missingRemote(cluster, { id: 'i', cluster: null }, 'c')).toMatch(/cluster name/);
    expect(missingRemote(cluster, { id: 'x', cluster: { name: 'c' } }, undefined)).toMatch(/not one of the run's/);
    expect(missingRemote(stored, { id: 'i', state: 'ACTIVE', cluster: { name: 'c', regions: ['r'] } }, 'c')).toBeNull();
    expect(missingRemote(stored, { id: 'i', cluster: { name: 'c', regions: ['r'] } }, 'c')).toBe('no state');
    expect(missingRemote(stored, { id: 'i', state: 'ACTIVE', cluster: { name: 'c', regions: [] } }, 'c')).toBe(
      'no regions',
    );
  });
});
