#!/usr/bin/env bash
# GPU checks of scoring play (issue 3), run on a machine with an NVIDIA GPU
# from the repository root: CUDA and CPU backends give identical scoring
# tablebases and identical conjecture-checker answers; prints the GPU figures
# for docs/performance.md ("## Scoring play").
set -euo pipefail
# Uses the bundle of tests/gpu/prepare.sh when it is there, else builds.
if [ -x .gpu-bundle/cgtb ]; then
  export LD_LIBRARY_PATH="$PWD/.gpu-bundle/lib:${LD_LIBRARY_PATH:-}"
  CGTB=.gpu-bundle/cgtb
else
  BUILD=${BUILD:-build-gpu}
  cmake -S . -B "$BUILD" -DCGTB_ENABLE_CUDA=ON -DCGTB_BUILD_TESTS=OFF -DCGTB_WERROR=ON >/dev/null
  cmake --build "$BUILD" -j"$(nproc)" --target cgtb >/dev/null
  CGTB="$BUILD/cgtb"
fi
OUT=${OUT:-$(mktemp -d)}
nvidia-smi --query-gpu=name --format=csv,noheader

# 1. Two-heap tables, N = 4096, every operator: same bytes on both backends.
for op in disjunctive conjunctive selective sequential; do
  for be in cpu cuda; do
    TIMEFORMAT="$op $be: %R s"
    time "$CGTB" build scoring-sum --op "$op" --left 123:123 --right 3111:1234 \
      --max 4096 --backend "$be" -q --force -o "$OUT/$op-$be.cgtb"
  done
  cmp "$OUT/$op-cpu.cgtb" "$OUT/$op-cuda.cgtb" && echo "$op: identical files"
done
"$CGTB" build scoring-octal --code 26 --points 12 --max 40 --backend cpu -q --force -o "$OUT/o26-cpu.cgtb"
"$CGTB" build scoring-octal --code 26 --points 12 --max 40 --backend cuda -q --force -o "$OUT/o26-cuda.cgtb"
cmp "$OUT/o26-cpu.cgtb" "$OUT/o26-cuda.cgtb" && echo "multisets (26,12) T=40: identical files"

# 2. Conjecture checker: same table (timings aside) on both backends.
strip_times() { awk 'NF == 9 && $1 ~ /^[0-9]+$/ { $8 = ""; $9 = "" } /^total:/ { next } { print }' | sed 's/backend [a-z]*//'; }
diff <("$CGTB" conjectures subtraction -k 18 --backend cpu | strip_times) \
     <("$CGTB" conjectures subtraction -k 18 --backend cuda | strip_times) && echo "subtraction k<=18: same answers"
diff <("$CGTB" conjectures codes -k 7 --backend cpu | grep -v '^time') \
     <("$CGTB" conjectures codes -k 7 --backend cuda | grep -v '^time' ) | grep -v backend || true
diff <("$CGTB" conjectures selective -k 8 --backend cpu | grep -v '^rows') \
     <("$CGTB" conjectures selective -k 8 --backend cuda | grep -v '^rows') | grep -v backend || true

# 3. GPU figures: subtraction sets up to k = 24 (and beyond), codes of length 12.
# (the largest last: k = 25..28 is about 30 times the work of k <= 24, and
# run.sh's timeout may end it)
unset TIMEFORMAT
time "$CGTB" conjectures subtraction -k 24 --bound 4000 --backend cuda
time "$CGTB" conjectures codes -k 12 --bound 4000 --backend cuda
time "$CGTB" conjectures subtraction -k 28 --from 25 --bound 4000 --backend cuda
