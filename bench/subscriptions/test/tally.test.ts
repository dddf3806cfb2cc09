import { DeliveryTally } from '../tally.js';

const all = () => true;

describe('deliveries counted per subscriber', () => {
  it('finds a loss that a duplicate on another subscriber would hide in a total', () => {
    const t = new DeliveryTally(2, 3);
    for (const n of [0, 1, 2]) t.record(0, n);
    t.record(0, 1); // again
    for (const n of [0, 2]) t.record(1, n); // 1 never arrives

    // four deliveries per subscriber pair would match "expected 6" in a plain count
    expect(t.tally(all, all)).toEqual({ delivered: 5, lost: 1, duplicates: 1, resumes: 0, replayed: 0 });
  });

  it('says whether a delivery is the first, so latencies are taken once', () => {
    const t = new DeliveryTally(1, 2);
    expect(t.record(0, 1)).toBe(true);
    expect(t.record(0, 1)).toBe(false);
    expect(t.delivered).toBe(1);
  });

  it('expects nothing of a subscriber not live or an event the bus did not take', () => {
    const t = new DeliveryTally(3, 2);
    t.record(0, 0);
    t.record(0, 1);
    t.record(1, 0);
    // subscriber 2 failed: not counted; event 1 was not acknowledged: subscriber 1 did not lose it
    expect(
      t.tally(
        (i) => i !== 2,
        (n) => n === 0,
      ),
    ).toEqual({ delivered: 3, lost: 0, duplicates: 0, resumes: 0, replayed: 0 });
  });

  it('ignores event numbers outside the step', () => {
    const t = new DeliveryTally(1, 2);
    expect(t.record(0, 2)).toBe(false);
    expect(t.record(0, -1)).toBe(false);
    expect(t.tally(all, all)).toEqual({ delivered: 0, lost: 2, duplicates: 0, resumes: 0, replayed: 0 });
  });

  it('keeps counting across a resume: a replayed event arrives once, a gap is still a loss', () => {
    const t = new DeliveryTally(2, 6);
    for (const n of [0, 1]) t.record(0, n);
    // subscriber 0 dropped its subscription after event 1, while events 2 and 3 were published
    t.resumed(0, 4);
    // the replay from its cursor: 1 again (the cursor pointed one too early), then 2, 3 and live 4; 5 never
    for (const n of [1, 2, 3, 4]) t.record(0, n);
    for (const n of [0, 1, 2, 3, 4, 5]) t.record(1, n);

    expect(t.tally(all, all)).toEqual({ delivered: 11, lost: 1, duplicates: 1, resumes: 1, replayed: 2 });
  });

  it('expects of each subscriber the events of its own sequence', () => {
    const t = new DeliveryTally(2, 3);
    t.record(0, 0);
    t.record(1, 0);
    t.record(1, 1);
    // subscriber 0's sequence had one event published, subscriber 1's two
    expect(t.tally(all, (n, i) => n < i + 1)).toEqual({
      delivered: 3,
      lost: 0,
      duplicates: 0,
      resumes: 0,
      replayed: 0,
    });
  });
});
