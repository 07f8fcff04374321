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
cmake --build build-gpu -j"$(nproc)" --target cgtb cgtb_gpu_tests
rm -rf .gpu-bundle && mkdir -p .gpu-bundle/lib
cp build-gpu/cgtb build-gpu/tests/cgtb_gpu_tests .gpu-bundle/
strip .gpu-bundle/cgtb .gpu-bundle/cgtb_gpu_tests  # symbols only: the device code stays
# Every shared library the binaries load except glibc's own and the driver's
# (the GPU machine's glibc is at least as new; its driver is its own).
ldd .gpu-bundle/cgtb .gpu-bundle/cgtb_gpu_tests | awk '/=> \// {print $3}' | sort -u |
  grep -vE '/(libc|libm|libdl|librt|libpthread|ld-linux[^/]*|libcuda|libnvidia[^/]*)\.so' | while read -r so; do
  cp -L "$so" .gpu-bundle/lib/
done
size=$(du -sm .gpu-bundle | cut -f1)
ls -la .gpu-bundle .gpu-bundle/lib
[ "$size" -le 60 ] || { echo "prepare.sh: .gpu-bundle is $size MiB; at most 60 can be carried" >&2; exit 1; }
echo "bundle ready ($size MiB): carry .gpu-bundle and run: bash tests/gpu/run.sh \$OUT"
