#!/usr/bin/env bash
# Benchmarks that print numbers (never pass/fail on speed):
#   - the model: Steps per second, bytes per recorded state, seek time;
#   - the release page's transfer size: wasm, JS and CSS, gzip -9, beside a
#     minimal Leptos counter built in the same run with the same profile;
#   - Step click-to-DOM latency in headless Chromium with 10 000 trace entries,
#     and with 3 300 tasks in one context;
#   - the time to open runs of 5 000 and 20 000 trace entries from a link.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh >/dev/null

echo "--- model (cargo run --release --example bench_model)"
cargo run --quiet --release --example bench_model

echo "--- page size (trunk build --release, gzip -9), beside a minimal Leptos counter"
# Sums wasm + JS + CSS of a dist folder, gzip -9; prints one line per file.
page_size() {
  local dir=$1 total=0 raw gz f
  for f in "$dir"/*.wasm "$dir"/*.js "$dir"/*.css; do
    [ -e "$f" ] || continue
    raw=$(stat -c %s "$f")
    gz=$(gzip -9c "$f" | wc -c)
    total=$((total + gz))
    printf '    %-5s %8d B raw %8d B gzip\n' "${f##*.}" "$raw" "$gz" >&2
  done
  echo "$total"
}
kb() { awk -v b="$1" 'BEGIN { printf "%.1f KB", b / 1024 }'; }

trunk build --release >/dev/null 2>&1 || trunk build --release
echo "  control room:"
page=$(page_size dist)
# The yardstick: bench/counter, the smallest Leptos CSR app, built in this run
# with the same pinned versions (this Cargo.lock), profile, wasm-bindgen and wasm-opt.
# It is built as Leptos ships it: without the page's `--cfg erase_components`
# (.cargo/config.toml), which makes the counter 4 KB bigger and would flatter the ratio.
cp Cargo.lock bench/counter/Cargo.lock
(cd bench/counter && export RUSTFLAGS="" CARGO_TARGET_DIR="$PWD/../../target/counter" &&
  { trunk build --release >/dev/null 2>&1 || trunk build --release; })
echo "  minimal Leptos counter (bench/counter):"
counter=$(page_size bench/counter/dist)
printf '  control room %s gzip; counter %s gzip; ratio %s (goal: within 3x, i.e. %s; see docs/size.md)\n' \
  "$(kb "$page")" "$(kb "$counter")" "$(awk -v a="$page" -v b="$counter" 'BEGIN { printf "%.2fx", a / b }')" \
  "$(kb $((counter * 3)))"

echo "--- Step latency (Playwright, headless Chromium)"
source scripts/static-server.sh
trap 'kill "${servers[@]}" 2>/dev/null || true' EXIT
serve dist
BASE_URL="http://127.0.0.1:$port/" node e2e/bench/latency.mjs

echo "--- opening a long run from a link (Playwright, headless Chromium)"
BASE_URL="http://127.0.0.1:$port/" node e2e/bench/open-run.mjs

echo "--- run decoder fuzz (proptest: mutated, truncated and random run texts)"
cargo test --quiet --test run_format fuzz::fuzz_report -- --ignored --nocapture 2>&1 | grep -E "fuzz:|test result"
