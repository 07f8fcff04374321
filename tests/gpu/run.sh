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
TIMEV=""
[ -x /usr/bin/time ] && TIMEV="/usr/bin/time -v"

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
  if ! "$B/cgtb" build cram --board "$board" --backend cuda -q -o "$tmp/gpu-$board.cgtb" 2>>"$out/identity.log"; then
    log "cram $board: CUDA build FAILED ($(tail -1 "$out/identity.log"))"
  elif cmp -s "$tmp/cpu-$board.cgtb" "$tmp/gpu-$board.cgtb"; then log "cram $board: identical ($(stat -c %s "$tmp/cpu-$board.cgtb") bytes)"; else log "cram $board: DIFFERENT"; fi
done

log "== Benchmarks (--stats)"
for board in 5x5 4x6 5x6; do
  for be in cuda cpu; do
    [ "$board" = 5x6 ] && [ "$be" = cpu ] && continue
    log "-- cram $board all values, backend $be"
    $TIMEV "$B/cgtb" build cram --board "$board" --backend "$be" --stats -q -o "$tmp/bench.cgtb" \
      >"$out/bench-$board-$be.log" 2>&1
    grep -E "solve|total wall|peak memory|file:" "$out/bench-$board-$be.log" | tee -a "$summary"
    "$B/cgtb" query "$tmp/bench.cgtb" "$(python3 -c "r,c=map(int,'$board'.split('x'));print('/'.join(['.'*c]*r))")" \
      | tee -a "$summary"
  done
done
log "== Other games: CPU vs CUDA byte identity"
same() {
  if [ ! -f "$2" ]; then log "$3: CUDA build FAILED"; elif cmp -s "$1" "$2"; then log "$3: identical"; else log "$3: DIFFERENT"; fi
}
for spec in "domineering --board 5x5" "rit --box 10x10" "cricket-pitch --length 8 --max-bump 4" \
            "octal --code 0.07 --max-total 30" "scoring-sum --op selective --left 123:123 --right 3111:1234 --max 512"; do
  rm -f "$tmp/a.cgtb" "$tmp/b.cgtb"
  "$B/cgtb" build $spec --backend cpu -q -o "$tmp/a.cgtb" 2>>"$out/identity.log"
  "$B/cgtb" build $spec --backend cuda -q -o "$tmp/b.cgtb" 2>>"$out/identity.log"
  same "$tmp/a.cgtb" "$tmp/b.cgtb" "$spec"
done
log "-- domineering 5x6 on cuda"
$TIMEV "$B/cgtb" build domineering --board 5x6 --backend cuda --stats -q -o "$tmp/d56.cgtb" \
  >"$out/bench-dom56.log" 2>&1
grep -E "solve|total wall|peak memory|file:" "$out/bench-dom56.log" | tee -a "$summary"
rm -rf "$tmp"

log "== Scoring play (tests/gpu/scoring_gpu.sh)"
OUT="$out" timeout 240 bash tests/gpu/scoring_gpu.sh >"$out/scoring_gpu.log" 2>&1
log "scoring_gpu.sh exit $? (see scoring_gpu.log)"
log "== done"
