import { StreamIndex, subjectMatches } from '../src/subject-match.js';
import type { StreamSpec } from '../src/types.js';

const spec = (name: string, subject: string): StreamSpec => ({ name, subjects: [subject], retention: 'limits' });

describe('subjectMatches', () => {
  it('matches NATS wildcards', () => {
    expect(subjectMatches('Create.NVCA.>', 'Create.NVCA.c1')).toBe(true);
    expect(subjectMatches('Create.NVCA.>', 'Create.NVCA')).toBe(false);
    expect(subjectMatches('Status.NVCA.nca-a.*', 'Status.NVCA.nca-a.i1')).toBe(true);
    expect(subjectMatches('Status.NVCA.nca-a.*', 'Status.NVCA.nca-b.i1')).toBe(false);
    expect(subjectMatches('Status.NVCA.nca-a.*', 'Status.NVCA.nca-a.i1.x')).toBe(false);
    expect(subjectMatches(undefined, 'anything')).toBe(true);
  });
});

describe('StreamIndex', () => {
  it('names the stream of a subject, other when none holds it', () => {
    const index = new StreamIndex();
    index.add([spec('A', 'a.>'), spec('B', 'b.*')]);
    expect(index.of('a.x.y')).toBe('A');
    expect(index.of('b.x')).toBe('B');
    expect(index.of('b.x.y')).toBe('other');
  });
  it('answers anew after streams are added, and stays correct past its bound', () => {
    const index = new StreamIndex(2);
    expect(index.of('a.1')).toBe('other');
    index.add([spec('A', 'a.>')]);
    for (let i = 0; i < 5; i++) expect(index.of(`a.${i}`)).toBe('A');
  });
});
