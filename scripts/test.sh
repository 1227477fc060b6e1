#!/usr/bin/env bash
# Full check, failing fast: format, lints, native tests, browser (wasm) tests,
# release build + end-to-end tests at / and under a GitHub Pages-like subpath,
# and the A2A conformance check. Ends with "N passed, 0 failed".
# PROPTEST_CASES (and any other test env) is passed through.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/static-server.sh
passed=0 current="" tmpdirs=()

finish() {
  local rc=$?
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
  for dir in "${tmpdirs[@]}"; do rm -rf "$dir"; done
  if [[ -n $current ]]; then
    echo "=== FAILED: $current"
    echo
    echo "$passed passed, 1 failed"
  fi
  exit "$rc"
}
trap finish EXIT

secs() { awk -v ms="$1" 'BEGIN { printf "%.1fs", ms / 1000 }'; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# stage NAME CMD...: run one stage with a header and its duration.
stage() {
  current=$1
  shift
  echo
  echo "=== $current"
  local t0
  t0=$(now_ms)
  "$@"
  echo "=== $current: ok in $(secs $(($(now_ms) - t0)))"
  passed=$((passed + 1))
  current=""
}

# A clean clone reuses nothing, so incremental caches would only take disk.
[[ ${CI:-} == true ]] && export CARGO_INCREMENTAL=0

# A clean clone's whole run takes about 3 GB of disk (measured: target/ 2.6 GB, plus
# npm packages and the conformance venv); say so up front, with some margin, rather
# than failing half-way with "No space left on device".
NEED_GB=4
free_kb=$(df -Pk . | awk 'NR == 2 { print $4 }')
echo "disk: $((free_kb / 1024 / 1024)) GB free here; a clean run needs about $NEED_GB GB"
if ((free_kb < NEED_GB * 1024 * 1024)); then
  echo "disk: warning: less than $NEED_GB GB free, the build may stop with 'No space left on device'" >&2
fi

current="setup"
t0=$(now_ms)
source scripts/setup.sh test
echo "setup done in $(secs $(($(now_ms) - t0)))"
current=""

# Browser (wasm-bindgen-test) settings: headless Chromium through Debian's chromedriver.
export CHROMEDRIVER=/usr/bin/chromedriver
export WASM_BINDGEN_USE_BROWSER=1
export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-60}

e2e() { BASE_URL=$1 node --test --test-reporter=tap e2e/*.test.mjs; }

e2e_root() {
  trunk build --release
  serve dist
  e2e "http://127.0.0.1:$port/"
}

# GitHub Pages serves the app at /<repo>/: build with that public URL and serve it there.
e2e_subpath() {
  trunk build --release --public-url /a2a-control-room/ --dist dist-subpath
  local root
  root=$(mktemp -d)
  tmpdirs+=("$root")
  ln -s "$PWD/dist-subpath" "$root/a2a-control-room"
  serve "$root"
  e2e "http://127.0.0.1:$port/a2a-control-room/"
}

# ChromeDriver leaves each Chromium profile behind in $TMPDIR: give it a folder of
# its own, removed on exit.
wasm_tests() {
  local tmp
  tmp=$(mktemp -d)
  tmpdirs+=("$tmp")
  TMPDIR=$tmp cargo test --target wasm32-unknown-unknown
}

conformance() { bash scripts/conformance.sh; }

stage "fmt" cargo fmt --check
stage "clippy (native)" cargo clippy --all-targets -- -D warnings
stage "clippy (wasm32)" cargo clippy --target wasm32-unknown-unknown --all-targets -- -D warnings
stage "test (native)" cargo test
stage "test (wasm32, headless Chromium)" wasm_tests
stage "e2e (release build at /)" e2e_root
stage "e2e (release build at /a2a-control-room/)" e2e_subpath
stage "conformance (a2a-sdk)" conformance
stage "benchmarks (numbers only)" bash scripts/bench.sh

echo
echo "$passed passed, 0 failed"
