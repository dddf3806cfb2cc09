import { arg, listOf, positiveInt } from '../args.js';

const argv = (...rest: string[]) => ['node', 'bench.ts', ...rest];

describe('benchmark options', () => {
  it('reads the value after the option, and nothing when it is absent', () => {
    expect(arg('sizes', argv('--single', '--sizes', '10x1000'))).toBe('10x1000');
    expect(arg('sizes', argv('--single'))).toBeUndefined();
    // the script's own path is not an option's value
    expect(arg('sizes', ['node'])).toBeUndefined();
  });

  it('refuses an option without its value', () => {
    expect(() => arg('only', argv('--only'))).toThrow('--only wants a value');
    expect(() => arg('only', argv('--only', '--quick'))).toThrow('--only wants a value');
  });

  it('takes whole numbers from 1 and refuses the rest by name', () => {
    expect(positiveInt('repeat', 1, argv())).toBe(1);
    expect(positiveInt('repeat', 1, argv('--repeat', '3'))).toBe(3);
    for (const bad of ['0', '-2', '1.5', 'three'])
      expect(() => positiveInt('repeat', 1, argv('--repeat', bad))).toThrow(
        `--repeat wants a whole number ≥ 1 (got '${bad}')`,
      );
  });

  it('takes a list of known names, the default when absent, and refuses an unknown one', () => {
    const phases = ['queries', 'rollout', 'sweep'] as const;
    expect(listOf('only', phases, phases, argv())).toEqual(['queries', 'rollout', 'sweep']);
    expect(listOf('only', phases, phases, argv('--only', 'rollout, sweep'))).toEqual(['rollout', 'sweep']);
    expect(() => listOf('only', phases, phases, argv('--only', 'rollout,fleet'))).toThrow(
      "--only takes queries, rollout, sweep, comma-separated (got 'rollout,fleet')",
    );
  });
});
