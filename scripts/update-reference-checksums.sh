#!/usr/bin/env bash
# Rewrites tests/data/reference.sha256: the SHA-256 of `cgtb export` (CSV) of
# every table listed in tests/data/reference-tables.txt, built with the cgtb
# of BUILD_DIR (default build). Run it only when a change of computed values
# is intended, and say why in docs/format.md's changelog.
#   bash scripts/update-reference-checksums.sh [BUILD_DIR]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cgtb="$(cd "${1:-$root/build}" && pwd)/cgtb"
[ -x "$cgtb" ] || { echo "no cgtb binary at $cgtb (build first)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
out="$work/reference.sha256"
while read -r name args; do
  case "$name" in ''|'#'*) continue ;; esac
  # shellcheck disable=SC2086
  "$cgtb" build $args -q -o "$work/$name.cgtb"
  "$cgtb" verify -q "$work/$name.cgtb" >/dev/null
  hash="$("$cgtb" export "$work/$name.cgtb" | sha256sum | cut -d' ' -f1)"
  echo "$hash  $name" >>"$out"
done <"$root/tests/data/reference-tables.txt"
mv "$out" "$root/tests/data/reference.sha256"
echo "wrote tests/data/reference.sha256 ($(wc -l <"$root/tests/data/reference.sha256") tables)"
