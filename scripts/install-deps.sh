#!/usr/bin/env bash
# Installs what cgtb needs to build on Debian 12 (bookworm): compiler, CMake,
# zstd, xxHash, cxxopts, nlohmann-json, GoogleTest, Open MPI, and for the Python module
# pybind11, NumPy and pytest; for the explorer's browser test (tests/browser)
# Debian's Chromium, and Node.js with npm unless a node and an npm are already
# on PATH (a NodeSource nodejs brings its own npm, which Debian's npm package
# would conflict with). Thrust comes from the CUDA
# toolkit's CCCL headers when /usr/local/cuda exists, else from libthrust-dev.
# Further Debian packages a script needs may be named as arguments, e.g.
#   bash scripts/install-deps.sh clang libclang-rt-dev
set -euo pipefail
pkgs=(build-essential cmake pkg-config libzstd-dev libxxhash-dev libcxxopts-dev nlohmann-json3-dev libgtest-dev libcpp-httplib-dev
  pybind11-dev python3-dev python3-numpy python3-pytest python3-matplotlib chromium openmpi-bin libopenmpi-dev "$@")
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  pkgs+=(nodejs npm)
fi
if [ ! -f /usr/local/cuda/include/cccl/thrust/version.h ] && [ ! -f /usr/local/cuda/include/thrust/version.h ]; then
  pkgs+=(libthrust-dev)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "[cgtb] installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
