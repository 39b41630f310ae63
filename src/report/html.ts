import type { ReportItem, ReportSection } from './figure';

export interface ReportPage {
  title: string;
  /** Where the records came from, in one line (a study, a file). */
  source: string;
  generatedAt: string;
  sections: ReportSection[];
  /** The browser builds of vega and vega-lite, embedded whole: the page needs no network. */
  libraries: { vega: string; vegaLite: string };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** JSON inside a <script> element: `<` escaped, so no string in it can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
/** A library's text inside a <script> element: the one sequence that would end the element early is broken up. */
const scriptText = (code: string) => code.replace(/<\/script/gi, '<\\/script');

function item(section: string, it: ReportItem): string {
  const id = `${section}--${it.id}`;
  const head = `<h3>${escapeHtml(it.title)}</h3><p class="caption">${escapeHtml(it.caption)}</p>`;
  if (it.kind === 'table') {
    const th = it.head.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
    const rows = it.rows.length === 0 ? `<tr><td colspan="${it.head.length}">no rows</td></tr>` : it.rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n');
    return `<section class="table" id="${id}">${head}<table><thead><tr>${th}</tr></thead><tbody>\n${rows}\n</tbody></table></section>`;
  }
  return `<section class="figure">${head}<div class="chart" id="${id}" data-spec="${id}--spec"></div><script type="application/json" id="${id}--spec">${scriptJson(it.spec)}</script></section>`;
}

// Draws every figure with vega (SVG), counts its drawn marks (axes and legends left out) into
// data-marks, and leaves window.envgapReport = { done, figures: {id: marks}, links: {id: hrefs}, errors }
// for a reader or a test (vega draws links as click handlers, not as <a> elements).
const RUNTIME = `
(function () {
  var state = { done: false, figures: {}, links: {}, errors: [] };
  window.envgapReport = state;
  function hrefs(mark, out) {
    (mark.items || []).forEach(function (item) {
      if (mark.marktype === 'group') (item.items || []).forEach(function (child) { hrefs(child, out); });
      else if (item.href) out.push(item.href);
    });
    return out;
  }
  function countMarks(mark) {
    var n = 0;
    (mark.items || []).forEach(function (item) {
      if (mark.marktype === 'group') (item.items || []).forEach(function (child) { n += countMarks(child); });
      else if (mark.role === 'mark') n += 1;
    });
    return n;
  }
  var charts = Array.prototype.slice.call(document.querySelectorAll('[data-spec]'));
  Promise.all(charts.map(function (el) {
    try {
      var spec = JSON.parse(document.getElementById(el.getAttribute('data-spec')).textContent);
      var view = new vega.View(vega.parse(vegaLite.compile(spec).spec), { renderer: 'svg', container: el, hover: true });
      return view.runAsync().then(function () {
        var marks = countMarks(view.scenegraph().root);
        state.figures[el.id] = marks;
        var links = hrefs(view.scenegraph().root, []);
        if (links.length > 0) state.links[el.id] = links;
        el.setAttribute('data-marks', String(marks));
      });
    } catch (e) {
      return Promise.reject(e);
    }
  }).map(function (p, i) {
    return p.catch(function (e) {
      state.errors.push(charts[i].id + ': ' + (e && e.message));
      charts[i].textContent = 'This figure could not be drawn: ' + (e && e.message);
      console.error(e);
    });
  })).then(function () { state.done = true; });
})();
`;

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 1100px; color: #222; padding: 0 1rem; }
h1 { margin-bottom: 0.2rem; } h2 { border-bottom: 1px solid #ccc; margin-top: 2.5rem; }
.meta, .caption { color: #555; } .caption { margin-top: -0.4rem; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; } th, td { border: 1px solid #ddd; padding: 2px 8px; text-align: left; }
th { background: #f4f4f4; } nav a { margin-right: 1rem; }
`;

/** The report as one self-contained HTML file: the libraries, the specs and their data inline. */
export function renderReportHtml(page: ReportPage): string {
  const nav = page.sections.map((s) => `<a href="#${s.id}">${escapeHtml(s.title)}</a>`).join('');
  const body = page.sections
    .map((s) => `<h2 id="${s.id}">${escapeHtml(s.title)}</h2><p class="meta">${escapeHtml(s.summary)}</p>\n${s.items.map((it) => item(s.id, it)).join('\n')}`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(page.title)}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; style-src 'unsafe-inline'; img-src data:">
<style>${STYLE}</style>
<script>${scriptText(page.libraries.vega)}</script>
<script>${scriptText(page.libraries.vegaLite)}</script>
</head><body>
<h1>${escapeHtml(page.title)}</h1>
<p class="meta">${escapeHtml(page.source)} · generated ${escapeHtml(page.generatedAt)} by envgap</p>
<nav>${nav}</nav>
${body}
<script>${RUNTIME}</script>
</body></html>
`;
}
