#!/usr/bin/env python3
"""How far a tuned parameter file moved from its start: the share of each key's declared range.

    python3 bench/param_movement.py START.toml RESULT.toml

The ranges are read from the "# ... [lo, hi]" comment that `tuner` and `evochess` write above
each key, in RESULT or else in START (`evochess params --dump > START.toml` writes the defaults
with them all; params/default.toml holds values only); keys without one, or
missing from START, are left out. Prints how many keys changed,
the mean and median share of the range moved, and how many changed keys sit at a bound."""
import re, sys, statistics
def parse(path):
    vals, ranges, last = {}, {}, None
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        sys.exit(f"param_movement: cannot read {path}: {e.strerror}")
    for line in lines:
        m = re.match(r"#.*\[(-?\d+), (-?\d+)\]\s*$", line.strip())
        if m: last = (int(m.group(1)), int(m.group(2))); continue
        m = re.match(r"([a-z0-9_]+) = (-?\d+)\s*$", line.strip())
        if m:
            vals[m.group(1)] = int(m.group(2))
            if last: ranges[m.group(1)] = last
        last = None
    return vals, ranges
if len(sys.argv) != 3:
    sys.exit("usage: python3 bench/param_movement.py START.toml RESULT.toml")
a, rng_a = parse(sys.argv[1]); b, rng = parse(sys.argv[2])
rng = {**rng_a, **rng}
fr = []; bound = changed = 0
for k, v in b.items():
    if k not in rng or k not in a: continue
    lo, hi = rng[k]
    fr.append(abs(v - a[k]) / (hi - lo))
    if v != a[k]:
        changed += 1
        if v in (lo, hi): bound += 1
if not fr:
    sys.exit(f"param_movement: no key of {sys.argv[2]} has both a value in {sys.argv[1]} and a [lo, hi] comment in either file")
print(f"{len(fr)} keys: {changed} changed, mean {100*statistics.mean(fr):.1f}% of range, median {100*statistics.median(fr):.1f}%, {bound} at a bound")
