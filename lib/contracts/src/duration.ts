/** The durations of tasks on the wire (nvct's input, the agent's run message): ISO 8601, one reading. */
// days, hours, minutes and seconds have one length each; a year or a month does not, so they are refused
const DURATION = /^P(?:(\d+)W|(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d{1,3})?)S)?)?)$/;

const MS = { W: 7 * 86_400_000, D: 86_400_000, H: 3_600_000, M: 60_000, S: 1000 };

/** Milliseconds of an ISO-8601 duration (PnW or PnDTnHnMnS), or null when it is not one. */
export function durationMs(text: string): number | null {
  const m = DURATION.exec(text);
  if (!m || text === 'P' || text.endsWith('T')) return null;
  const [, w, d, h, min, s] = m;
  const n = (v: string | undefined) => (v ? Number(v) : 0);
  return n(w) * MS.W + n(d) * MS.D + n(h) * MS.H + n(min) * MS.M + Math.round(n(s) * MS.S);
}
