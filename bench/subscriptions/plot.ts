// The saturation curves as an SVG the benchmark writes next to latest.json: delivered/s and p99
// against offered deliveries/s, one median line per named series and subscriber count, with the
// spread of its repeats (min to max) as a band. Hand-rolled so the benchmark needs no charting
// package; the data are a few dozen points.

export interface PlotFigures {
  delivered_per_s: number;
  p99_ms: number;
}
export interface PlotPoint {
  offered_per_s: number;
  sustained: boolean;
  median: PlotFigures;
  min: PlotFigures;
  max: PlotFigures;
}
/** One line: series of the same name share a colour, a larger subscriber count is dashed. */
export interface PlotSeries {
  name: string;
  subscribers: number;
  /** why it stopped early, if it did */
  stopped?: string | null;
  points: PlotPoint[];
}

const W = 460,
  H = 300,
  PAD = { l: 64, r: 16, t: 28, b: 44 };
const PALETTE = ['#1f6feb', '#6e7781', '#8250df', '#d29922', '#2da44e', '#cf222e', '#bf3989'];
const DASHES = ['', ' stroke-dasharray="6 3"', ' stroke-dasharray="2 2"'];
const fmt = (x: number) => (x >= 1000 ? `${Math.round(x / 100) / 10}k` : String(Math.round(x)));
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const finite = (x: number) => (Number.isFinite(x) ? x : 0);

interface Style {
  color: string;
  dash: string;
}

interface Panel {
  title: string;
  y: keyof PlotFigures;
  yMax: number;
  /** a reference line: the y = x diagonal for delivered, the p99 bound for latency */
  ref: 'diagonal' | number;
  yLabel: string;
}

function panel(series: PlotSeries[], style: (s: PlotSeries) => Style, p: Panel, xMax: number, dx: number): string {
  const iw = W - PAD.l - PAD.r,
    ih = H - PAD.t - PAD.b;
  const X = (v: number) => (dx + PAD.l + (v / xMax) * iw).toFixed(1);
  const Y = (v: number) => (PAD.t + ih - (Math.min(finite(v), p.yMax) / p.yMax) * ih).toFixed(1);
  const out: string[] = [];
  out.push(`<text x="${dx + W / 2}" y="16" text-anchor="middle" font-weight="bold">${esc(p.title)}</text>`);
  for (let i = 0; i <= 4; i++) {
    const yv = (p.yMax * i) / 4,
      xv = (xMax * i) / 4;
    out.push(`<line x1="${X(0)}" x2="${X(xMax)}" y1="${Y(yv)}" y2="${Y(yv)}" stroke="#eee"/>`);
    out.push(`<text x="${Number(X(0)) - 6}" y="${Number(Y(yv)) + 4}" text-anchor="end">${fmt(yv)}</text>`);
    out.push(`<text x="${X(xv)}" y="${PAD.t + ih + 16}" text-anchor="middle">${fmt(xv)}</text>`);
  }
  out.push(
    `<text x="${dx + PAD.l + iw / 2}" y="${H - 6}" text-anchor="middle">offered deliveries/s</text>`,
    `<text transform="translate(${dx + 14},${PAD.t + ih / 2}) rotate(-90)" text-anchor="middle">${esc(p.yLabel)}</text>`,
  );
  if (p.ref === 'diagonal') {
    const end = Math.min(xMax, p.yMax);
    out.push(`<line x1="${X(0)}" y1="${Y(0)}" x2="${X(end)}" y2="${Y(end)}" stroke="#bbb" stroke-dasharray="4 3"/>`);
  } else
    out.push(
      `<line x1="${X(0)}" x2="${X(xMax)}" y1="${Y(p.ref)}" y2="${Y(p.ref)}" stroke="#cf222e" stroke-dasharray="4 3"/>`,
    );
  for (const s of series) {
    if (!s.points.length) continue;
    const { color, dash } = style(s);
    // the spread: min along the points, back along max
    const band = [
      ...s.points.map((q) => `${X(q.offered_per_s)},${Y(q.min[p.y])}`),
      ...[...s.points].reverse().map((q) => `${X(q.offered_per_s)},${Y(q.max[p.y])}`),
    ].join(' ');
    out.push(`<polygon points="${band}" fill="${color}" fill-opacity="0.15" stroke="none"/>`);
    const line = s.points.map((q) => `${X(q.offered_per_s)},${Y(q.median[p.y])}`).join(' ');
    out.push(`<polyline points="${line}" fill="none" stroke="${color}" stroke-width="2"${dash}/>`);
    for (const q of s.points)
      out.push(
        `<circle cx="${X(q.offered_per_s)}" cy="${Y(q.median[p.y])}" r="3" fill="${q.sustained ? color : '#fff'}" stroke="${color}"/>`,
      );
  }
  return out.join('\n');
}

/**
 * Two panels side by side, any number of series; filled points were sustained, hollow ones were
 * not, the shaded band is the spread of the repeats.
 */
export function sweepSvg(series: PlotSeries[], p99BoundMs: number): string {
  const names = [...new Set(series.map((s) => s.name))];
  const counts = [...new Set(series.map((s) => s.subscribers))].sort((a, b) => a - b);
  const style = (s: PlotSeries): Style => ({
    color: PALETTE[names.indexOf(s.name) % PALETTE.length],
    dash: DASHES[Math.min(counts.indexOf(s.subscribers), DASHES.length - 1)],
  });
  const points = series.flatMap((s) => s.points);
  const xMax = Math.max(1, ...points.map((q) => q.offered_per_s));
  const yDelivered = Math.max(xMax, ...points.map((q) => finite(q.max.delivered_per_s)));
  const p99Top = Math.min(1000, Math.max(2 * p99BoundMs, ...points.map((q) => finite(q.max.p99_ms))));
  const legend = series
    .filter((s) => s.points.length)
    .map((s, i) => {
      const { color, dash } = style(s);
      const y = H + 14 + i * 16;
      const text = `${s.name}, ${s.subscribers.toLocaleString('en-US')} subscribers${s.stopped ? ` (stopped at ${s.stopped})` : ''}`;
      return `<line x1="${PAD.l}" x2="${PAD.l + 28}" y1="${y - 4}" y2="${y - 4}" stroke="${color}" stroke-width="2"${dash}/><text x="${PAD.l + 34}" y="${y}">${esc(text)}</text>`;
    });
  const h = H + 20 + legend.length * 16;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * W}" height="${h}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    panel(
      series,
      style,
      {
        title: 'delivered/s (median, spread)',
        y: 'delivered_per_s',
        yMax: yDelivered,
        ref: 'diagonal',
        yLabel: 'delivered/s',
      },
      xMax,
      0,
    ),
    panel(
      series,
      style,
      { title: `p99 latency (bound ${p99BoundMs} ms)`, y: 'p99_ms', yMax: p99Top, ref: p99BoundMs, yLabel: 'p99 ms' },
      xMax,
      W,
    ),
    ...legend,
    '</svg>',
    '',
  ].join('\n');
}
