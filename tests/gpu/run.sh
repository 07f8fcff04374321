#!/usr/bin/env bash
# Run THERE (a machine with an NVIDIA GPU), from the repository root, after
# tests/gpu/prepare.sh made .gpu-bundle/ here:
#   bash tests/gpu/run.sh OUTDIR
# Runs the GPU tests, builds tablebases with --backend cpu and --backend cuda
# and checks they are byte-identical, and runs the benchmarks. Everything goes
# to OUTDIR (summary.txt first). Every step runs under a timeout and the whole
# script stops starting new steps after 8 minutes (CGTB_GPU_BUDGET_S), so it
# ends in under 9 minutes even if a kernel hangs.
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
export CGTB_REQUIRE_GPU=1  # cgtb_gpu_tests fails, not skips, when no device is seen
deadline=$((SECONDS + ${CGTB_GPU_BUDGET_S:-480}))
# limit T: T seconds, or what is left of the budget; 0 once it is spent.
limit() { local left=$((deadline - SECONDS)); [ "$left" -lt "$1" ] && echo $((left > 0 ? left : 0)) || echo "$1"; }
# within T CMD...: runs CMD under `timeout` of limit T; status 124 on a timeout,
# 125 (and a line in the summary) when the budget is spent.
within() {
  local t; t=$(limit "$1"); shift
  if [ "$t" -lt 5 ]; then log "skipped (budget spent): $*"; return 125; fi
  timeout -k 5 "$t" "$@"
}

log "== machine"
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; nproc; } 2>&1 | tee -a "$summary"

log "== bundle"
if ldd "$B/cgtb" "$B/cgtb_gpu_tests" | grep "not found" | tee -a "$summary" | grep -q .; then
  log "a shared library is missing (above): rebuild the bundle with tests/gpu/prepare.sh"
  exit 1
fi

log "== GPU tests"
within 150 "$B/cgtb_gpu_tests" >"$out/gpu_tests.log" 2>&1
log "cgtb_gpu_tests exit $? ($(grep -E '^\[ +(PASSED|FAILED|SKIPPED) +\] [0-9]+ tests?' "$out/gpu_tests.log" | tr '\n' ' '))"

log "== CPU vs CUDA byte identity (Cram: reachable, symmetry-reduced tables; and every region)"
tmp=$(mktemp -d)
ident() {  # ident NAME ARGS...: build with both backends and compare
  local name=$1; shift
  rm -f "$tmp/a.cgtb" "$tmp/b.cgtb"
  if ! within 60 "$B/cgtb" build "$@" --backend cpu -q -o "$tmp/a.cgtb" 2>>"$out/identity.log"; then
    log "$name: CPU build failed or timed out"; return
  fi
  if ! within 60 "$B/cgtb" build "$@" --backend cuda -q -o "$tmp/b.cgtb" 2>>"$out/identity.log"; then
    log "$name: CUDA build FAILED ($(tail -1 "$out/identity.log"))"
  elif cmp -s "$tmp/a.cgtb" "$tmp/b.cgtb"; then log "$name: identical ($(stat -c %s "$tmp/a.cgtb") bytes)"
  else log "$name: DIFFERENT"; fi
}
for board in 3x4 4x5 3x6 5x5 4x6 5x6; do ident "cram $board reachable" cram --board "$board"; done
for board in 4x5 5x5; do ident "cram $board all regions" cram --board "$board" --positions all; done
ident "cram 4x6 all regions, G and G-" cram --board 4x6 --positions all --values normal,misere
ident "cram 4x5 reachable, no symmetry" cram --board 4x5 --symmetry off
for spec in "domineering --board 5x5" "domineering --board 4x5 --positions all" "rit --box 10x10" "rit --box 16x3" \
            "cricket-pitch --length 8 --max-bump 4" "cricket-pitch --length 20 --max-bump 1" \
            "octal --code 0.07 --max-total 30" "octal --code 4.7 --max-total 16" \
            "scoring-sum --op selective --left 123:123 --right 3111:1234 --max 512" \
            "cram-components --max-cells 13"; do
  ident "$spec" $spec
done

log "== Benchmarks (--stats: positions, options, seconds per level; solve = kernel time)"
bench() {  # bench NAME ARGS...
  local name=$1; shift
  log "-- $name"
  within 150 $TIMEV "$B/cgtb" build "$@" --stats -q --force -o "$tmp/bench.cgtb" >"$out/bench-${name// /_}.log" 2>&1
  log "exit $?"
  grep -E "^ +solve|total wall|peak memory|file:|Maximum resident|Elapsed" "$out/bench-${name// /_}.log" | tee -a "$summary"
}
bench "cram 5x6 cuda" cram --board 5x6 --backend cuda
bench "cram 5x6 cpu" cram --board 5x6 --backend cpu
bench "cram 6x6 cuda" cram --board 6x6 --backend cuda
within 30 "$B/cgtb" query "$tmp/bench.cgtb" '....../....../....../....../....../......' | tee -a "$summary"
bench "domineering 5x6 cuda" domineering --board 5x6 --backend cuda
bench "domineering 6x6 cuda" domineering --board 6x6 --backend cuda
bench "cram 5x5 all regions cuda" cram --board 5x5 --positions all --backend cuda
bench "cram components 15 cuda" cram-components --max-cells 15 --backend cuda
bench "cram components 15 cpu" cram-components --max-cells 15 --backend cpu
rm -rf "$tmp"

log "== Scoring play (tests/gpu/scoring_gpu.sh)"
OUT="$out" within 120 bash tests/gpu/scoring_gpu.sh >"$out/scoring_gpu.log" 2>&1
log "scoring_gpu.sh exit $? (see scoring_gpu.log)"
log "== done in $SECONDS s"
