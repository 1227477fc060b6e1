#!/usr/bin/env bash
# Benchmarks that print numbers (never pass/fail on speed):
#   - the model: Steps per second, bytes per recorded state, seek time;
#   - the release page's transfer size: wasm, JS and CSS, gzip -9;
#   - Step click-to-DOM latency in headless Chromium with 10 000 trace entries.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh >/dev/null

echo "--- model (cargo run --release --example bench_model)"
cargo run --quiet --release --example bench_model

echo "--- page size (trunk build --release, gzip -9)"
trunk build --release >/dev/null 2>&1 || trunk build --release
total=0
for f in dist/*.wasm dist/*.js dist/*.css; do
  raw=$(stat -c %s "$f")
  gz=$(gzip -9c "$f" | wc -c)
  total=$((total + gz))
  printf '  %-8s %8d B raw %8d B gzip\n' "${f##*.}" "$raw" "$gz"
done
printf '  total    %8s       %8d B gzip (%.1f KB)\n' "" "$total" "$(awk -v b="$total" 'BEGIN { print b / 1024 }')"

echo "--- Step latency (Playwright, headless Chromium)"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory dist >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -fs -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
BASE_URL="http://127.0.0.1:$port/" node e2e/bench/latency.mjs

echo "--- run decoder fuzz (proptest: mutated, truncated and random run texts)"
cargo test --quiet --test run_format fuzz::fuzz_report -- --nocapture 2>&1 | grep -E "fuzz:|test result"
