#!/usr/bin/env python3
"""Summary of bench/mutation_ladder.sh: the mean Elo of a mutant against its parent, per scale.

    python3 bench/ladder_summary.py OUT

Reads OUT/scale-K/match-NN/results.json (the runner's, the mutant first) and OUT/scale-K.moved.txt.
Per scale: the pooled pentanomial counts of all its mutants, the pooled Elo with its 95 % interval
(pentanomial variance: one game pair is one sample), the spread of the mutants' own Elo (their
standard deviation: how unequal the mutants are), the worst and best mutant, and the mean number
of genes a mutant moved. Printed as a Markdown table."""
import glob, json, math, os, re, sys

SCORES = {"ll": 0.0, "ld": 0.25, "dd": 0.5, "wl": 0.5, "wd": 0.75, "ww": 1.0}


def elo(s):
    s = min(max(s, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / s - 1.0)


def stats(penta):
    """Elo and 95 % half-width from pentanomial counts (pair scores 0, 1/4, ..., 1)."""
    n = sum(penta.values())
    if n == 0:
        return None
    mean = sum(SCORES[k] * c for k, c in penta.items()) / n
    var = sum(c * (SCORES[k] - mean) ** 2 for k, c in penta.items()) / n
    se = math.sqrt(var / n)
    lo, hi = elo(mean - 1.96 * se), elo(mean + 1.96 * se)
    return elo(mean), (hi - lo) / 2, n


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python3 bench/ladder_summary.py OUT")
    out = sys.argv[1]
    scales = [d for d in glob.glob(os.path.join(out, "scale-*")) if os.path.isdir(d)]
    scales.sort(key=lambda p: float(p.rsplit("-", 1)[1]))
    if not scales:
        sys.exit(f"ladder_summary: no {out}/scale-*/ directories")
    print("| scale (x c_end) | mutants | pairs | pooled ptnml [LL, LD, D, WD, WW] | mean Elo of a mutant | sd of mutants' Elo | worst / best | genes moved (mean) |")
    print("|---:|---:|---:|---|---:|---:|---|---:|")
    for d in scales:
        pooled = {k: 0 for k in SCORES}
        each = []
        for f in sorted(glob.glob(os.path.join(d, "match-*", "results.json"))):
            r = json.load(open(f))
            pair = r["pairs"][0]
            if pair["first_name"] != "mutant":
                sys.exit(f"ladder_summary: {f}: the first engine is {pair['first_name']}, not the mutant")
            for k in SCORES:
                pooled[k] += pair["penta"][k]
            s = stats(pair["penta"])
            if s:
                each.append(s[0])
        s = stats(pooled)
        if not s:
            continue
        moved = [int(m.group(1)) for m in re.finditer(r" (\d+)/\d+$", open(d + ".moved.txt").read(), re.M)] \
            if os.path.exists(d + ".moved.txt") else []
        sd = (sum((e - sum(each) / len(each)) ** 2 for e in each) / (len(each) - 1)) ** 0.5 if len(each) > 1 else 0.0
        p = pooled
        print(f"| {d.rsplit('-', 1)[1]} | {len(each)} | {s[2]} | [{p['ll']}, {p['ld']}, {p['dd'] + p['wl']}, {p['wd']}, {p['ww']}]"
              f" | {s[0]:+.1f} ± {s[1]:.1f} | {sd:.1f} | {min(each):+.0f} / {max(each):+.0f}"
              f" | {sum(moved) / len(moved) if moved else float('nan'):.1f} |")


if __name__ == "__main__":
    main()
