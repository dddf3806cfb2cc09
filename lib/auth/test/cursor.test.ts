import { encodeCursor, decodeCursor } from '../src/index.js';

describe('status cursors', () => {
  it('round-trips a position for its tenant only', () => {
    const c = encodeCursor('s', 'nca-a', 12345);
    expect(decodeCursor('s', 'nca-a', c)).toBe(12345);
    expect(() => decodeCursor('s', 'nca-b', c)).toThrow('not issued to this tenant');
  });
  it('refuses altered and malformed cursors', () => {
    const c = encodeCursor('s', 'nca-a', 7);
    const forged = c.replace(/^v1\.[^.]+/, `v1.${(1).toString(36)}`);
    expect(() => decodeCursor('s', 'nca-a', forged)).toThrow('altered');
    expect(() => decodeCursor('s', 'nca-a', 'garbage')).toThrow('malformed');
  });
});
