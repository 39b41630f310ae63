#!/usr/bin/env node
'use strict';
// Markdown to HTML Converter: CommonMark + GFM (tables, strikethrough, autolinks, task lists,
// footnotes) via markdown-it, syntax highlighting of fenced code, heading anchors, a table of
// contents, custom CSS, full-page output and batch conversion with an index page.

const fs = require('fs');
const path = require('path');
const MarkdownIt = require('markdown-it');
const { decodeHTML, escapeUTF8 } = require('entities');

class UsageError extends Error {}

// ------------------------------------------------------------------------ syntax highlighting

const KEYWORDS = {
  python: 'and as assert async await break class continue def del elif else except False finally for from global if import in is lambda None nonlocal not or pass raise return True try while with yield self print',
  javascript: 'async await break case catch class const continue default delete do else export extends false finally for function if import in instanceof let new null return static super switch this throw true try typeof undefined var void while yield require module',
  java: 'abstract boolean break byte case catch char class continue default do double else enum extends final finally float for if implements import instanceof int interface long new null package private protected public return short static super switch this throw throws true false try void volatile while var record String',
  cpp: 'auto bool break case catch char class const constexpr continue default delete do double else enum explicit false float for friend if include inline int long namespace new nullptr operator private protected public return short signed sizeof static struct switch template this throw true try typedef typename union unsigned using virtual void while std',
  bash: 'if then else elif fi for while do done case esac in function return local export echo exit set unset cd source',
};
const ALIASES = { py: 'python', js: 'javascript', node: 'javascript', 'c++': 'cpp', cc: 'cpp', c: 'cpp', sh: 'bash', shell: 'bash', zsh: 'bash', htm: 'html', xml: 'html' };

/** Each language is an ordered list of [class, regex]; the first alternative that matches wins. */
function rulesFor(lang) {
  const words = (list) => new RegExp(`\\b(?:${list.split(' ').join('|')})\\b`);
  const number = /\b(?:0x[\da-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\b/;
  switch (lang) {
    case 'python': return [['comment', /#.*/], ['string', /"""[\s\S]*?"""|'''[\s\S]*?'''|[rfb]?"(?:\\.|[^"\\\n])*"|[rfb]?'(?:\\.|[^'\\\n])*'/], ['keyword', words(KEYWORDS.python)], ['number', number], ['function', /\b[A-Za-z_]\w*(?=\()/]];
    case 'javascript': return [['comment', /\/\/.*|\/\*[\s\S]*?\*\//], ['string', /`(?:\\.|[^`\\])*`|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/], ['keyword', words(KEYWORDS.javascript)], ['number', number], ['function', /\b[A-Za-z_$][\w$]*(?=\()/]];
    case 'java': return [['comment', /\/\/.*|\/\*[\s\S]*?\*\//], ['string', /"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])'/], ['meta', /@\w+/], ['keyword', words(KEYWORDS.java)], ['number', number], ['function', /\b[A-Za-z_]\w*(?=\()/]];
    case 'cpp': return [['comment', /\/\/.*|\/\*[\s\S]*?\*\//], ['meta', /#\s*\w+(?:\s*<[^>\n]*>)?/], ['string', /"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])'/], ['keyword', words(KEYWORDS.cpp)], ['number', number], ['function', /\b[A-Za-z_]\w*(?=\()/]];
    case 'bash': return [['comment', /(?:^|\s)#.*/], ['string', /"(?:\\.|[^"\\])*"|'[^']*'/], ['variable', /\$\{?[A-Za-z_]\w*\}?|\$[0-9@#?]/], ['keyword', words(KEYWORDS.bash)], ['number', number]];
    case 'json': return [['attr', /"(?:\\.|[^"\\\n])*"(?=\s*:)/], ['string', /"(?:\\.|[^"\\\n])*"/], ['keyword', /\b(?:true|false|null)\b/], ['number', /-?\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b/]];
    case 'css': return [['comment', /\/\*[\s\S]*?\*\//], ['string', /"[^"\n]*"|'[^'\n]*'/], ['attr', /[\w-]+(?=\s*:[^{}]*;)/], ['selector', /[^{}\s][^{};]*(?=\s*\{)/], ['number', /-?\b\d+(?:\.\d+)?(?:px|em|rem|%|s|ms|vh|vw)?\b|#[\da-fA-F]{3,8}\b/]];
    case 'html': return [['comment', /<!--[\s\S]*?-->/], ['tag', /<\/?[A-Za-z][\w-]*|\/?>/], ['attr', /\b[\w-]+(?==)/], ['string', /"[^"]*"|'[^']*'/]];
    default: return null;
  }
}

function highlight(code, language) {
  const lang = ALIASES[language] || language;
  const rules = rulesFor(lang);
  if (!rules) return ''; // unknown language: markdown-it escapes the code itself
  const combined = new RegExp(rules.map(([, re]) => `(${re.source})`).join('|'), 'gm');
  let out = '';
  let last = 0;
  for (const m of code.matchAll(combined)) {
    if (m[0] === '') continue;
    const group = m.slice(1).findIndex((g) => g !== undefined);
    out += escapeUTF8(code.slice(last, m.index)) + `<span class="tok-${rules[group][0]}">${escapeUTF8(m[0])}</span>`;
    last = m.index + m[0].length;
  }
  return out + escapeUTF8(code.slice(last));
}

// ------------------------------------------------------------------- markdown-it extensions

function slugify(text, used) {
  const base = text.toLowerCase().trim().replace(/[^\p{L}\p{N}\s-]/gu, '').replace(/\s+/g, '-') || 'section';
  let slug = base;
  for (let n = 1; used.has(slug); n++) slug = `${base}-${n}`;
  used.add(slug);
  return slug;
}

/** Plain text of inline Markdown: render it, drop the tags, decode the entities. */
function plainText(md, inline) {
  return decodeHTML(md.renderInline(inline).replace(/<[^>]+>/g, '')).trim();
}

/** Heading ids (for anchors and the TOC), collected into env.headings. */
function headingIds(md) {
  md.core.ruler.push('heading_ids', (state) => {
    const used = new Set();
    state.env.headings = [];
    state.tokens.forEach((token, i) => {
      if (token.type !== 'heading_open') return;
      const text = plainText(md, state.tokens[i + 1].content);
      const id = slugify(text, used);
      token.attrSet('id', id);
      state.env.headings.push({ level: Number(token.tag.slice(1)), text, id });
    });
  });
}

/** GFM task lists: "- [ ] todo" / "- [x] done" become disabled checkboxes. */
function taskLists(md) {
  md.core.ruler.after('inline', 'task_lists', (state) => {
    const tokens = state.tokens;
    for (let i = 2; i < tokens.length; i++) {
      const inline = tokens[i];
      if (inline.type !== 'inline' || tokens[i - 1].type !== 'paragraph_open' || tokens[i - 2].type !== 'list_item_open') continue;
      const m = /^\[([ xX])\]\s+/.exec(inline.content);
      if (!m || !inline.children.length || inline.children[0].type !== 'text') continue;
      inline.children[0].content = inline.children[0].content.slice(m[0].length);
      const box = new state.Token('html_inline', '', 0);
      box.content = `<input type="checkbox" class="task-checkbox" disabled${m[1] === ' ' ? '' : ' checked'}> `;
      inline.children.unshift(box);
      tokens[i - 2].attrJoin('class', 'task-list-item');
    }
  });
}

/** Footnotes: "[^id]" references and "[^id]: text" definitions, rendered as a numbered list at the end. */
function footnotes(md) {
  md.inline.ruler.before('link', 'footnote_ref', (state, silent) => {
    const m = /^\[\^([^\]\s]+)\]/.exec(state.src.slice(state.pos));
    if (!m || !state.env.footnotes || !state.env.footnotes.defs.has(m[1])) return false;
    if (!silent) {
      const notes = state.env.footnotes;
      if (!notes.order.includes(m[1])) notes.order.push(m[1]);
      const n = notes.order.indexOf(m[1]) + 1;
      const token = state.push('html_inline', '', 0);
      token.content = `<sup class="footnote-ref"><a href="#fn-${n}" id="fnref-${n}">[${n}]</a></sup>`;
    }
    state.pos += m[0].length;
    return true;
  });
}

/** Removes footnote definitions from the source (outside code fences) and returns them. */
function extractFootnotes(source) {
  const defs = new Map();
  let fence = null;
  const kept = [];
  for (const line of source.split('\n')) {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (f) fence = fence === null ? f[1][0] : fence === f[1][0] ? null : fence;
    const m = fence === null && /^\[\^([^\]\s]+)\]:\s*(.*)$/.exec(line);
    if (m) defs.set(m[1], m[2]);
    else kept.push(line);
  }
  return { source: kept.join('\n'), defs };
}

function createConverter() {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: true, highlight });
  md.use(headingIds).use(taskLists).use(footnotes);
  // Fenced code gets a language label class the stylesheet can use.
  const fence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    const lang = tokens[idx].info.trim().split(/\s+/)[0];
    const html = fence(tokens, idx, options, env, self);
    return lang ? html.replace('<pre>', `<pre class="code-block" data-lang="${escapeUTF8(lang)}">`) : html;
  };
  return md;
}

// --------------------------------------------------------------------------------- conversion

function convert(md, markdown, { toc }) {
  const { source, defs } = extractFootnotes(markdown);
  const env = { footnotes: { defs, order: [] } };
  let body = md.render(source, env);
  const notes = env.footnotes.order;
  if (notes.length) {
    body += '<section class="footnotes">\n<hr>\n<ol>\n' + notes.map((id, i) =>
      `<li id="fn-${i + 1}">${md.renderInline(defs.get(id))} <a href="#fnref-${i + 1}" class="footnote-back">↩</a></li>`).join('\n') + '\n</ol>\n</section>\n';
  }
  const unused = [...defs.keys()].filter((id) => !notes.includes(id));
  if (toc && env.headings.length) body = tocHtml(env.headings) + body;
  return { body, headings: env.headings, unusedFootnotes: unused };
}

function tocHtml(headings) {
  const min = Math.min(...headings.map((h) => h.level));
  const items = headings.map((h) => `${'  '.repeat(h.level - min + 1)}<li class="toc-h${h.level}"><a href="#${h.id}">${escapeUTF8(h.text)}</a></li>`);
  return `<nav class="toc">\n<p><strong>Table of Contents</strong></p>\n<ul>\n${items.join('\n')}\n</ul>\n</nav>\n`;
}

const DEFAULT_CSS = `body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; max-width: 860px; margin: 2rem auto; padding: 0 1rem; line-height: 1.6; color: #24292f; }
pre { background: #f6f8fa; padding: 1em; border-radius: 6px; overflow-x: auto; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 90%; }
table { border-collapse: collapse; } th, td { border: 1px solid #d0d7de; padding: 6px 13px; }
blockquote { margin: 0; padding: 0 1em; color: #57606a; border-left: .25em solid #d0d7de; }
.task-list-item { list-style: none; } .toc { background: #f6f8fa; padding: .5em 1em; border-radius: 6px; }
.tok-keyword { color: #cf222e; } .tok-string { color: #0a3069; } .tok-comment { color: #6e7781; font-style: italic; }
.tok-number { color: #0550ae; } .tok-function { color: #8250df; } .tok-meta, .tok-variable { color: #953800; }
.tok-tag, .tok-selector { color: #116329; } .tok-attr { color: #0550ae; }`;

function fullPage(body, title, css) {
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
    `<title>${escapeUTF8(title)}</title>\n<style>\n${css}\n</style>\n</head>\n<body>\n${body}</body>\n</html>\n`;
}

function readMarkdown(file) {
  let buffer;
  try {
    buffer = fs.readFileSync(file);
  } catch (err) {
    throw new UsageError(`${file}: ${err.code === 'ENOENT' ? 'file not found' : err.message}`);
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(buffer).replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'), warnings: [] };
  } catch {
    return { text: buffer.toString('latin1').replace(/\r\n?/g, '\n'), warnings: [`${file}: not valid UTF-8, read as Latin-1`] };
  }
}

/** Relative links and images whose target does not exist next to the Markdown file. */
function missingLinks(body, baseDir) {
  const missing = [];
  for (const m of body.matchAll(/(?:href|src)="([^"#?]+)[^"]*"/g)) {
    const target = decodeHTML(m[1]);
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue;
    if (!fs.existsSync(path.join(baseDir, decodeURIComponent(target)))) missing.push(target);
  }
  return [...new Set(missing)];
}

function convertFile(md, file, opts, output) {
  const { text, warnings } = readMarkdown(file);
  const { body, headings, unusedFootnotes } = convert(md, text, opts);
  const title = (headings.find((h) => h.level === 1) || { text: path.basename(file, path.extname(file)) }).text;
  const html = opts.fullPage ? fullPage(body, title, opts.css) : body;
  fs.mkdirSync(path.dirname(path.resolve(output)), { recursive: true });
  fs.writeFileSync(output, html);
  for (const target of missingLinks(body, path.dirname(file))) warnings.push(`${file}: linked file not found: ${target}`);
  for (const id of unusedFootnotes) warnings.push(`${file}: footnote [^${id}] is defined but never referenced`);
  return { file, output, title, body, html, headings, warnings };
}

function loadCss(cssPath, warnings) {
  if (!cssPath) return DEFAULT_CSS;
  try {
    return fs.readFileSync(cssPath, 'utf8');
  } catch (err) {
    warnings.push(`--css ${cssPath}: ${err.code === 'ENOENT' ? 'file not found' : err.message}; using the built-in stylesheet`);
    return DEFAULT_CSS;
  }
}

function writeIndex(results, dir) {
  const items = results.map((r) => `<li><a href="${escapeUTF8(path.relative(dir, r.output))}">${escapeUTF8(r.title)}</a> <small>(${escapeUTF8(path.basename(r.file))}, ${r.headings.length} headings)</small></li>`);
  const file = path.join(dir, 'index.html');
  fs.writeFileSync(file, fullPage(`<h1>Index</h1>\n<ul>\n${items.join('\n')}\n</ul>\n`, 'Index', DEFAULT_CSS));
  return file;
}

// ----------------------------------------------------------------------------- sample and CLI

const SAMPLE = `# Markdown Feature Tour

Some **bold**, *italic*, ~~struck~~ and \`inline code\` text, "smart quotes" -- and an
autolink https://example.com plus a [regular link](https://commonmark.org "CommonMark").

## Lists & Tasks

- [x] write the converter
- [ ] add more tests
- plain bullet
  - nested bullet

1. first
2. second

> A blockquote with a footnote reference.[^note]
> It continues here.

---

## Code Blocks

\`\`\`python
def greet(name: str) -> str:
    # say hello
    return f"Hello, {name}!"
\`\`\`

\`\`\`javascript
const add = (a, b) => a + b; // arrow function
console.log(add(2, 40));
\`\`\`

\`\`\`java
public record Point(int x, int y) { }
\`\`\`

\`\`\`c++
#include <iostream>
int main() { std::cout << "hi" << 42; }
\`\`\`

\`\`\`html
<a href="/docs" class="btn">Docs</a>
\`\`\`

\`\`\`css
.btn { color: #fff; padding: 4px; }
\`\`\`

\`\`\`json
{"name": "demo", "tags": ["a", "b"], "ok": true, "n": 3}
\`\`\`

\`\`\`bash
for f in *.md; do echo "$f"; done
\`\`\`

## Table

| Language | Typing  | Since |
|----------|:-------:|------:|
| Python   | dynamic | 1991  |
| Java     | static  | 1995  |

## Images & Links

![logo](images/logo.png)

See the [changelog](CHANGELOG.md) for details.[^later]

### Q&amp;A: Entities &amp; Anchors

Heading ids are generated from the heading text.

[^note]: Footnotes are rendered at the end of the document.
[^later]: A second footnote with **formatting**.
`;

const NOTES = `# Release Notes

## Version 1.1

- Faster parsing
- [x] Task lists

## Version 1.0

Initial release.
`;

function usage() {
  return 'usage: node index.js [file.md] [--toc] [--css style.css] [--full-page] [--output out.html]\n' +
    '       node index.js --batch a.md b.md ... [--index] [--output-dir dir] [--toc] [--full-page]';
}

function parseArgs(argv) {
  const opts = { files: [], toc: false, fullPage: false, css: null, output: null, batch: false, index: false, outputDir: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new UsageError(`missing value after ${arg}`);
      return argv[++i];
    };
    if (arg === '--toc') opts.toc = true;
    else if (arg === '--full-page') opts.fullPage = true;
    else if (arg === '--css') opts.css = value();
    else if (arg === '--output') opts.output = value();
    else if (arg === '--batch') opts.batch = true;
    else if (arg === '--index') opts.index = true;
    else if (arg === '--output-dir') opts.outputDir = value();
    else if (arg === '--help' || arg === '-h') opts.help = true;
    else if (arg.startsWith('--')) throw new UsageError(`unknown option ${arg}\n${usage()}`);
    else opts.files.push(arg);
  }
  if (!opts.batch && opts.files.length > 1) throw new UsageError(`give one file, or use --batch\n${usage()}`);
  return opts;
}

function main() {
  const md = createConverter();
  const opts = parseArgs(process.argv.slice(2));
  if (opts.help) {
    console.log(usage());
    return 0;
  }
  const warnings = [];

  if (opts.files.length === 0) {
    fs.writeFileSync('sample.md', SAMPLE);
    fs.writeFileSync('release-notes.md', NOTES);
    console.log('No input file given: wrote sample.md (all supported features) and release-notes.md\n');
    const r = convertFile(md, 'sample.md', { toc: true, fullPage: true, css: DEFAULT_CSS }, 'sample.html');
    console.log(r.body);
    console.log(`Saved HTML (${Buffer.byteLength(r.html)} bytes, ${r.headings.length} headings, full page with TOC) to ${r.output}`);
    const batch = ['sample.md', 'release-notes.md'].map((f) => convertFile(md, f, { toc: true, fullPage: true, css: DEFAULT_CSS }, path.join('site', path.basename(f, '.md') + '.html')));
    const index = writeIndex(batch, 'site');
    console.log(`Batch: converted ${batch.map((b) => b.output).join(', ')} and wrote ${index}`);
    for (const w of [...r.warnings]) console.log(`warning: ${w}`);
    return 0;
  }

  const css = loadCss(opts.css, warnings);
  if (opts.batch) {
    const dir = opts.outputDir || '.';
    const results = [];
    for (const file of opts.files) {
      try {
        const r = convertFile(md, file, { ...opts, css }, path.join(dir, path.basename(file, path.extname(file)) + '.html'));
        results.push(r);
        warnings.push(...r.warnings);
        console.log(`converted ${file} -> ${r.output}`);
      } catch (err) {
        if (!(err instanceof UsageError)) throw err;
        warnings.push(err.message);
      }
    }
    if (opts.index && results.length) console.log(`wrote ${writeIndex(results, dir)}`);
  } else {
    const file = opts.files[0];
    const output = opts.output || path.join(path.dirname(file), path.basename(file, path.extname(file)) + '.html');
    const r = convertFile(md, file, { ...opts, css }, output);
    console.log(r.html);
    console.log(`Saved HTML (${Buffer.byteLength(r.html)} bytes) to ${output}`);
    warnings.push(...r.warnings);
  }
  for (const w of warnings) console.error(`warning: ${w}`);
  return 0;
}

try {
  process.exitCode = main();
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  console.error(`error: ${err.message}`);
  process.exitCode = 1;
}
