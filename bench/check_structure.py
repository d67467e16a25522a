#!/usr/bin/env python3
"""Structure guards for a crate (issue 90): no import cycle between its modules, no source file
over --max-lines lines and no function over --max-fn lines.

    python3 bench/check_structure.py tuner/src [--max-lines 800] [--max-fn 100] [--report]

Modules are files (`a/b.rs` is `crate::a::b`, `a/mod.rs` is `crate::a`). An edge A -> B is any
path in A's code (`use` lines included) that names B or something inside B: `crate::b::x`,
`super::x`, `self::x`. A module's uses of its own descendants are not edges (declaring and
using its children is what a parent module is for); a child using its parent's items is, so a
parent using a child that uses the parent is no cycle, but two siblings using each other are.
`#[cfg(test)]` items are left out of the graph (tests may use what they check). Comments and string
literals are ignored. Exits 1 and lists every cycle and every size over the limits; --report lists
them and exits 0."""
import argparse
import re
import sys
from pathlib import Path

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip(text):
    """The code without comments, strings and char literals (their lines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    out.append("\n" if text[i] == "\n" else "")
                    i += 1
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and (i == 0 or not re.match(r"\w", text[i - 1])):
            m = re.match(r'r(#*)"', text[i:])
            end = text.find('"' + m.group(1), i + len(m.group(0)))
            end = n if end < 0 else end + 1 + len(m.group(1))
            out.append('""' + "\n" * text.count("\n", i, end))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
        elif c == "'" and re.match(r"'(\\.|[^\\'])'|'\\u\{[0-9a-fA-F]+\}'|'\\x[0-9a-fA-F]{2}'", text[i:i + 12]):
            m = re.match(r"'(\\.|[^\\'])'|'\\u\{[0-9a-fA-F]+\}'|'\\x[0-9a-fA-F]{2}'", text[i:i + 12])
            out.append("' '")
            i += len(m.group(0))
        else:
            out.append(c)
            i += 1
    return "".join(out)


def module_of(root, path):
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return tuple(parts)


def expand_use(tree):
    """`a::{b, c::{d, e}}` as its leaf paths."""
    tree = tree.strip()
    m = re.match(r"^(.*?)\{(.*)\}$", tree, re.S)
    if not m:
        return [tree.split(" as ")[0].strip()]
    prefix, inner = m.group(1), m.group(2)
    items, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    items.append(cur)
    return [p for item in items if item.strip() for p in expand_use(prefix + item.strip())]


def resolve(mod, path, modules):
    """The module (of `modules`) a path written in `mod` names, or None if outside the crate."""
    segs = [s for s in path.replace(" ", "").split("::") if s]
    if not segs:
        return None
    if segs[0] == "crate":
        base, segs = (), segs[1:]
    elif segs[0] == "super":
        base = mod
        while segs and segs[0] == "super":
            base, segs = base[:-1], segs[1:]
    elif segs[0] == "self":
        base, segs = mod, segs[1:]
    else:
        return None
    best = base if base in modules else None
    cur = base
    for s in segs:
        cur = cur + (s,)
        if cur in modules:
            best = cur
        else:
            break
    return best


def without_tests(code):
    """`code` without its `#[cfg(test)]` items: tests may use whatever they check."""
    while True:
        m = re.search(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?(?:mod|fn|impl|use)\b", code)
        if not m:
            return code
        brace, semi = code.find("{", m.end()), code.find(";", m.end())
        if brace < 0 or 0 <= semi < brace:
            end = semi + 1
        else:
            depth, end = 0, brace
            while end < len(code):
                depth += code[end] == "{"
                depth -= code[end] == "}"
                end += 1
                if depth == 0:
                    break
        code = code[: m.start()] + "\n" * code.count("\n", m.start(), end) + code[end:]


def edges_of(mod, code, modules):
    code = without_tests(code)
    targets = set()
    for m in re.finditer(r"\buse\s+([^;]+);", code):
        targets.update(resolve(mod, p, modules) for p in expand_use(m.group(1)))
    code_no_use = re.sub(r"\buse\s+[^;]+;", "", code)
    for m in re.finditer(r"\b(?:crate|super|self)(?:::" + IDENT + r")+", code_no_use):
        targets.add(resolve(mod, m.group(0), modules))
    # A module's own descendants (and itself) are not edges.
    return {t for t in targets if t is not None and t[: len(mod)] != mod}


def cycles(graph):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


FN = re.compile(r"^[ \t]*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+\"[^\"]*\"\s+)?fn\s+(" + IDENT + ")", re.M)


def long_functions(code, limit):
    out = []
    for m in FN.finditer(code):
        open_at = code.find("{", m.end())
        semi = code.find(";", m.end())
        if open_at < 0 or (0 <= semi < open_at):
            continue  # a declaration without a body
        depth, i = 0, open_at
        while i < len(code):
            depth += code[i] == "{"
            depth -= code[i] == "}"
            if depth == 0:
                break
            i += 1
        first = code.count("\n", 0, m.start()) + 1
        lines = code.count("\n", m.start(), i) + 1
        if lines > limit:
            out.append((m.group(1), first, lines))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("src", type=Path)
    ap.add_argument("--max-lines", type=int, default=800)
    ap.add_argument("--max-fn", type=int, default=100)
    ap.add_argument("--report", action="store_true", help="list, but exit 0")
    args = ap.parse_args()
    files = sorted(p for p in args.src.rglob("*.rs") if "bin" not in p.relative_to(args.src).parts[:1])
    modules = {module_of(args.src, f): f for f in files}
    graph, problems = {}, []
    for mod, f in modules.items():
        text = f.read_text()
        code = strip(text)
        graph[mod] = edges_of(mod, code, modules)
        n = text.count("\n")
        if n > args.max_lines:
            problems.append(f"{f}: {n} lines (at most {args.max_lines})")
        for name, line, length in long_functions(code, args.max_fn):
            problems.append(f"{f}:{line}: fn {name} is {length} lines (at most {args.max_fn})")
    name = lambda m: "::".join(("crate",) + m)
    for comp in cycles(graph):
        members = set(comp)
        links = [f"{name(a)} -> {name(b)}" for a in comp for b in sorted(graph[a]) if b in members]
        problems.append("import cycle: " + "; ".join(links))
    for p in problems:
        print(p)
    print(f"{args.src}: {len(modules)} modules, {len(problems)} problems", file=sys.stderr)
    return 0 if args.report or not problems else 1


if __name__ == "__main__":
    sys.exit(main())
