import { subjectMatches } from '@nvcf/bus';
import { Streams, subjects } from '../src/index.js';

describe('subjects', () => {
  it('puts each subject in the stream DOMAIN.md names', () => {
    expect(subjectMatches(Streams.create.subjects[0], subjects.create('c1'))).toBe(true);
    expect(subjectMatches(Streams.status.subjects[0], subjects.status('nca-a', 'i1'))).toBe(true);
    expect(subjectMatches(subjects.statusOfTenant('nca-a'), subjects.status('nca-a', 'i1'))).toBe(true);
    expect(subjectMatches(subjects.statusOfTenant('nca-a'), subjects.status('nca-b', 'i1'))).toBe(false);
  });
  it('refuses ids that would escape their subject token', () => {
    expect(() => subjects.create('a.b')).toThrow('not a subject token');
    expect(() => subjects.status('nca-a', '>')).toThrow('not a subject token');
  });
});
