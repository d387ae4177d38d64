import { SECTIONS, type PlotSpec } from './plot-spec.js';
import { esc } from './plots/svg.js';

/** One plot as the page's `<figure class="ssr-plot" data-plot="…">`: heading, SVG, caption. */
export function figureHtml(plot: PlotSpec): string {
  return `<figure class="ssr-plot" data-plot="${esc(plot.name)}" id="plot-${esc(plot.name)}"><h3>${esc(plot.title)}</h3>${plot.svg}<figcaption>${esc(plot.caption)}</figcaption></figure>`;
}

/**
 * The plots grouped under their section headings, in section order. `extra` adds content after a
 * section's plots (or in place of them, e.g. the "no trainer" note).
 */
export function sectionsHtml(plots: readonly PlotSpec[], extra: Partial<Record<PlotSpec['section'], string>> = {}): string {
  return SECTIONS.map((section) => {
    const mine = plots.filter((plot) => plot.section === section.id);
    if (mine.length === 0 && extra[section.id] === undefined) return '';
    const grids = [false, true]
      .map((small) => mine.filter((plot) => Boolean(plot.small) === small))
      .filter((group) => group.length > 0)
      .map((group) => `<div class="grid${group[0]!.small ? ' small' : ''}">${group.map(figureHtml).join('\n')}</div>`)
      .join('');
    return `<section id="${section.id}"><h2>${esc(section.title)}</h2><p class="lead">${esc(section.lead)}</p>${grids}${extra[section.id] ?? ''}</section>`;
  }).join('\n');
}

/** Links to the sections that have content. */
export function tocHtml(ids: ReadonlyArray<{ id: string; title: string }>): string {
  return `<nav class="toc">${ids.map(({ id, title }) => `<a href="#${esc(id)}">${esc(title)}</a>`).join('')}</nav>`;
}
