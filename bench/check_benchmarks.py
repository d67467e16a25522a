#!/usr/bin/env python3
"""BENCHMARKS.md's summary stays a summary, and no figure of an older summary is lost.

    python3 bench/check_benchmarks.py [OLD_FILE] [--new FILE]

Checks BENCHMARKS.md (or --new FILE):
- every row of the table under "## Summary: the current figures" is at most 200 characters, and
  its links (inline or `[text][key]` with a `[key]: #anchor` definition) name headings of the file;
- given OLD_FILE (an earlier BENCHMARKS.md, e.g. `git show 09c8356:BENCHMARKS.md > old.md`), every
  number in OLD_FILE's summary table still appears somewhere in the new file.
Numbers are compared after normalising: thousands separators dropped (1,046,797 = 1046797), the
minus sign U+2212 read as '-', a leading '+' dropped (+424.3 = 424.3), units and marks around them
ignored (0.89× = 0.89, 99.5 % = 99.5). A '-' or '+' counts as a sign only where no letter or digit
precedes it, so dates (2026-12-04) give their parts; digits right after a letter belong to a
name (s54, g39o0, a commit hash such as e58208d) and are not numbers. Link targets are not
figures and are skipped. Prints every failure, and exits 1 if there is any."""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_readme import anchors  # noqa: E402  (heading anchors, as GitHub makes them)

MAX_ROW = 200
SUMMARY = "## Summary: the current figures"

NUMBER = re.compile(r"(?<![\w.,])([−+-]?)(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\d])")
INLINE_TARGET = re.compile(r"\]\([^)]*\)")
REF_LINK = re.compile(r"\[([^\]]+)\]\[([^\]]*)\]")
INLINE_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
REF_DEF = re.compile(r"^\s{0,3}\[([^\]]+)\]:\s*(\S+)")


def summary_rows(text):
    """(line number, row) of the summary table's body rows."""
    lines = text.split("\n")
    try:
        start = next(i for i, l in enumerate(lines) if l.strip() == SUMMARY)
    except StopIteration:
        return None
    rows = []
    in_table = False
    for i in range(start + 1, len(lines)):
        line = lines[i]
        if line.startswith("## "):
            break
        if line.startswith("|"):
            in_table = True
            rows.append((i + 1, line))
        elif in_table:
            break
    # drop the header and the |---| line
    return [(n, r) for n, r in rows[2:]]


def numbers(text):
    """The normalised numbers of a text, as a list of (number, as written)."""
    text = INLINE_TARGET.sub("]", text)
    found = []
    for m in NUMBER.finditer(text):
        sign, digits = m.group(1), m.group(2)
        at = m.start()
        if sign and at > 0 and (text[at - 1].isalnum() or text[at - 1] == "_"):
            sign = ""  # a hyphen inside a word, date or range, not a minus
        sign = "-" if sign in ("-", "−") else ""
        value = digits.replace(",", "")
        if "." not in value:
            value = str(int(value))
        found.append((sign + value, m.group(0)))
    return found


def check_rows(path, text):
    failures = []
    rows = summary_rows(text)
    if rows is None:
        return [f"{path}: no '{SUMMARY}' section"], 0
    if not rows:
        return [f"{path}: the summary section holds no table rows"], 0
    defs = {}
    for line in text.split("\n"):
        m = REF_DEF.match(line)
        if m:
            defs[m.group(1).lower()] = m.group(2)
    heads = anchors(os.path.abspath(path))
    for number, row in rows:
        if len(row) > MAX_ROW:
            failures.append(f"{path}:{number}: summary row of {len(row)} characters, more than {MAX_ROW}")
        targets = [t for _, t in INLINE_LINK.findall(row)]
        for label, key in REF_LINK.findall(row):
            key = (key or label).lower()
            if key not in defs:
                failures.append(f"{path}:{number}: link [{label}][{key}] has no [{key}]: definition")
            else:
                targets.append(defs[key])
        for target in targets:
            if target.startswith("#") and target[1:] not in heads:
                failures.append(f"{path}:{number}: link to {target}: no such heading in {path}")
    return failures, len(rows)


def check_numbers(old_path, new_text):
    with open(old_path, encoding="utf-8") as f:
        old_text = f.read()
    rows = summary_rows(old_text)
    if not rows:
        return [f"{old_path}: no summary table to compare with"], 0
    present = {value for value, _ in numbers(new_text)}
    failures = []
    checked = set()
    for number, row in rows:
        what = row.strip("| ").split(" | ")[0]
        for value, written in numbers(row):
            checked.add(value)
            if value not in present:
                failures.append(f"{old_path}:{number} ({what}): {written.strip()} ({value}) is not in the new file")
    return failures, len(checked)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("old", nargs="?", help="an earlier BENCHMARKS.md whose summary numbers must survive")
    parser.add_argument("--new", default=os.path.join(root, "BENCHMARKS.md"), help="the file to check")
    args = parser.parse_args()
    with open(args.new, encoding="utf-8") as f:
        new_text = f.read()
    failures, count = check_rows(args.new, new_text)
    checked = 0
    if args.old:
        more, checked = check_numbers(args.old, new_text)
        failures += more
    if failures:
        print(f"check_benchmarks: {len(failures)} failure(s):")
        for f in failures:
            print("  " + f)
        return 1
    widest = max(len(r) for _, r in summary_rows(new_text))
    line = f"check_benchmarks: {count} summary rows, widest {widest} characters (at most {MAX_ROW}), links resolve"
    if args.old:
        line += f"; all {checked} distinct numbers of the old summary appear in {os.path.basename(args.new)}"
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
