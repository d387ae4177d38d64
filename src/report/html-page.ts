import { esc } from './plots/svg.js';

const STYLE = `
:root { color-scheme: light; --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --soft: #f6f8fa; --accent: #0072B2; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
main { max-width: 1240px; margin: 0 auto; padding: 24px 28px 64px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 36px 0 2px; padding-top: 8px; border-top: 1px solid var(--line); }
h3 { font-size: 15px; margin: 0 0 6px; }
p.lead, .meta { color: var(--muted); margin: 2px 0 12px; }
code, pre { font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
nav.toc { display: flex; flex-wrap: wrap; gap: 6px 14px; margin: 12px 0 4px; font-size: 13px; }
nav.toc a { color: var(--accent); text-decoration: none; }
.tiles { display: grid; grid-template-columns: repeat(auto-fill, minmax(128px, 1fr)); gap: 10px; margin: 16px 0; }
.tile { background: var(--soft); border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; }
.tile .v { font-size: 22px; font-weight: 600; }
.tile .k { color: var(--muted); font-size: 12px; }
.notes { background: #fff8e6; border: 1px solid #f0d58c; border-radius: 8px; padding: 8px 14px; margin: 12px 0; }
.notes li { margin: 2px 0; }
.note { background: var(--soft); border: 1px dashed var(--line); border-radius: 8px; padding: 14px; color: var(--muted); }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); gap: 18px; margin-top: 12px; }
.grid.small { grid-template-columns: repeat(auto-fill, minmax(380px, 1fr)); }
figure.ssr-plot { margin: 0; padding: 12px 14px 10px; border: 1px solid var(--line); border-radius: 10px; background: #fff; }
figure.ssr-plot svg { display: block; width: 100%; height: auto; }
figcaption { color: var(--muted); font-size: 12.5px; margin-top: 4px; }
table.bugs { width: 100%; border-collapse: collapse; font-size: 13px; margin-top: 10px; }
table.bugs th { text-align: left; background: var(--soft); position: sticky; top: 0; border-bottom: 1px solid var(--line); padding: 6px 8px; white-space: nowrap; }
table.bugs td { border-top: 1px solid var(--line); padding: 5px 8px; vertical-align: top; }
table.bugs tr.diffs td { border-top: none; padding-top: 0; }
table.bugs tr.diffs details { display: inline-block; margin-right: 18px; }
table.bugs tr.diffs details[open] { display: block; }
table.bugs td.num { text-align: right; font-variant-numeric: tabular-nums; }
.ok { color: #1a7f37; font-weight: 600; } .bad { color: #cf222e; font-weight: 600; }
.ops { color: var(--muted); }
details summary { cursor: pointer; color: var(--accent); font-size: 12.5px; }
details pre { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; overflow: auto; max-height: 420px; margin: 6px 0; }
pre .add { color: #116329; background: #dafbe1; } pre .del { color: #82071e; background: #ffebe9; } pre .hunk { color: #0550ae; } pre .head { color: var(--muted); font-weight: 600; }
a { color: var(--accent); }
footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
`;

/** A complete, self-contained HTML document: inline CSS, no scripts, nothing fetched. */
export function htmlPage(title: string, body: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // Blocks every fetch: the report must render from this one file (and never phone home).
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    `<title>${esc(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    `<body><main>${body}</main></body>`,
    '</html>',
    '',
  ].join('\n');
}
