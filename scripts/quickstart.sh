#!/usr/bin/env bash
# The main job on a fresh machine: install dependencies, build cgtb, build the
# default tablebase (Cram 4x5, all values) and query its empty board.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCGTB_BUILD_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" --target cgtb
./build/cgtb build cram --board 4x5 --values all -o cram-4x5.cgtb
./build/cgtb query cram-4x5.cgtb '...../...../...../.....'
