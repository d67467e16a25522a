#!/usr/bin/env python3
"""README.md stays a front door, and the documents' links hold.

    python3 bench/check_readme.py [ROOT]

Checks, from the repository root (ROOT, default the parent of this script's directory):
- README.md has at most 250 lines, each at most 100 characters;
- every relative link `[text](target)` in README.md and in docs/ (every *.md below it except
  docs/runs/, whose files are copied unchanged from the runs) names a file or directory that
  exists, and, where the target is a Markdown file and the link has an `#anchor`, a heading of
  that file whose GitHub anchor is the anchor (a bare `#anchor` names a heading of the same file).
Links inside code spans and fenced code blocks are not links; http(s) and mailto links are not
checked. Prints every failure as `FILE:LINE: what`, and exits 1 if there is any."""
import os
import re
import sys
import unicodedata

MAX_LINES = 250
MAX_WIDTH = 100

LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s{0,3}(```|~~~)")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")


def prose_lines(text):
    """(line number, line) for every line outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        m = FENCE.match(line)
        if m:
            if fence is None:
                fence = m.group(1)
            elif m.group(1) == fence:
                fence = None
            continue
        if fence is None:
            yield number, line


def slug(heading):
    """GitHub's anchor of a heading's text: the rendered text lowercased, everything but
    letters, marks, digits, connector punctuation, spaces and hyphens dropped, spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links keep their text
    text = text.replace("`", "")
    text = re.sub(r"(\*\*|\*|~~)", "", text)  # emphasis markers (underscores stay: snake_case)
    text = re.sub(r"<[^>]+>", "", text)
    out = []
    for ch in text.lower():
        cat = unicodedata.category(ch)
        if ch in " -" or cat[0] in "LMN" or cat == "Pc":
            out.append("-" if ch == " " else ch)
    return "".join(out)


def anchors(path, cache={}):
    """Every heading anchor of a Markdown file, duplicates numbered as GitHub does (-1, -2, ...)."""
    if path not in cache:
        seen = {}
        found = set()
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for _, line in prose_lines(text):
            m = HEADING.match(line)
            if not m:
                continue
            base = slug(m.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
        cache[path] = found
    return cache[path]


def links(text):
    """(line number, target) of every inline link outside code."""
    for number, line in prose_lines(text):
        line = CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)
        for m in LINK.finditer(line):
            yield number, m.group(2)


def check_links(root, rel):
    failures = []
    path = os.path.join(root, rel)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for number, target in links(text):
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):  # http:, https:, mailto:, ...
            continue
        file_part, _, anchor = target.partition("#")
        if file_part:
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
            if not os.path.exists(dest):
                failures.append(f"{rel}:{number}: link to {target}: no file {os.path.relpath(dest, root)}")
                continue
        else:
            dest = path
        if anchor and dest.endswith(".md") and os.path.isfile(dest):
            if anchor not in anchors(dest):
                failures.append(
                    f"{rel}:{number}: link to {target}: no heading with anchor #{anchor} "
                    f"in {os.path.relpath(dest, root)}"
                )
    return failures


def documents(root):
    """README.md, then every Markdown file under docs/ except docs/runs/."""
    found = ["README.md"]
    docs = os.path.join(root, "docs")
    for dirpath, dirnames, filenames in os.walk(docs):
        rel_dir = os.path.relpath(dirpath, root)
        if rel_dir == os.path.join("docs", "runs"):
            dirnames[:] = []
            continue
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".md"):
                found.append(os.path.join(rel_dir, name))
    return found


def check_readme_shape(root):
    failures = []
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) > MAX_LINES:
        failures.append(f"README.md: {len(lines)} lines, more than {MAX_LINES}")
    for number, line in enumerate(lines, 1):
        if len(line) > MAX_WIDTH:
            failures.append(f"README.md:{number}: {len(line)} characters, more than {MAX_WIDTH}")
    return failures, len(lines), max((len(l) for l in lines), default=0)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    failures, count, width = check_readme_shape(root)
    files = documents(root)
    for rel in files:
        failures += check_links(root, rel)
    if failures:
        print(f"check_readme: {len(failures)} failure(s):")
        for f in failures:
            print("  " + f)
        return 1
    print(
        f"check_readme: README.md {count} lines (at most {MAX_LINES}), widest {width} characters "
        f"(at most {MAX_WIDTH}); links of {len(files)} documents resolve"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
