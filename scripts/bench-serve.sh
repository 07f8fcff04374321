#!/usr/bin/env bash
# The /api/query throughput of `cgtb serve` on a warm Cram 5x5 table, measured
# with wrk (docs/performance.md, "The web explorer"):
#
#   bash scripts/bench-serve.sh [CGTB] [CONNECTIONS] [SECONDS]
#
# (defaults: build/cgtb, 16 connections, 10 s). wrk is a benchmark tool, not
# something cgtb needs: apt-get install wrk. On a small machine wrk and the
# server share the cores, so the figure is a lower bound.
set -euo pipefail
cgtb="$(realpath "${1:-build/cgtb}")"
conns="${2:-16}"
secs="${3:-10}"
command -v wrk >/dev/null || { echo "[bench] needs wrk: apt-get install wrk" >&2; exit 2; }
"$cgtb" serve --help >/dev/null 2>&1 || { echo "[bench] $cgtb has no serve command" >&2; exit 2; }

tmp="$(mktemp -d)"
server=""
cleanup() {
  if [ -n "$server" ]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap "exit 143" INT TERM

"$cgtb" build cram --board 5x5 -q -o "$tmp/cram-5x5.cgtb"
: >"$tmp/serve.err"  # before the server opens it: the loop below reads it at once
"$cgtb" serve "$tmp/cram-5x5.cgtb" --port 0 2>"$tmp/serve.err" &
server=$!
port=""
for _ in $(seq 300); do
  port="$(sed -n 's|.* on http://127\.0\.0\.1:\([0-9][0-9]*\)/$|\1|p' "$tmp/serve.err")"
  [ -n "$port" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$tmp/serve.err" >&2; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { echo "[bench] cgtb serve printed no port" >&2; exit 1; }

# The empty board: its answer looks up all 40 options for the winning moves.
url="http://127.0.0.1:$port/api/query?tb=cram-5x5.cgtb&pos=...../...../...../...../....."
threads=2
echo "[bench] $(nproc) cores, $(uname -m), $(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo), $(date -u +%F)"
wrk -t"$threads" -c"$conns" -d2s "$url" >/dev/null  # warm-up: the blocks are cached
echo "[bench] wrk -t$threads -c$conns -d${secs}s --latency '$url'"
out="$(wrk -t"$threads" -c"$conns" -d"${secs}s" --latency "$url")"
echo "$out"
if grep -q "Non-2xx" <<<"$out"; then
  echo "[bench] some answers were not 200" >&2
  exit 1
fi
