// Inline SVG charts built here from numbers; every label is escaped. Colours come with a dash
// pattern and a marker shape per series, and the legend names each one, so colour never stands alone;
// every marker fills the same square, and a count's axis is marked at even steps (1, 2, 5, 10 …).
import { escapeHtml } from './html.js';
import { niceTicks } from './logic/stats.js';

const DASHES = ['', '8 4', '2 4', '12 4 2 4', '4 4', '1 3'];
const MARKERS = ['circle', 'square', 'triangle', 'diamond', 'circle', 'square'];
/** Half the side of the box every marker fills, whatever its shape, in the chart and in its legend. */
const R = 5;

function marker(shape, x, y, colour) {
  const c = escapeHtml(colour);
  if (shape === 'square') return `<rect x="${x - R}" y="${y - R}" width="${2 * R}" height="${2 * R}" fill="${c}" class="marker"/>`;
  if (shape === 'triangle') return `<path d="M${x} ${y - R}L${x + R} ${y + R}L${x - R} ${y + R}Z" fill="${c}" class="marker"/>`;
  if (shape === 'diamond') return `<path d="M${x} ${y - R}L${x + R} ${y}L${x} ${y + R}L${x - R} ${y}Z" fill="${c}" class="marker"/>`;
  return `<circle cx="${x}" cy="${y}" r="${R}" fill="${c}" class="marker"/>`;
}

/** A line chart: series = [{name, colour, values}], x = labels. */
export function lineChart({ title, x, series, width = 640, height = 300, yLabels = null }) {
  const pad = { l: yLabels ? 70 : 44, r: 16, t: 28, b: 36 };
  const values = series.flatMap((s) => s.values);
  const even = yLabels ? null : niceTicks(Math.min(0, ...values), Math.max(1, ...values)); // nothing drawn below the axis
  const max = yLabels ? yLabels.length - 1 : even[even.length - 1];
  const min = yLabels ? 0 : even[0];
  const n = Math.max(1, x.length - 1);
  const px = (i) => pad.l + (i * (width - pad.l - pad.r)) / n;
  const py = (v) => height - pad.b - ((v - min) * (height - pad.t - pad.b)) / (max - min);
  const ticks = yLabels ? yLabels.map((label, v) => [v, label]) : even.map((v) => [v, String(v)]);
  const grid = ticks.map(([v, label]) => `<line x1="${pad.l}" x2="${width - pad.r}" y1="${py(v)}" y2="${py(v)}" class="grid"/><text x="${pad.l - 6}" y="${py(v) + 4}" text-anchor="end">${escapeHtml(label)}</text>`).join('');
  const labels = x.map((label, i) => `<text x="${px(i)}" y="${height - pad.b + 18}" text-anchor="middle">${escapeHtml(label)}</text>`).join('');
  const lines = series.map((s, k) => {
    const points = s.values.map((v, i) => `${px(i)},${py(v)}`).join(' ');
    const dash = DASHES[k % DASHES.length];
    return `<g><title>${escapeHtml(s.name)}</title><polyline points="${points}" fill="none" stroke="${escapeHtml(s.colour)}" stroke-width="3"${dash ? ` stroke-dasharray="${dash}"` : ''}/>${s.values.map((v, i) => marker(MARKERS[k % MARKERS.length], px(i), py(v), s.colour)).join('')}</g>`;
  }).join('');
  return `<figure class="chart"><svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(title)}"><text x="${pad.l}" y="18" class="chart-title">${escapeHtml(title)}</text>${grid}${labels}${lines}</svg>${legend(series)}</figure>`;
}

/** A bar chart: bars = [{label, value, colour?}], with an optional reference line (e.g. the fair mean). */
export function barChart({ title, bars, reference = null, referenceLabel = '', width = 640, height = 260, format = (v) => v }) {
  const pad = { l: 44, r: 16, t: reference === null ? 28 : 60, b: 40 };
  const max = Math.max(1, reference || 0, ...bars.map((b) => b.value)) * 1.1;
  const slot = (width - pad.l - pad.r) / Math.max(1, bars.length);
  const py = (v) => height - pad.b - (v * (height - pad.t - pad.b)) / max;
  const rects = bars.map((b, i) => {
    const x = pad.l + i * slot + slot * 0.15;
    const w = slot * 0.7;
    const y = py(b.value);
    return `<g><rect x="${x}" y="${y}" width="${w}" height="${height - pad.b - y}" fill="${escapeHtml(b.colour || '#56B4E9')}" class="chart-bar"/><text x="${x + w / 2}" y="${y - 6}" text-anchor="middle">${escapeHtml(format(b.value))}</text><text x="${x + w / 2}" y="${height - pad.b + 18}" text-anchor="middle">${escapeHtml(b.label)}</text></g>`;
  }).join('');
  const ref = reference === null ? '' : `<line x1="${pad.l}" x2="${width - pad.r}" y1="${py(reference)}" y2="${py(reference)}" class="ref"/><text x="${pad.l}" y="38" class="ref-label">- - ${escapeHtml(referenceLabel)}</text>`;
  return `<figure class="chart"><svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(title)}"><text x="${pad.l}" y="18" class="chart-title">${escapeHtml(title)}</text><line x1="${pad.l}" x2="${width - pad.r}" y1="${height - pad.b}" y2="${height - pad.b}" class="axis"/>${rects}${ref}</svg></figure>`;
}

function legend(series) {
  return `<figcaption class="legend">${series.map((s, k) => `<span class="legend-item"><svg viewBox="0 0 40 14" width="40" height="14" aria-hidden="true"><line x1="2" x2="38" y1="7" y2="7" stroke="${escapeHtml(s.colour)}" stroke-width="3"${DASHES[k % DASHES.length] ? ` stroke-dasharray="${DASHES[k % DASHES.length]}"` : ''}/>${marker(MARKERS[k % MARKERS.length], 20, 7, s.colour)}</svg>${escapeHtml(s.name)}</span>`).join('')}</figcaption>`;
}
