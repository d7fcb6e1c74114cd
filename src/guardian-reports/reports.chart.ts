import { Resvg } from '@resvg/resvg-js';

export const CHART_WIDTH = 600;
export const CHART_HEIGHT = 240;

const escape = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** A bar chart of activity per day as SVG, rendered to PNG on the server (no fonts needed for the bars; labels use the default font). */
const rendered = new Map<string, Buffer>();
const CACHE_SIZE = 500;

/** The same period and counts make the same picture: rendering costs tens of milliseconds, so recent ones are kept. */
export function activityChart(title: string, days: { label: string; count: number }[]): Buffer {
  const key = `${title}|${days.map((d) => `${d.label}:${d.count}`).join(',')}`;
  let png = rendered.get(key);
  if (!png) {
    png = render(title, days);
    if (rendered.size >= CACHE_SIZE) rendered.delete(rendered.keys().next().value!);
    rendered.set(key, png);
  }
  return png;
}

function render(title: string, days: { label: string; count: number }[]): Buffer {
  const max = Math.max(1, ...days.map((d) => d.count));
  const left = 30;
  const top = 30;
  const plotHeight = CHART_HEIGHT - top - 30;
  const slot = (CHART_WIDTH - left - 10) / Math.max(1, days.length);
  const bars = days
    .map((d, i) => {
      const h = Math.round((d.count / max) * plotHeight);
      const x = left + i * slot + slot * 0.15;
      const label =
        days.length <= 10 || i % 5 === 0
          ? `<text x="${x + slot * 0.35}" y="${CHART_HEIGHT - 10}" font-size="11" text-anchor="middle" fill="#555">${escape(d.label)}</text>`
          : '';
      return `<rect x="${x.toFixed(1)}" y="${top + plotHeight - h}" width="${(slot * 0.7).toFixed(1)}" height="${h}" fill="#3b82f6"/>${label}`;
    })
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART_WIDTH}" height="${CHART_HEIGHT}" viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT}">
<rect width="100%" height="100%" fill="#ffffff"/>
<text x="${left}" y="20" font-size="14" fill="#111">${escape(title)}</text>
<line x1="${left}" y1="${top + plotHeight}" x2="${CHART_WIDTH - 10}" y2="${top + plotHeight}" stroke="#999"/>
${bars}
</svg>`;
  return new Resvg(svg, { fitTo: { mode: 'width', value: CHART_WIDTH }, font: { loadSystemFonts: true } })
    .render()
    .asPng();
}
