#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang, AddressSanitizer and
# UndefinedBehaviorSanitizer, in build-fuzz) and runs each for SECONDS seconds
# (default 5) from a copy of its seed corpus tests/fuzz/corpus/TARGET/. Fails
# on any crash, sanitizer report, leak, out-of-memory or hang (inputs that
# take over 10 s); the inputs that failed are kept in build-fuzz/fuzz-artifacts/.
#   bash scripts/fuzz.sh [SECONDS]
# Environment: CGTB_FUZZ_BUILD (build folder, default build-fuzz),
# CGTB_JOBS (build jobs, default 2), CGTB_FUZZ_TARGETS (names to run, e.g.
# "header reader"; default every target), CGTB_FUZZ_SEED (libFuzzer seed, default 1,
# so that a run is reproducible).
set -euo pipefail
secs="${1:-5}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# clang with its libFuzzer and sanitizer runtimes, and LLVM's OpenMP runtime.
bash scripts/install-deps.sh clang libclang-rt-dev libomp-dev

build="${CGTB_FUZZ_BUILD:-build-fuzz}"
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCGTB_FUZZ=ON -DCGTB_ENABLE_CUDA=OFF \
    -DCGTB_BUILD_TESTS=OFF -DCGTB_WERROR=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
cmake --build "$build" -j"${CGTB_JOBS:-2}" --target fuzz_targets

targets="${CGTB_FUZZ_TARGETS:-}"
if [ -z "$targets" ]; then
  for src in tests/fuzz/fuzz_*.cpp; do
    n="$(basename "$src" .cpp)"
    targets+="${n#fuzz_} "
  done
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
artifacts="$build/fuzz-artifacts"
failed=()
for t in $targets; do
  mkdir -p "$work/$t"
  if [ -d "tests/fuzz/corpus/$t" ]; then cp -r "tests/fuzz/corpus/$t/." "$work/$t/"; fi
  mkdir -p "$artifacts/$t"
  echo "[cgtb] fuzz_$t: ${secs} s"
  if "$build/fuzz_$t" -max_total_time="$secs" -seed="${CGTB_FUZZ_SEED:-1}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/$t/" "$work/$t" >"$work/$t.log" 2>&1; then
    grep -E "^stat::number_of_executed_units|^stat::average_exec_per_sec" "$work/$t.log" | tr '\n' ' ' || true
    echo
  else
    tail -n 40 "$work/$t.log"
    echo "[cgtb] fuzz_$t FAILED; the input is in $artifacts/$t/"
    failed+=("$t")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "[cgtb] fuzzing failed: ${failed[*]}"
  exit 1
fi
echo "[cgtb] fuzzing: every target ran ${secs} s without a finding"
