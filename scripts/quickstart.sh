#!/usr/bin/env bash
# The main job on a fresh machine: install dependencies, build cgtb, build the
# default tablebase (Cram 4x5, all values) and query its empty board; then
# Cram 6x6 (reachable positions, one per symmetry class: a few minutes and
# 1 GB on 2 cores), whose misère value no earlier source gives.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCGTB_BUILD_TESTS=OFF -DCGTB_WERROR=OFF >/dev/null
cmake --build build -j"$(nproc)"   # cgtb, cgtb_bench and the Python module
./build/cgtb build cram --board 4x5 --values all --force -o cram-4x5.cgtb
./build/cgtb query cram-4x5.cgtb '...../...../...../.....'
./build/cgtb verify cram-4x5.cgtb   # every value re-derived, independently of the solver
if [ -d build/python/cgtb ]; then
  PYTHONPATH=build/python /usr/bin/python3 -c \
    "import cgtb; tb = cgtb.open('cram-4x5.cgtb'); print('python:', tb.query('...../...../...../.....'))"
fi
echo
echo "== Cram 6x6 (plan, build, query, census)"
./build/cgtb plan cram --board 6x6 | tail -3
./build/cgtb build cram --board 6x6 --force -o cram-6x6.cgtb
./build/cgtb query cram-6x6.cgtb '....../....../....../....../....../......'
./build/cgtb census cram-6x6.cgtb
