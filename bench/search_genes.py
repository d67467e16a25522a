#!/usr/bin/env python3
"""The numeric search genes of a start file that change play, as SPSA lines (issue 89).

    python3 bench/search_genes.py [--engine BIN] [--params START.toml] [--depth D] > SPACE.txt

Candidates are the declared `[search]` parameters of `evochess params --dump`, less the on/off
switches (`*_use`), the clock's `tm_*` values (they do nothing under `go nodes`) and the switches
in value form: a value whose doc says `0 = off` and that is 0 at the start (a divisor or a
history limit turns its feature on at full strength just above 0: `history_extension_limit = 6`
or `lmr_correction_divisor = 1` more than double the bench's nodes, and mutants that drew them
lost ~100 Elo; such a feature is an on/off choice, tested by SPRT, not a step). Each candidate
is then probed: the start file with that one value moved must change the bench signature, or
the gene is inert at this start (its feature is switched off, e.g. the multi-cut values while
`multicut_use = 0`) and is left out, so that an optimiser cannot drift it unseen. The moves tried,
until one changes the signature: up by its SPSA step (`evochess params --spsa`'s c_end, at least
1), down by it, then a quarter of the range up and down (a threshold compared with SEE values in
whole pieces ignores small steps, yet is live).

Prints `name, int, value, min, max, c_end, r_end` lines (the format of `tuner spsa`'s `params`),
headed by comments naming the command, the start, the signature and every inert gene."""
import argparse, os, subprocess, sys, tempfile


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"search_genes: `{' '.join(cmd)}` failed (rc {p.returncode}): {p.stderr.strip()}")
    return p.stdout


def search_keys(dump):
    """(key, value, doc) of the [search] section of a `params --dump`, in declaration order."""
    keys, section, doc = [], None, ""
    for line in dump.splitlines():
        s = line.strip()
        if s.startswith("[") and s.endswith("]"):
            section = s[1:-1]
        elif s.startswith("#"):
            doc = s
        elif section == "search" and " = " in s:
            k, v = s.split(" = ", 1)
            keys.append((k, int(v), doc))
            doc = ""
    return keys


def value_switch(value, doc):
    """A value at 0 whose doc says 0 switches its feature off."""
    return value == 0 and "0 = off" in doc


def signature(engine, params, depth):
    cmd = [engine, "bench"] + ([str(depth)] if depth else []) + ["--params", params]
    last = run(cmd).strip().splitlines()[-1].split()
    if len(last) < 2 or last[1] != "nodes":
        sys.exit(f"search_genes: unexpected bench line `{' '.join(last)}`")
    return int(last[0])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default="target/release/evochess")
    ap.add_argument("--params", default="params/default.toml", help="the start file")
    ap.add_argument("--depth", type=int, default=0, help="bench depth (default: the bench's own)")
    a = ap.parse_args()
    dump = run([a.engine, "params", "--params", a.params, "--dump"])
    fmt = dump.splitlines()[0]
    if not fmt.startswith("format = "):
        sys.exit(f"search_genes: `params --dump` does not start with `format = N`: {fmt}")
    keys = [(k, v, d) for k, v, d in search_keys(dump) if not k.endswith("_use") and not k.startswith("tm_")]
    switches = [k for k, v, d in keys if value_switch(v, d)]
    names = [k for k, v, d in keys if not value_switch(v, d)]
    lines = run([a.engine, "params", "--params", a.params, "--spsa", "--max-params", "10000", "--only",
                 ",".join(names)]).splitlines()
    spsa = {l.split(",")[0].strip(): l for l in lines if l.strip()}
    missing = [n for n in names if n not in spsa]
    if missing:
        sys.exit(f"search_genes: no SPSA line for {', '.join(missing)}")
    base = signature(a.engine, a.params, a.depth)
    live, inert = [], []
    with tempfile.TemporaryDirectory() as tmp:
        probe = os.path.join(tmp, "probe.toml")
        for n in names:
            f = [x.strip() for x in spsa[n].split(",")]
            value, lo, hi, c_end = int(f[2]), int(f[3]), int(f[4]), float(f[5])
            step, quarter = max(1, round(c_end)), max(1, (hi - lo) // 4)
            tried = []
            for d in (step, -step, quarter, -quarter):
                moved = min(hi, max(lo, value + d))
                if moved == value or moved in tried:
                    continue
                tried.append(moved)
                with open(probe, "w") as out:
                    out.write(f"{fmt}\n[search]\n{n} = {moved}\n")
                sig = signature(a.engine, probe, a.depth)
                print(f"{n}: {value} -> {moved}: {sig}", file=sys.stderr)
                if sig != base:
                    break
            (live if sig != base else inert).append(n)
            print(f"{n}: {'live' if sig != base else 'inert'}", file=sys.stderr)
    print(f"# python3 bench/search_genes.py --params {a.params}" + (f" --depth {a.depth}" if a.depth else ""))
    print(f"# start {a.params} ({fmt}), bench signature {base}; {len(live)} live genes of {len(keys)}")
    print(f"# switches in value form, off at this start (left out): {', '.join(switches) if switches else 'none'}")
    print(f"# inert at this start (left out): {', '.join(inert) if inert else 'none'}")
    for n in live:
        print(spsa[n])


if __name__ == "__main__":
    main()
