import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applySets, composeConfiguration, parseSet, readConfigurationInputs } from '../src/values.js';
import { UsageError } from '../src/errors.js';

const set = (base: unknown, ...exprs: string[]) =>
  applySets(
    base,
    exprs.map((e) => parseSet(e)),
  );

describe('--set', () => {
  it('types values as YAML scalars, like helm --set', () => {
    expect(set({}, 'replicas=3', 'debug=true', 'ratio=0.5', 'name=v2', 'quoted="3"', 'empty=', 'eq=a=b')).toEqual({
      replicas: 3,
      debug: true,
      ratio: 0.5,
      name: 'v2',
      quoted: '3',
      empty: '',
      eq: 'a=b',
    });
  });
  it('follows dotted paths, creating maps, and keeps every other key', () => {
    expect(
      set({ image: { repository: 'r', tag: 'v1' }, replicas: 1 }, 'image.tag=v2', 'resources.limits.gpu=1'),
    ).toEqual({ image: { repository: 'r', tag: 'v2' }, replicas: 1, resources: { limits: { gpu: 1 } } });
  });
  it('indexes lists, escapes dots, deletes with null, takes flow collections', () => {
    expect(
      set({ args: ['a', 'b'], drop: 1 }, 'args[1]=c', 'annotations.nvidia\\.com/x=y', 'drop=null', 'tags=[a, b]'),
    ).toEqual({ args: ['a', 'c'], annotations: { 'nvidia.com/x': 'y' }, tags: ['a', 'b'] });
  });
  it('--set-string keeps the text, and applies after --set', async () => {
    const inputs = await readConfigurationInputs(
      '.',
      [],
      ['image.tag=1.4', 'replicas=2'],
      ['image.tag=1.5', 'flag=true'],
    );
    expect(composeConfiguration({}, inputs)).toEqual({ image: { tag: '1.5' }, replicas: 2, flag: 'true' });
  });
  it('never changes the configuration it was given', () => {
    const base = { a: { b: 1 } };
    set(base, 'a.b=2');
    expect(base).toEqual({ a: { b: 1 } });
  });
  it.each(['novalue', '=3', 'a..b=1', 'a[x]=1'])('refuses %s as a usage error', (expr) => {
    expect(() => parseSet(expr)).toThrow(UsageError);
  });
  it('refuses a key into a list and an index past its end', () => {
    expect(() => set({ l: [1] }, 'l.x=1')).toThrow(/key of a list/);
    expect(() => set({ l: [1] }, 'l[5]=1')).toThrow(/past the end/);
  });
});

describe('--values', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nvcf-values-'));
  writeFileSync(join(dir, 'a.yaml'), 'image:\n  tag: v1\n  repository: r\nreplicas: 1\n');
  writeFileSync(join(dir, 'b.yaml'), 'image:\n  tag: v2\n');
  writeFileSync(join(dir, 'list.yaml'), '- a\n');
  writeFileSync(join(dir, 'bad.yaml'), 'a: [\n');

  it('replaces the base, merges files in order, then applies --set', async () => {
    const inputs = await readConfigurationInputs(dir, ['a.yaml', 'b.yaml'], ['replicas=2']);
    expect(composeConfiguration({ old: true }, inputs)).toEqual({ image: { tag: 'v2', repository: 'r' }, replicas: 2 });
  });
  it('without files, --set applies onto the base', async () => {
    expect(composeConfiguration({ old: true }, await readConfigurationInputs(dir, [], ['a=1']))).toEqual({
      old: true,
      a: 1,
    });
  });
  it.each([
    ['missing.yaml', /no such file/],
    ['list.yaml', /must be a map/],
    ['bad.yaml', /not valid YAML/],
  ])('refuses %s', async (file, message) => {
    await expect(readConfigurationInputs(dir, [file], [])).rejects.toThrow(message);
  });
});
