#!/usr/bin/env bash
# The anchor engines of issue 92, built from local git mirrors without the network, the way their
# authors build them: Stockfish 11 (tag sf_11, `make build ARCH=x86-64-modern COMP=gcc`) and
# Ethereal V12.00 (tag V12.00, `make popcnt`: -march=native with popcnt, which Debian's
# ethereal-chess 12.00 lacks). Each binary's `bench` must give the node count its release commit
# states (Stockfish 11: 5156767; Ethereal 12.00: 5132900), so a wrong tag or a miscompile fails
# here, not in a gauntlet.
#
#   bench/build_anchors.sh STOCKFISH_GIT_DIR ETHEREAL_GIT_DIR [OUT_DIR]
#
# The git directories are clones or bare mirrors holding the tags (the `fetch` of
# github:official-stockfish/Stockfish and github:AndyGrant/Ethereal gives such mirrors). OUT_DIR
# (default runs/anchors) receives stockfish-11 and ethereal-12.00-popcnt. JOBS (default: every
# core) sets make's parallelism. About two minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
    echo "usage: bench/build_anchors.sh STOCKFISH_GIT_DIR ETHEREAL_GIT_DIR [OUT_DIR]" >&2
    exit 2
fi
sf_git="$1"; ethereal_git="$2"; out="${3:-runs/anchors}"; jobs="${JOBS:-$(nproc)}"
for tool in git make gcc g++; do
    command -v "$tool" >/dev/null || { echo "build_anchors: $tool not found" >&2; exit 2; }
done
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Extracts TAG's src/ from the git directory GIT into DIR; names the tag when it is missing.
extract() {
    local git="$1" tag="$2" dir="$3"
    git --git-dir="$git" rev-parse -q --verify "refs/tags/$tag" >/dev/null \
        || { echo "build_anchors: $git has no tag $tag" >&2; exit 2; }
    mkdir -p "$dir"
    git --git-dir="$git" archive "$tag" src | tar -x -C "$dir"
}

# Checks that BIN's bench printed NODES nodes (the count is the signature of a correct build).
check_bench() {
    local name="$1" got="$2" want="$3"
    if [ "$got" != "$want" ]; then
        echo "build_anchors: $name bench gave ${got:-nothing} nodes, its release says $want" >&2
        exit 1
    fi
    echo "$name: bench $got nodes (as released)"
}

extract "$sf_git" sf_11 "$work/stockfish"
make -C "$work/stockfish/src" -j"$jobs" build ARCH=x86-64-modern COMP=gcc >"$work/stockfish.log" 2>&1 \
    || { tail -n 20 "$work/stockfish.log" >&2; echo "build_anchors: Stockfish 11 failed to build" >&2; exit 1; }
cp "$work/stockfish/src/stockfish" "$out/stockfish-11"
nodes="$("$out/stockfish-11" bench 2>&1 | awk '/^Nodes searched/ {print $4}')"
check_bench "stockfish-11" "$nodes" 5156767

extract "$ethereal_git" V12.00 "$work/ethereal"
make -C "$work/ethereal/src" popcnt >"$work/ethereal.log" 2>&1 \
    || { tail -n 20 "$work/ethereal.log" >&2; echo "build_anchors: Ethereal 12.00 failed to build" >&2; exit 1; }
cp "$work/ethereal/src/Ethereal" "$out/ethereal-12.00-popcnt"
nodes="$("$out/ethereal-12.00-popcnt" bench 2>/dev/null | awk '/^Nodes/ {print $3}')"
check_bench "ethereal-12.00-popcnt" "$nodes" 5132900

echo "built into $out: stockfish-11, ethereal-12.00-popcnt"
