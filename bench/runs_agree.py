#!/usr/bin/env python3
"""How far two tunes of the same genes moved from their start, and whether they moved the same way
(issue 89: the ES mean of `tuner coevolve` against SPSA's θ, BENCHMARKS.md "The two runs agree").

    python3 bench/runs_agree.py [SPACE] [ES_MEAN] [SPSA_CHECKPOINT] [TOP]
        defaults: configs/spaces/coevolve-search.txt runs/coevolve-search/checkpoint.json
                  runs/spsa-coevolve-search/checkpoint.json 12

SPACE holds the genes as SPSA lines (`name, int, start, min, max, c_end, r_end`): the start and
the unit (c_end) of each move. ES_MEAN is the ES's checkpoint (its mean, one value a gene of SPACE
in order, rounded as `mean.toml` writes it) or a parameter file (its `name = value` lines, whatever
their section); SPSA_CHECKPOINT is `tuner spsa`'s checkpoint (θ: the tune's `params`,
in either checkpoint form). Prints each run's RMS distance from the start in c_end, how many genes
both moved (θ rounded) and how many of those the same way, with the one-sided binomial p of that
many agreeing if the two moves were unrelated, then the TOP genes both moved furthest the same way.
"""
import json
import math
import re
import sys

from mutants import read_space


def genes(path):
    # The space's lines as bench/mutants.py reads them (checked, each line named when bad).
    return [(name, float(start), c_end) for name, start, _, _, c_end in read_space(path)]


def values(path, names):
    if path.endswith(".json"):
        mean = json.load(open(path))["es"]["mean"]
        if len(mean) != len(names):
            sys.exit(f"{path}: a mean of {len(mean)} genes for a space of {len(names)}")
        return {n: float(round(v)) for n, v in zip(names, mean)}
    out = {}
    for line in open(path):
        m = re.match(r"^(\w+)\s*=\s*(-?\d+(?:\.\d+)?)\s*$", line)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


def theta(path):
    c = json.load(open(path))
    # The tune is `spsa` (the tuner of 1e97496) or the optimiser's `tune` (later tuners).
    tune = c.get("spsa") or c.get("tune")
    if tune is None:
        sys.exit(f"{path}: no `spsa` or `tune` in this checkpoint")
    return {p["name"]: p["value"] for p in tune["params"]}


def main():
    args = sys.argv[1:]
    space = args[0] if len(args) > 0 else "configs/spaces/coevolve-search.txt"
    es_path = args[1] if len(args) > 1 else "runs/coevolve-search/checkpoint.json"
    spsa_path = args[2] if len(args) > 2 else "runs/spsa-coevolve-search/checkpoint.json"
    top = int(args[3]) if len(args) > 3 else 12
    gs = genes(space)
    es, sp = values(es_path, [n for n, _, _ in gs]), theta(spsa_path)
    missing = [n for n, _, _ in gs if n not in sp]
    if missing:
        sys.exit(f"{spsa_path}: no θ for {', '.join(missing)}")
    rows, same, other, es_sq, sp_sq = [], 0, 0, 0.0, 0.0
    for name, start, c_end in gs:
        e, s = es.get(name, start), sp[name]
        de, ds = (e - start) / c_end, (s - start) / c_end
        es_sq, sp_sq = es_sq + de * de, sp_sq + ds * ds
        if e != start and round(s) != start:
            if (e - start) * (round(s) - start) > 0:
                same += 1
                rows.append((min(abs(de), abs(ds)), name, start, e, s, de, ds))
            else:
                other += 1
    n = len(gs)
    both = same + other
    p = sum(math.comb(both, k) for k in range(same, both + 1)) / 2**both if both else float("nan")
    print(f"{n} genes; distance from the start (RMS, c_end): ES mean {math.sqrt(es_sq / n):.2f}, "
          f"SPSA θ {math.sqrt(sp_sq / n):.2f}")
    print(f"both moved (θ rounded): {both}; the same way {same}, the other way {other} "
          f"(one-sided binomial p = {p:.2g} if unrelated)")
    print("| gene | start | ES mean | SPSA θ | ES (c_end) | SPSA (c_end) |")
    print("|---|---:|---:|---:|---:|---:|")
    for _, name, start, e, s, de, ds in sorted(rows, reverse=True)[:top]:
        print(f"| {name} | {start:g} | {e:g} | {s:.1f} | {de:+.2f} | {ds:+.2f} |")


if __name__ == "__main__":
    try:
        main()
    except (OSError, ValueError, KeyError, json.JSONDecodeError) as e:
        sys.exit(f"runs_agree: {e}")
