#!/usr/bin/env bash
# The engine's profile-guided (PGO) build, as Stockfish's `make profile-build`: an instrumented
# build runs `evochess bench` and the final build uses its counts. Same moves as the plain build
# (both benches must count the same nodes), only faster. Needs rustc's own llvm-profdata
# (`rustup component add llvm-tools`); RUSTFLAGS replace `-C target-cpu=native` as in a plain build.
#
#   bench/build_pgo.sh [OUT=target/pgo/evochess]          (or `make pgo EXE=OUT`)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/pgo/evochess}"
for tool in cargo rustc; do
    command -v "$tool" >/dev/null || { echo "build_pgo: $tool not found" >&2; exit 2; }
done
host="$(rustc -vV | awk '/^host:/ {print $2}')"
profdata="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
    echo "build_pgo: $profdata not found; install it with: rustup component add llvm-tools" >&2
    exit 2
fi
base_flags="${RUSTFLAGS:--C target-cpu=native}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/profiles"

# A release build of the engine with EXTRA rustc flags into target dir DIR (DIR/release/evochess).
build_engine() {
    RUSTFLAGS="$base_flags $1" CARGO_TARGET_DIR="$2" \
        cargo build --release --locked -q -p evochess --bin evochess
}

# The node count of BIN's bench (last line "N nodes M nps"), run outside the checkout.
bench_nodes() {
    (cd "$work" && "$1" bench 2>/dev/null | awk 'END {print $1}')
}

echo "build_pgo: instrumented build" >&2
build_engine "-C profile-generate=$work/build-profiles" "$work/gen"
echo "build_pgo: profiling run (evochess bench)" >&2
# Apart from the counts the build scripts wrote.
instrumented_nodes="$(LLVM_PROFILE_FILE="$work/profiles/bench-%p.profraw" \
    bench_nodes "$work/gen/release/evochess")"
"$profdata" merge -o "$work/merged.profdata" "$work/profiles"/*.profraw

echo "build_pgo: optimised build" >&2
build_engine "-C profile-use=$work/merged.profdata" "$work/use"
pgo_nodes="$(bench_nodes "$work/use/release/evochess")"
if [ -z "$pgo_nodes" ] || [ "$pgo_nodes" != "$instrumented_nodes" ]; then
    echo "build_pgo: bench gave ${pgo_nodes:-nothing} nodes, the instrumented build" \
        "${instrumented_nodes:-nothing}: the builds disagree" >&2
    exit 1
fi
mkdir -p "$(dirname "$out")"
cp "$work/use/release/evochess" "$out"
echo "build_pgo: $out (bench $pgo_nodes nodes)"
