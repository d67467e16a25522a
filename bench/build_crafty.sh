#!/usr/bin/env bash
# Crafty 23.4, the opponent of David et al. 2014 (their EVOL* beat it by +74 Elo), built from a
# local git mirror without the network: github:MartinMSPedersen/Crafty-Chess holds every version
# as a tag (`fetch` gives such a mirror). Built as its Makefile's `linux` target without the
# profiling and tracing flags, single-threaded (-DCPUS=1), with -fcommon (its globals predate
# GCC 10's default). Its `bench` must count 380970457 nodes (fixed depth, one thread), so a
# wrong tag or a miscompile fails here; the bench takes about a minute.
#
#   bench/build_crafty.sh CRAFTY_GIT_DIR [OUT_DIR] [TAG]
#
# OUT_DIR (default runs/anchors) receives crafty-23.4 (crafty-<version> for another TAG, whose
# bench is then printed, not checked). Crafty speaks xboard; run it with the arguments
# "log off" "ponder off" (no log files, no pondering), as bench/gauntlet.sh's `crafty` does.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ]; then
    echo "usage: bench/build_crafty.sh CRAFTY_GIT_DIR [OUT_DIR] [TAG]" >&2
    exit 2
fi
git_dir="$1"; out="${2:-runs/anchors}"; tag="${3:-v23.4}"
for tool in git make gcc g++; do
    command -v "$tool" >/dev/null || { echo "build_crafty: $tool not found" >&2; exit 2; }
done
git --git-dir="$git_dir" rev-parse -q --verify "refs/tags/$tag" >/dev/null \
    || { echo "build_crafty: $git_dir has no tag $tag" >&2; exit 2; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git --git-dir="$git_dir" archive "$tag" | tar -x -C "$work"
make -C "$work" target=LINUX CC=gcc CXX=g++ CFLAGS='-O3 -fcommon -pipe' CXFLAGS='-O3' \
    LDFLAGS='-lstdc++ -lpthread' opt='-DINLINE64 -DCPUS=1' crafty-make >"$work/build.log" 2>&1 \
    || { tail -n 20 "$work/build.log" >&2; echo "build_crafty: Crafty $tag failed to build" >&2; exit 1; }
bin="$out/crafty-${tag#v}"
cp "$work/crafty" "$bin"
# Bench in an empty directory: Crafty writes its logs where it runs unless told `log off`.
mkdir "$work/run"
nodes="$(cd "$work/run" && printf 'bench\nquit\n' | "$bin" "log off" 2>&1 | awk '/^Total nodes:/ {print $3}')"
if [ "$tag" = v23.4 ] && [ "$nodes" != 380970457 ]; then
    echo "build_crafty: crafty-23.4 bench gave ${nodes:-nothing} nodes, expected 380970457" >&2
    exit 1
fi
echo "crafty-${tag#v}: bench $nodes nodes; built into $bin"
