#!/usr/bin/env bash
# `npm test`: installs the system packages the suites need (as root, when missing), builds,
# type-checks, checks format, layer rules and lint, then runs unit + integration (vitest) and
# end-to-end (Playwright + Debian Chromium) inside a D-Bus session with an unlocked gnome-keyring, and ends with one line "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."

need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v dbus-run-session >/dev/null 2>&1 || need+=(dbus)
command -v gnome-keyring-daemon >/dev/null 2>&1 || need+=(gnome-keyring)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "missing system packages: ${need[*]} — install them (apt-get install -y ${need[*]}) or run npm test as root" >&2
    exit 1
  fi
  echo "installing system packages: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null || { echo "apt-get install failed" >&2; exit 1; }
fi

echo "building renderer and electron bundles…"
npx tsx scripts/build.ts || { echo "0 passed, 1 failed"; exit 1; }

results="$(mktemp -d)"
# The static checks run in two lanes at once (type checks | format, layer rules, lint): each is mostly one CPU-bound
# process, and they share nothing but the sources they read. Their findings are printed after both lanes end.
echo "type-checking, checking format, layer rules and lint…"
(
  if npx tsc --noEmit -p tsconfig.json >"$results/tsc.log" 2>&1 &&
    npx svelte-check --tsconfig renderer/tsconfig.json --fail-on-warnings --output machine >"$results/svelte-check.log" 2>&1; then
    echo 0 > "$results/typecheck.rc"
  else
    echo 1 > "$results/typecheck.rc"
  fi
) &
typecheck_lane=$!
(
  if npx prettier --check . >"$results/format.log" 2>&1; then echo 0 > "$results/format.rc"; else echo 1 > "$results/format.rc"; fi
  if npm run -s lint:layers >"$results/layers.log" 2>&1; then echo 0 > "$results/layers.rc"; else echo 1 > "$results/layers.rc"; fi
  if npm run -s lint >"$results/lint.log" 2>&1; then echo 0 > "$results/lint.rc"; else echo 1 > "$results/lint.rc"; fi
) &
wait $typecheck_lane $!
if [ "$(cat "$results/typecheck.rc")" != 0 ]; then
  tail -20 "$results/tsc.log"
  tail -20 "$results/svelte-check.log" 2>/dev/null
fi
[ "$(cat "$results/format.rc")" = 0 ] || grep -v "^Checking" "$results/format.log" | tail -20
[ "$(cat "$results/layers.rc")" = 0 ] || tail -30 "$results/layers.log"
[ "$(cat "$results/lint.rc")" = 0 ] || tail -40 "$results/lint.log"
export TEST_RESULTS_DIR="$results"
# The test keyring lives in this run's own directory: gnome-keyring keeps keyrings under $XDG_DATA_HOME/keyrings,
# and two runs sharing one login keyring (other checkouts' test runs on the same machine) lock each other out
# ("unlock prompt was dismissed", "Object does not exist").
export XDG_DATA_HOME="$results/xdg-data"
mkdir -p "$XDG_DATA_HOME"
dbus-run-session -- bash -c '
  echo -n test | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
  npx vitest run --reporter=default --reporter=json --outputFile.json="$TEST_RESULTS_DIR/vitest.json"
  echo $? > "$TEST_RESULTS_DIR/vitest.rc"
  PLAYWRIGHT_JSON_OUTPUT_NAME="$TEST_RESULTS_DIR/playwright.json" npx playwright test --reporter=list,json
  echo $? > "$TEST_RESULTS_DIR/playwright.rc"
' 2> >(grep -v "Failed to set fd limit" >&2)

npx tsx scripts/test-summary.ts "$results"
