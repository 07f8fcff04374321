#!/usr/bin/env bash
# Run THERE (a machine with an NVIDIA GPU), from the repository root, after
# tests/gpu/prepare.sh made .gpu-bundle/ here:
#   bash tests/gpu/run.sh OUTDIR
# Runs the GPU tests, builds tablebases with --backend cpu and --backend cuda
# and checks they are byte-identical, and runs the benchmarks. Everything goes
# to OUTDIR (summary.txt first).
set -uo pipefail
out=${1:?usage: tests/gpu/run.sh OUTDIR}
mkdir -p "$out"
cd "$(dirname "$0")/../.."
B=.gpu-bundle
export LD_LIBRARY_PATH="$PWD/$B/lib:${LD_LIBRARY_PATH:-}"
summary="$out/summary.txt"
: >"$summary"
log() { echo "$*" | tee -a "$summary"; }

log "== machine"
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; nproc; } 2>&1 | tee -a "$summary"

log "== GPU tests"
"$B/cgtb_gpu_tests" >"$out/gpu_tests.log" 2>&1
log "cgtb_gpu_tests exit $? ($(grep -E 'PASSED|FAILED|SKIPPED' "$out/gpu_tests.log" | tr '\n' ' '))"

log "== CPU test suite on this machine (sanity)"
"$B/cgtb_tests" --gtest_brief=1 >"$out/cpu_tests.log" 2>&1
log "cgtb_tests exit $?"

log "== CPU vs CUDA byte identity"
tmp=$(mktemp -d)
for board in 3x4 4x5 3x6 5x5 4x6; do
  "$B/cgtb" build cram --board "$board" --backend cpu -q -o "$tmp/cpu-$board.cgtb" 2>>"$out/identity.log"
  "$B/cgtb" build cram --board "$board" --backend cuda -q -o "$tmp/gpu-$board.cgtb" 2>>"$out/identity.log"
  if cmp -s "$tmp/cpu-$board.cgtb" "$tmp/gpu-$board.cgtb"; then log "cram $board: identical ($(stat -c %s "$tmp/cpu-$board.cgtb") bytes)"; else log "cram $board: DIFFERENT"; fi
done

log "== Benchmarks (--stats)"
for board in 5x5 4x6 5x6; do
  for be in cuda cpu; do
    [ "$board" = 5x6 ] && [ "$be" = cpu ] && continue
    log "-- cram $board all values, backend $be"
    /usr/bin/time -v "$B/cgtb" build cram --board "$board" --backend "$be" --stats -q -o "$tmp/bench.cgtb" \
      >"$out/bench-$board-$be.log" 2>&1
    grep -E "solve|total wall|peak memory|file:" "$out/bench-$board-$be.log" | tee -a "$summary"
    "$B/cgtb" query "$tmp/bench.cgtb" "$(python3 -c "r,c=map(int,'$board'.split('x'));print('/'.join(['.'*c]*r))")" \
      | tee -a "$summary"
  done
done
rm -rf "$tmp"
log "== done"
