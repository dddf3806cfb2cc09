import { oneOf, int, pairs, ConfigError } from '../src/index.js';

describe('typed environment getters', () => {
  it('names the allowed values when a value is invalid', () => {
    expect(() => oneOf({ NVCF_BACKEND: 'rael' }, 'NVCF_BACKEND', ['memory', 'real'], 'memory')).toThrow(
      "NVCF_BACKEND must be one of memory, real (got 'rael')",
    );
    expect(oneOf({}, 'NVCF_BACKEND', ['memory', 'real'], 'memory')).toBe('memory');
  });
  it('rejects non-integers and out-of-range integers', () => {
    expect(() => int({ PORT: '4x' }, 'PORT', 1, { min: 0, max: 65535 })).toThrow(ConfigError);
    expect(() => int({ PORT: '70000' }, 'PORT', 1, { min: 0, max: 65535 })).toThrow('between 0 and 65535');
    expect(int({ PORT: '4001' }, 'PORT', 1)).toBe(4001);
  });
  it('parses token pairs', () => {
    expect(pairs({ T: 'a=x, b=y' }, 'T', {})).toEqual({ a: 'x', b: 'y' });
    expect(() => pairs({ T: 'a' }, 'T', {})).toThrow('must look like');
  });
});
