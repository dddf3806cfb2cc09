// The saturation curves as an SVG the benchmark writes next to latest.json: delivered/s and p99
// against offered deliveries/s, one line per path and series. Hand-rolled so the benchmark needs
// no charting package; the data are a few dozen points.
import type { SweepCurve } from './run.js';

const W = 460,
  H = 300,
  PAD = { l: 64, r: 16, t: 28, b: 44 };
const COLORS: Record<string, string> = {
  service: '#8250df',
  gateway: '#1f6feb',
  ceiling: '#6e7781',
  forward: '#d29922',
  cosmo: '#2da44e',
};
const fmt = (x: number) => (x >= 1000 ? `${Math.round(x / 100) / 10}k` : String(Math.round(x)));
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

interface Panel {
  title: string;
  y: (s: SweepCurve['steps'][number]) => number;
  yMax: number;
  /** a horizontal reference line: the y = x diagonal for delivered, the p99 bound for latency */
  ref: 'diagonal' | number;
  yLabel: string;
}

function panel(curves: SweepCurve[], p: Panel, xMax: number, dx: number): string {
  const iw = W - PAD.l - PAD.r,
    ih = H - PAD.t - PAD.b;
  const X = (v: number) => dx + PAD.l + (v / xMax) * iw;
  const Y = (v: number) => PAD.t + ih - (Math.min(v, p.yMax) / p.yMax) * ih;
  const out: string[] = [];
  out.push(`<text x="${dx + W / 2}" y="16" text-anchor="middle" font-weight="bold">${esc(p.title)}</text>`);
  for (let i = 0; i <= 4; i++) {
    const yv = (p.yMax * i) / 4,
      xv = (xMax * i) / 4;
    out.push(`<line x1="${X(0)}" x2="${X(xMax)}" y1="${Y(yv)}" y2="${Y(yv)}" stroke="#eee"/>`);
    out.push(`<text x="${X(0) - 6}" y="${Y(yv) + 4}" text-anchor="end">${fmt(yv)}</text>`);
    out.push(`<text x="${X(xv)}" y="${PAD.t + ih + 16}" text-anchor="middle">${fmt(xv)}</text>`);
  }
  out.push(
    `<text x="${dx + PAD.l + iw / 2}" y="${H - 6}" text-anchor="middle">offered deliveries/s</text>`,
    `<text transform="translate(${dx + 14},${PAD.t + ih / 2}) rotate(-90)" text-anchor="middle">${esc(p.yLabel)}</text>`,
  );
  if (p.ref === 'diagonal')
    out.push(
      `<line x1="${X(0)}" y1="${Y(0)}" x2="${X(Math.min(xMax, p.yMax))}" y2="${Y(Math.min(xMax, p.yMax))}" stroke="#bbb" stroke-dasharray="4 3"/>`,
    );
  else
    out.push(
      `<line x1="${X(0)}" x2="${X(xMax)}" y1="${Y(p.ref)}" y2="${Y(p.ref)}" stroke="#cf222e" stroke-dasharray="4 3"/>`,
    );
  for (const c of curves) {
    if (!c.steps.length) continue;
    const color = COLORS[c.path] ?? '#000';
    const dash = c.subs >= 10_000 ? ' stroke-dasharray="6 3"' : '';
    const pts = c.steps.map((s) => `${X(s.offered_per_s).toFixed(1)},${Y(p.y(s)).toFixed(1)}`).join(' ');
    out.push(`<polyline points="${pts}" fill="none" stroke="${color}" stroke-width="2"${dash}/>`);
    for (const s of c.steps)
      out.push(
        `<circle cx="${X(s.offered_per_s).toFixed(1)}" cy="${Y(p.y(s)).toFixed(1)}" r="3" fill="${s.sustained ? color : '#fff'}" stroke="${color}"/>`,
      );
  }
  return out.join('\n');
}

/** Two panels side by side; filled points were sustained, hollow ones were not. */
export function sweepSvg(curves: SweepCurve[], p99BoundMs: number): string {
  const steps = curves.flatMap((c) => c.steps);
  const xMax = Math.max(1, ...steps.map((s) => s.offered_per_s));
  const yDelivered = Math.max(xMax, ...steps.map((s) => s.events_per_s));
  const p99Top = Math.min(1000, Math.max(2 * p99BoundMs, ...steps.map((s) => s.p99_ms)));
  const legend = curves
    .filter((c) => c.steps.length)
    .map((c, i) => {
      const color = COLORS[c.path] ?? '#000';
      const dash = c.subs >= 10_000 ? ' stroke-dasharray="6 3"' : '';
      const y = H + 14 + i * 16;
      return `<line x1="${PAD.l}" x2="${PAD.l + 28}" y1="${y - 4}" y2="${y - 4}" stroke="${color}" stroke-width="2"${dash}/><text x="${PAD.l + 34}" y="${y}">${esc(`${c.path}, ${c.subs.toLocaleString('en-US')} subscribers${c.stopped ? ` (stopped at ${c.stopped})` : ''}`)}</text>`;
    });
  const h = H + 20 + legend.length * 16;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * W}" height="${h}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    panel(
      curves,
      { title: 'delivered/s', y: (s) => s.events_per_s, yMax: yDelivered, ref: 'diagonal', yLabel: 'delivered/s' },
      xMax,
      0,
    ),
    panel(
      curves,
      {
        title: `p99 latency (bound ${p99BoundMs} ms)`,
        y: (s) => s.p99_ms,
        yMax: p99Top,
        ref: p99BoundMs,
        yLabel: 'p99 ms',
      },
      xMax,
      W,
    ),
    ...legend,
    '</svg>',
    '',
  ].join('\n');
}
