#!/usr/bin/env bash
# The explorer page of `cgtb serve` in a real browser: headless Debian
# Chromium (/usr/bin/chromium) driven by playwright-core (no browser of
# Playwright's own is downloaded). Builds two small tablebases with the given
# binary (Cram 3x4 with genus, Dawson's Kayles heap lists with every value and
# with normal play only), serves them on a
# free loopback port, runs explorer.test.mjs, and always stops the server.
#
#   bash tests/browser/run.sh build-test/cgtb
#
# CGTB_SCREENSHOTS=DIR also writes explorer-cram.png and explorer-octal.png
# there (the ones in docs/ were taken so). CHROMIUM overrides the browser.
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 CGTB_BINARY" >&2
  exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
cgtb="$(realpath "$1")"
[ -x "$cgtb" ] || { echo "[browser] not an executable: $1" >&2; exit 2; }
chromium="${CHROMIUM:-/usr/bin/chromium}"
[ -x "$chromium" ] || { echo "[browser] $chromium not found (Debian package chromium; scripts/install-deps.sh)" >&2; exit 2; }
if ! "$cgtb" serve --help >/dev/null 2>&1; then
  echo "[browser] $cgtb was built without the serve command (cpp-httplib): nothing to test" >&2
  exit 2
fi

tmp="$(mktemp -d)"
server=""
tester=""
cleanup() {
  if [ -n "$tester" ]; then
    kill "$tester" 2>/dev/null || true
    wait "$tester" 2>/dev/null || true
  fi
  if [ -n "$server" ]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap "exit 143" INT TERM  # so that cleanup runs then too

# playwright-core as package-lock.json pins it (node_modules is git-ignored);
# never a browser download.
(cd "$here" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --prefer-offline --no-audit --no-fund --loglevel=error)

"$cgtb" build cram --board 3x4 -q -o "$tmp/cram-3x4.cgtb"
"$cgtb" build octal --code 0.07 --max-total 12 -q -o "$tmp/octal-0.07.cgtb"
"$cgtb" build octal --code 0.07 --max-total 12 --values normal -q -o "$tmp/octal-0.07-normal.cgtb"

: >"$tmp/serve.err"  # before the server opens it: the loop below reads it at once
"$cgtb" serve "$tmp/cram-3x4.cgtb" "$tmp/octal-0.07.cgtb" "$tmp/octal-0.07-normal.cgtb" --port 0 2>"$tmp/serve.err" &
server=$!
port=""
for _ in $(seq 300); do
  port="$(sed -n 's|.* on http://127\.0\.0\.1:\([0-9][0-9]*\)/$|\1|p' "$tmp/serve.err")"
  [ -n "$port" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$tmp/serve.err" >&2; echo "[browser] cgtb serve exited" >&2; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { cat "$tmp/serve.err" >&2; echo "[browser] cgtb serve printed no port" >&2; exit 1; }

# In the background, so that a signal to this script is taken at once.
(cd "$here" && CGTB_URL="http://127.0.0.1:$port" CGTB_BINARY="$cgtb" CGTB_TABLES="$tmp" CHROMIUM="$chromium" \
  exec node --test --test-reporter=spec explorer.test.mjs) &
tester=$!
status=0
wait "$tester" || status=$?
tester=""
if ! kill -0 "$server" 2>/dev/null; then
  echo "[browser] cgtb serve died during the test:" >&2
  cat "$tmp/serve.err" >&2
  status=1
fi
exit "$status"
