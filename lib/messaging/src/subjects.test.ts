import { subjectMatches, subjects } from './index.js';

describe('subjects', () => {
  it('matches NATS wildcards', () => {
    expect(subjectMatches('Create.NVCA.>', 'Create.NVCA.c1')).toBe(true);
    expect(subjectMatches('Create.NVCA.>', 'Create.NVCA')).toBe(false);
    expect(subjectMatches('Status.NVCA.nca-a.*', 'Status.NVCA.nca-a.i1')).toBe(true);
    expect(subjectMatches('Status.NVCA.nca-a.*', 'Status.NVCA.nca-b.i1')).toBe(false);
  });
  it('refuses ids that would escape their subject token', () => {
    expect(() => subjects.create('a.b')).toThrow('not a subject token');
    expect(() => subjects.status('nca-a', '>')).toThrow('not a subject token');
  });
});
