/**
 * The pages' stylesheet and script, served from our own origin as files (the Content-Security-Policy
 * allows no inline style or script). Kept as text here so the bundled product needs no asset files.
 */

export const PAGE_CSS = `
:root { color-scheme: light; --ink: #1f2328; --muted: #57606a; --line: #d0d7de; --accent: #0550ae; --bg: #fff; --soft: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible { outline: 3px solid #bf8700; outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 8px; top: 8px; background: var(--bg); padding: 4px 8px; z-index: 1; }
header.site, footer.site { background: var(--soft); border-bottom: 1px solid var(--line); padding: 0 16px; }
footer.site { border-top: 1px solid var(--line); border-bottom: 0; margin-top: 32px; color: var(--muted); }
header.site ul { list-style: none; display: flex; flex-wrap: wrap; gap: 4px 20px; margin: 0; padding: 12px 0; }
header.site a { text-decoration: none; font-weight: 600; }
header.site a[aria-current="page"] { text-decoration: underline; text-underline-offset: 4px; }
main { max-width: 1200px; margin: 0 auto; padding: 8px 16px; }
h1 { font-size: 1.75rem; margin: 16px 0 12px; }
bdi, h1.name, dd, li, p { overflow-wrap: anywhere; }
thead th { overflow-wrap: normal; hyphens: manual; }
h2 { font-size: 1.25rem; margin-top: 28px; }
.muted, .none { color: var(--muted); }
.lead { font-size: 1.05rem; max-width: 70ch; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
form.search { display: flex; flex-wrap: wrap; gap: 8px; align-items: end; margin: 12px 0 20px; }
form.search label { flex-basis: 100%; font-weight: 600; }
form.search input { flex: 1 1 240px; }
input, select, button { font: inherit; padding: 6px 8px; border: 1px solid #8c959f; border-radius: 6px; background: var(--bg); color: var(--ink); min-height: 36px; }
button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; }
form.filters { display: grid; grid-template-columns: repeat(auto-fill, minmax(180px, 1fr)); gap: 10px 14px; padding: 12px; background: var(--soft); border: 1px solid var(--line); border-radius: 8px; }
.field { display: flex; flex-direction: column; gap: 2px; }
.field label { font-size: 0.875rem; font-weight: 600; }
.field.wide { grid-column: 1 / -1; }
.field.check { flex-direction: row; align-items: center; gap: 6px; }
.field.check input { min-height: auto; }
.actions { display: flex; align-items: end; gap: 12px; }
.figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(160px, 1fr)); gap: 12px; margin: 0; }
.figures div { border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; }
.figures dt { color: var(--muted); font-size: 0.875rem; }
.figures dd { margin: 0; font-size: 1.5rem; font-weight: 700; }
.columns { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 0 24px; }
ul.plain, ol.plain { padding-left: 1.2em; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: 0.9375rem; }
caption { text-align: left; font-weight: 600; padding: 6px 0; }
th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-bottom: 1px solid var(--line); }
thead th { background: var(--soft); font-size: 0.875rem; }
tbody th { font-weight: 500; min-width: 12ch; }
.pager { display: flex; flex-wrap: wrap; gap: 16px; align-items: center; margin: 12px 0; }
.pager p { margin: 0; color: var(--muted); }
.reading { background: #fff8c5; border: 1px solid #d4a72c; padding: 6px 10px; border-radius: 6px; }
dl.pairs { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; }
dl.pairs dt { font-weight: 600; }
dl.pairs dd { margin: 0; }
@media (max-width: 560px) { dl.pairs { grid-template-columns: 1fr; } dl.pairs dd { margin-bottom: 6px; } }
.endpoint { border: 1px solid var(--line); border-radius: 8px; padding: 4px 14px 12px; margin: 14px 0; }
.endpoint h3 { font-size: 1.05rem; overflow-wrap: anywhere; }
.method { font-family: ui-monospace, Menlo, Consolas, monospace; font-weight: 700; background: var(--soft); border: 1px solid var(--line); padding: 0 6px; border-radius: 4px; }
.mono, pre { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.85rem; }
pre { background: var(--soft); border: 1px solid var(--line); padding: 10px; overflow-x: auto; white-space: pre; }
summary { cursor: pointer; color: var(--accent); margin: 6px 0; }
.verdict { display: inline-flex; gap: 6px; }
.health, .grade { border-radius: 10px; padding: 0 8px; font-size: 0.85rem; border: 1px solid var(--line); }
.health-healthy { background: #dafbe1; } .health-degraded { background: #fff8c5; } .health-down, .health-failing { background: #ffebe9; }
.warnings { background: #ffebe9; border: 1px solid #ff8182; border-radius: 6px; padding: 8px 8px 8px 28px; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 440px), 1fr)); gap: 16px; }
figure.chart { margin: 0; border: 1px solid var(--line); border-radius: 8px; padding: 8px; }
figure.chart svg { width: 100%; height: auto; display: block; }
figure.chart text { font-size: 15px; fill: var(--ink); }
figure.chart .axis-title { font-weight: 600; }
figure.chart .tick line { stroke: var(--line); }
figure.chart path { fill: none; stroke-width: 2; }
.series-0 path { stroke: #0550ae; } .series-0 circle { fill: #0550ae; }
.series-1 path { stroke: #bc4c00; stroke-dasharray: 6 3; } .series-1 circle { fill: #bc4c00; }
.series-2 path { stroke: #1a7f37; stroke-dasharray: 2 3; } .series-2 circle { fill: #1a7f37; }
.series-3 path { stroke: #8250df; stroke-dasharray: 10 4; } .series-3 circle { fill: #8250df; }
.series-4 path { stroke: #cf222e; stroke-dasharray: 4 2 1 2; } .series-4 circle { fill: #cf222e; }
.series-5 path { stroke: #0a6b7c; stroke-dasharray: 1 2; } .series-5 circle { fill: #0a6b7c; }
.series-6 path { stroke: #57606a; stroke-dasharray: 8 2 2 2; } .series-6 circle { fill: #57606a; }
.bar rect { fill: #0550ae; }
figcaption { font-weight: 600; margin-top: 4px; }
.legend { display: inline-flex; flex-wrap: wrap; gap: 4px 12px; margin-left: 12px; font-weight: 400; }
.key::before { content: ""; display: inline-block; width: 14px; height: 3px; margin-right: 4px; vertical-align: middle; background: #0550ae; }
.key-1::before { background: #bc4c00; } .key-2::before { background: #1a7f37; } .key-3::before { background: #8250df; }
.key-4::before { background: #cf222e; } .key-5::before { background: #0a6b7c; } .key-6::before { background: #57606a; }
`;

/**
 * Enhancement only (every page works without it): a submitted filter form leaves its empty fields
 * out of the URL, so shared links stay short and read like the API's.
 */
export const PAGE_SCRIPT = `"use strict";
document.addEventListener("submit", function (event) {
  var form = event.target;
  // getAttribute: a field named "method" shadows the form's own property.
  if (!(form instanceof HTMLFormElement) || (form.getAttribute("method") || "get").toLowerCase() !== "get") return;
  Array.prototype.forEach.call(form.elements, function (field) {
    if ((field instanceof HTMLInputElement || field instanceof HTMLSelectElement) && field.name && field.value === "") {
      field.disabled = true;
    }
  });
});
window.addEventListener("pageshow", function () {
  Array.prototype.forEach.call(document.querySelectorAll("form [disabled]"), function (field) {
    field.disabled = false;
  });
});
`;
