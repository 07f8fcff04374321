#!/usr/bin/env bash
# Run HERE (a machine with nvcc, no GPU needed): builds the CUDA backend and
# the tests, and bundles the binaries with the shared libraries the GPU machine
# may lack into .gpu-bundle/ (git-ignored), ready to be carried there.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/install-deps.sh
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCGTB_ENABLE_CUDA=ON -DCGTB_BUILD_TESTS=ON -DCGTB_WERROR=ON |
  tee /tmp/cgtb-gpu-configure.log |
  grep "cgtb: CUDA backend"
grep -q "cgtb: CUDA backend ON" /tmp/cgtb-gpu-configure.log || { echo "prepare.sh: nvcc not found, no CUDA backend" >&2; exit 1; }
cmake --build build-gpu -j"$(nproc)" --target cgtb cgtb_tests cgtb_gpu_tests cgtb_bench
rm -rf .gpu-bundle && mkdir -p .gpu-bundle/lib
cp build-gpu/cgtb build-gpu/cgtb_bench build-gpu/tests/cgtb_tests build-gpu/tests/cgtb_gpu_tests .gpu-bundle/
for bin in .gpu-bundle/cgtb .gpu-bundle/cgtb_gpu_tests; do
  ldd "$bin" | awk '/=> \// {print $3}' | grep -E 'libzstd|libxxhash|libgomp|libstdc\+\+|libgcc_s' | while read -r so; do
    cp -L "$so" .gpu-bundle/lib/
  done
done
ls -la .gpu-bundle .gpu-bundle/lib
echo "bundle ready: carry .gpu-bundle and run: bash tests/gpu/run.sh \$OUT"
