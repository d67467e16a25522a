#!/usr/bin/env python3
"""Mirrored mutants of a start file in SPSA units (issue 89's mutation ladder).

    python3 bench/mutants.py SPACE.txt START.toml --scale K --count N --seed S --out DIR
                             [--only GLOB[,GLOB...]]

SPACE.txt holds `name, int, value, min, max, c_end, r_end` lines (bench/search_genes.py, or
`evochess params --spsa`); START.toml is the file they were read from (its `format =
N` line, heads every mutant). Mutants come in mirrored pairs: one Gaussian step d_i ~ N(0, K * c_end_i)
per gene, mutant 2j gets value + d and mutant 2j+1 value - d, each rounded and clamped to the
gene's range. --only restricts the step to the genes matching the globs (a gene group); the rest
keep their start values. Each DIR/mutant-NN.toml lists only the [search] values that differ from the
start; a line per mutant on stdout gives how many genes moved."""
import argparse, fnmatch, os, random, sys


def read_space(path):
    genes = []
    for n, line in enumerate(open(path), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        f = [x.strip() for x in s.split(",")]
        if len(f) != 7 or f[1] != "int":
            sys.exit(f"mutants: {path}:{n}: expected `name, int, value, min, max, c_end, r_end`: {s}")
        try:
            genes.append((f[0], int(f[2]), int(f[3]), int(f[4]), float(f[5])))
        except ValueError:
            sys.exit(f"mutants: {path}:{n}: value, min, max must be integers and c_end a number: {s}")
    if not genes:
        sys.exit(f"mutants: {path}: no genes")
    return genes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("space")
    ap.add_argument("start")
    ap.add_argument("--scale", type=float, required=True, help="step in units of each gene's c_end")
    ap.add_argument("--count", type=int, required=True, help="mutants (even: mirrored pairs)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", default="*", help="comma-separated globs of the genes to move")
    a = ap.parse_args()
    if a.count < 2 or a.count % 2:
        sys.exit(f"mutants: --count {a.count}: need an even number of at least 2 (mirrored pairs)")
    if a.scale <= 0:
        sys.exit(f"mutants: --scale {a.scale}: must be positive")
    fmt = next((l.strip() for l in open(a.start) if l.startswith("format = ")), None)
    if fmt is None:
        sys.exit(f"mutants: {a.start} has no `format = N` line")
    globs = [g.strip() for g in a.only.split(",") if g.strip()]
    genes = [g for g in read_space(a.space) if any(fnmatch.fnmatchcase(g[0], p) for p in globs)]
    if not genes:
        sys.exit(f"mutants: --only {a.only} matches no gene of {a.space}")
    rng = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    for pair in range(a.count // 2):
        steps = [rng.gauss(0.0, a.scale * c_end) for (_, _, _, _, c_end) in genes]
        for sign in (1, -1):
            moved = {}
            for (name, value, lo, hi, _), d in zip(genes, steps):
                v = min(hi, max(lo, round(value + sign * d)))
                if v != value:
                    moved[name] = v
            idx = 2 * pair + (0 if sign == 1 else 1)
            path = os.path.join(a.out, f"mutant-{idx:02}.toml")
            with open(path, "w") as out:
                out.write(f"{fmt}\n# bench/mutants.py {a.space} {a.start} --scale {a.scale} --count {a.count}"
                          f" --seed {a.seed} --only {a.only}: mutant {idx}, {len(moved)} of {len(genes)} genes moved\n")
                out.write("[search]\n")
                for k, v in moved.items():
                    out.write(f"{k} = {v}\n")
            print(f"{path} {len(moved)}/{len(genes)}")


if __name__ == "__main__":
    main()
