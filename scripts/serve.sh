#!/usr/bin/env bash
# Build the release app and serve it at http://127.0.0.1:8080/ (PORT=... to change),
# rebuilding on file changes. Extra arguments go to `trunk serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
exec trunk serve --release --address 127.0.0.1 --port "${PORT:-8080}" "$@"
