#!/usr/bin/env bash
# Builds cgtb with warnings as errors and runs the whole test suite (CPU).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Release -DCGTB_WERROR=ON -DCGTB_BUILD_TESTS=ON
cmake --build build-test -j"$(nproc)"
cd build-test
ctest -L cpu --output-on-failure -j"$(nproc)"
