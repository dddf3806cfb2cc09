import { readerWindowMs, type ReaderSnapshot } from '../metrics.js';

const snap = (at: number, nvcf: number, icms: number, status: number): ReaderSnapshot => ({
  at,
  acked: { nvcf, icms, 'nvca-status': status },
  lwt: null,
});

describe('how long the status readers disagree', () => {
  it('is the longest time between the first and the last reader reaching the same count', () => {
    // icms and nvca-status reach 100 events at 1 250; nvcf only at 2 000; everything else within 250 ms
    const history = [
      snap(1_000, 50, 50, 50),
      snap(1_250, 60, 150, 150),
      snap(1_500, 100, 150, 150),
      snap(1_750, 140, 150, 150),
      snap(2_000, 150, 150, 150),
    ];
    // count 141 (the first past nvcf's 140): icms and nvca-status at 1 250, nvcf at 2 000
    expect(readerWindowMs(history)).toBe(750);
  });

  it('counts from the first snapshot, and only what every reader reached', () => {
    // nvcf was ahead before the window began and icms never reaches its top: only counts 1-20 are compared
    const history = [snap(0, 1_000, 0, 0), snap(250, 1_010, 10, 20), snap(500, 1_030, 20, 30)];
    expect(readerWindowMs(history)).toBe(250);
  });

  it('has nothing to say before every reader moved', () => {
    expect(readerWindowMs([snap(0, 0, 0, 0)])).toBeNull();
    expect(readerWindowMs([snap(0, 0, 0, 0), snap(250, 5, 0, 5)])).toBeNull();
  });

  it('is 0 for readers in step', () => {
    expect(readerWindowMs([snap(0, 0, 0, 0), snap(250, 5, 5, 5), snap(500, 9, 9, 9)])).toBe(0);
  });
});
