// Inline SVG charts built here from numbers; every label is escaped. Colours come with a dash
// pattern and a marker shape per series, and the legend names each one, so colour never stands alone;
// every marker fills the same square, and a count's axis is marked at even steps (1, 2, 5, 10 …).
// Each chart places its words from their size (`text`, in the chart's units) with a gap around each,
// so no word touches another, a line, a bar or a marker; a bar's name, which may be long, is the page's
// own text under its bar (it wraps, and a legend names it whole), not the drawing's.
import { escapeHtml } from './html.js';
import { niceTicks } from './logic/stats.js';

const DASHES = ['', '8 4', '2 4', '12 4 2 4', '4 4', '1 3'];
const MARKERS = ['circle', 'square', 'triangle', 'diamond', 'circle', 'square'];
/** Half the side of the box every marker fills, whatever its shape, in the chart and in its legend. */
const R = 5;
/** The room around each word, in the chart's units. */
const GAP = 4;
/** How far apart the lines of players on the same level sit, on a chart of levels. */
const APART = 3;
// A text's box about its baseline, and the widest its letters run (of the font's size): a short label's width.
const ASCENT = 0.95;
const DESCENT = 0.25;
const WIDEST = 0.7;
const wide = (label, text) => String(label).length * WIDEST * text;

function marker(shape, x, y, colour) {
  const c = escapeHtml(colour);
  if (shape === 'square') return `<rect x="${x - R}" y="${y - R}" width="${2 * R}" height="${2 * R}" fill="${c}" class="marker"/>`;
  if (shape === 'triangle') return `<path d="M${x} ${y - R}L${x + R} ${y + R}L${x - R} ${y + R}Z" fill="${c}" class="marker"/>`;
  if (shape === 'diamond') return `<path d="M${x} ${y - R}L${x + R} ${y}L${x} ${y + R}L${x - R} ${y}Z" fill="${c}" class="marker"/>`;
  return `<circle cx="${x}" cy="${y}" r="${R}" fill="${c}" class="marker"/>`;
}

/** The title's line and, under it, the reference's: their baselines and the lowest point they reach. */
function head(text, reference) {
  const title = Math.round(ASCENT * (text + 2)) + GAP;
  const ref = reference ? title + Math.round((DESCENT + ASCENT) * text) + GAP : title;
  return { title, ref, bottom: ref + DESCENT * (text + 2) + GAP };
}

/** The drawing: its words at `text` (the title a little larger, at `at`), then `body`. */
function svg({ title, width, height, text, at, body }) {
  return `<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(title)}" font-size="${text}"><text x="${at.x}" y="${at.y}" class="chart-title" font-size="${text + 2}">${escapeHtml(title)}</text>${body}</svg>`;
}

/** A line chart: series = [{name, colour, values}], x = labels; a round's label only where it has room. */
export function lineChart({ title, x, series, width = 640, height = 300, yLabels = null, text = 13 }) {
  const values = series.flatMap((s) => s.values);
  const even = yLabels ? null : niceTicks(Math.min(0, ...values), Math.max(1, ...values)); // nothing drawn below the axis
  const ticks = yLabels ? yLabels.map((label, v) => [v, label]) : even.map((v) => [v, String(v)]);
  const max = ticks[ticks.length - 1][0];
  const min = ticks[0][0];
  const top = head(text, false);
  // on a chart of levels, players on the same level would hide one another: each line sits a little apart
  const apart = (k) => (yLabels ? (k - (series.length - 1) / 2) * APART : 0);
  const spread = apart(series.length - 1);
  const pad = { l: GAP + Math.max(...ticks.map(([, label]) => wide(label, text))) + GAP, r: GAP + R,
    t: top.bottom + spread + Math.max(R, (ASCENT - 0.35) * text), b: spread + R + GAP + (ASCENT + DESCENT) * text + GAP };
  const inset = R + GAP; // the first and last markers clear of the axis's labels and the edge
  const n = Math.max(1, x.length - 1);
  const step = (width - pad.l - pad.r - 2 * inset) / n;
  const px = (i) => pad.l + inset + i * step;
  const py = (v) => height - pad.b - ((v - min) * (height - pad.t - pad.b)) / (max - min);
  const every = [1, 2, 5, 10, 20, 50, 100].find((k) => k * step >= Math.max(...x.map((l) => wide(l, text))) + GAP) || 100;
  const grid = ticks.map(([v, label]) => `<line x1="${pad.l}" x2="${width - pad.r}" y1="${py(v)}" y2="${py(v)}" class="grid"/><text x="${pad.l - GAP}" y="${py(v) + 0.35 * text}" text-anchor="end">${escapeHtml(label)}</text>`).join('');
  const labels = x.map((label, i) => (i % every ? '' : `<text x="${px(i)}" y="${py(min) + spread + R + GAP + ASCENT * text}" text-anchor="middle">${escapeHtml(label)}</text>`)).join('');
  const lines = series.map((s, k) => {
    const at = (v) => py(v) + apart(k);
    const points = s.values.map((v, i) => `${px(i)},${at(v)}`).join(' ');
    const dash = DASHES[k % DASHES.length];
    return `<g><title>${escapeHtml(s.name)}</title><polyline points="${points}" fill="none" stroke="${escapeHtml(s.colour)}" stroke-width="3"${dash ? ` stroke-dasharray="${dash}"` : ''}/>${s.values.map((v, i) => marker(MARKERS[k % MARKERS.length], px(i), at(v), s.colour)).join('')}</g>`;
  }).join('');
  return `<figure class="chart">${svg({ title, width, height, text, at: { x: pad.l, y: top.title }, body: grid + labels + lines })}${legend(series.map((s, k) => ({ name: s.name, key: lineKey(s, k) })))}</figure>`;
}

/**
 * A bar chart: bars = [{label, value, colour?, note?}], with an optional reference line (e.g. the fair mean).
 * A bar's value sits over it, or over the reference line where it would cross it; its label is under it,
 * in at most two lines, and with `legend` a legend names each bar whole, with its value and its note.
 */
export function barChart({ title, bars, reference = null, referenceLabel = '', width = 640, height = 260, format = (v) => v, legend: named = false, text = 13 }) {
  const top = head(text, reference !== null);
  const pad = { t: top.bottom + (ASCENT + DESCENT) * text + GAP, b: 1 };
  const max = Math.max(1, reference || 0, ...bars.map((b) => b.value)) * 1.1;
  const slot = width / Math.max(1, bars.length);
  const py = (v) => height - pad.b - (v * (height - pad.t - pad.b)) / max;
  const line = reference === null ? null : py(reference);
  const over = (y) => { // the baseline of a value whose bar ends at y: clear of the bar, and of the line
    const base = y - GAP - DESCENT * text;
    const crosses = line !== null && base + DESCENT * text + GAP > line - 1 && base - ASCENT * text - GAP < line + 1;
    return crosses ? line - 1 - GAP - DESCENT * text : base;
  };
  const rects = bars.map((b, i) => {
    const x = i * slot + slot * 0.15;
    const w = slot * 0.7;
    const y = py(b.value);
    return `<g><rect x="${x}" y="${y}" width="${w}" height="${height - pad.b - y}" fill="${escapeHtml(b.colour || '#56B4E9')}" class="chart-bar"/><text x="${x + w / 2}" y="${over(y)}" text-anchor="middle">${escapeHtml(format(b.value))}</text></g>`;
  }).join('');
  const ref = line === null ? '' : `<line x1="0" x2="${width}" y1="${line}" y2="${line}" class="ref"/><text x="${GAP * 3}" y="${top.ref}" class="ref-label">- - ${escapeHtml(referenceLabel)}</text>`;
  const axis = `<line x1="0" x2="${width}" y1="${height - pad.b}" y2="${height - pad.b}" class="axis"/>`;
  const under = `<ol class="bar-labels" aria-hidden="true">${bars.map((b) => `<li>${escapeHtml(b.label)}</li>`).join('')}</ol>`;
  const keys = named ? legend(bars.map((b) => ({ name: b.label, note: [format(b.value), b.note].filter(Boolean).join(' · '), key: barKey(b) }))) : '';
  return `<figure class="chart bars">${svg({ title, width, height, text, at: { x: GAP * 3, y: top.title }, body: axis + rects + ref })}${under}${keys}</figure>`;
}

const lineKey = (s, k) => `<line x1="2" x2="38" y1="7" y2="7" stroke="${escapeHtml(s.colour)}" stroke-width="3"${DASHES[k % DASHES.length] ? ` stroke-dasharray="${DASHES[k % DASHES.length]}"` : ''}/>${marker(MARKERS[k % MARKERS.length], 20, 7, s.colour)}`;
const barKey = (b) => `<rect x="13" y="0" width="14" height="14" fill="${escapeHtml(b.colour || '#56B4E9')}"/>`;

function legend(entries) {
  return `<figcaption class="legend">${entries.map((e) => `<span class="legend-item"><svg viewBox="0 0 40 14" width="40" height="14" aria-hidden="true">${e.key}</svg><span>${escapeHtml(e.name)}${e.note ? `<span class="muted"> ${escapeHtml(e.note)}</span>` : ''}</span></span>`).join('')}</figcaption>`;
}
