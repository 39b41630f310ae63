"""Markdown to HTML Converter with GFM-style extensions, Pygments syntax
highlighting, table of contents and optional full-page output."""
import argparse
import html
import re
import sys
from pathlib import Path

import markdown
from pygments.formatters import HtmlFormatter

SAMPLE = """# Markdown Feature Tour

Some **bold**, *italic*, ~~struck~~ and `inline code` text, plus an
autolink <https://example.com> and a [regular link](https://python.org).

## Lists

- [x] write the converter
- [ ] add more tests
- plain bullet

1. first
2. second

> A blockquote with a footnote reference.[^1]

---

## Code

```python
def greet(name: str) -> str:
    return f"Hello, {name}!"
```

```javascript
const add = (a, b) => a + b;
```

## Table

| Language | Typing  |
|----------|---------|
| Python   | dynamic |
| Java     | static  |

![logo](images/logo.png)

[^1]: Footnotes are rendered at the end of the document.
"""

TASK_RE = re.compile(r"<li>\[( |x|X)\]\s*")
STRIKE_RE = re.compile(r"~~(.+?)~~")


def build_converter(with_toc: bool) -> markdown.Markdown:
    extensions = ["fenced_code", "codehilite", "tables", "footnotes", "attr_list", "sane_lists", "toc"]
    config = {
        "codehilite": {"guess_lang": False, "css_class": "highlight"},
        "toc": {"permalink": False, "title": "Table of Contents" if with_toc else None},
    }
    return markdown.Markdown(extensions=extensions, extension_configs=config)


def preprocess(text: str) -> str:
    out, in_fence = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        elif not in_fence:
            line = STRIKE_RE.sub(r"<del>\1</del>", line)
        out.append(line)
    return "\n".join(out)


def postprocess(body: str) -> str:
    def checkbox(match: re.Match) -> str:
        checked = " checked" if match.group(1).lower() == "x" else ""
        return f'<li class="task"><input type="checkbox" disabled{checked}> '
    return TASK_RE.sub(checkbox, body)


def convert(text: str, with_toc: bool) -> str:
    md = build_converter(with_toc)
    body = postprocess(md.convert(preprocess(text)))
    if with_toc:
        body = md.toc + "\n" + body
    return body


def full_page(body: str, title: str, css: str | None) -> str:
    styles = HtmlFormatter(style="default").get_style_defs(".highlight")
    if css:
        styles += "\n" + css
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{html.escape(title)}</title>\n<style>\n{styles}\n</style>\n</head>\n"
        f"<body>\n{body}\n</body>\n</html>\n"
    )


def read_markdown(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        print(f"warning: {path} is not valid UTF-8, decoding with replacement", file=sys.stderr)
        return path.read_bytes().decode("utf-8", errors="replace")


def main() -> int:
    parser = argparse.ArgumentParser(description="Convert Markdown to HTML.")
    parser.add_argument("input", nargs="?", type=Path)
    parser.add_argument("--toc", action="store_true", help="insert a table of contents")
    parser.add_argument("--css", type=Path, help="CSS file to embed")
    parser.add_argument("--full-page", action="store_true", help="emit a complete HTML document")
    parser.add_argument("--output", type=Path)
    args = parser.parse_args()

    if args.input is None:
        args.input = Path("sample.md")
        args.input.write_text(SAMPLE, encoding="utf-8")
        args.toc = args.full_page = True
        print(f"No input given; wrote sample Markdown to {args.input}")
    if not args.input.is_file():
        print(f"error: {args.input} not found", file=sys.stderr)
        return 1

    text = read_markdown(args.input)
    css = args.css.read_text(encoding="utf-8") if args.css else None
    body = convert(text, args.toc)
    result = full_page(body, args.input.stem, css) if args.full_page else body

    print(body)
    output = args.output or args.input.with_suffix(".html")
    output.write_text(result, encoding="utf-8")
    print(f"\nSaved HTML ({len(result)} bytes) to {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
