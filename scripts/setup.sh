#!/usr/bin/env bash
# Idempotent tool installer. Each step is skipped quickly when already satisfied.
#   scripts/setup.sh        build/serve tools: wasm32 target, clippy, rustfmt, trunk,
#                           wasm-bindgen-cli, npm packages (wasm-opt from binaryen)
#   scripts/setup.sh test   also Chromium + ChromeDriver and the conformance venv
#   scripts/setup.sh conformance   only the conformance venv
# May be sourced (`source scripts/setup.sh test`) so that the PATH below carries over.
# Nothing is downloaded from GitHub: only crates.io, npm, PyPI and Debian's apt.

# Sourced from an interactive shell: the installs run in a child shell, so that neither
# `set -e` nor a failed install ends the user's session; only the PATH carries over.
if [[ ${BASH_SOURCE[0]} != "$0" && $- == *i* ]]; then
  bash "${BASH_SOURCE[0]}" "$@" &&
    export PATH="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/node_modules/.bin:$HOME/.cargo/bin:$PATH" \
      TRUNK_SKIP_VERSION_CHECK=true
  return
fi

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TRUNK_VERSION=0.21.14

# node_modules/.bin first: its wasm-opt is binaryen 132 (Debian's binaryen breaks the build).
export PATH="$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true

# step NAME CHECK_CMD INSTALL_CMD: run INSTALL_CMD (timed) only when CHECK_CMD fails.
step() {
  local name=$1 check=$2 install=$3 t0=$SECONDS
  if eval "$check" >/dev/null 2>&1; then
    echo "setup: $name: present"
  else
    echo "setup: $name: installing…"
    eval "$install"
    echo "setup: $name: installed in $((SECONDS - t0))s"
  fi
}

# Version of a package as recorded in Cargo.lock.
lock_version() {
  awk -v n="$1" '$0 == "name = \"" n "\"" { getline; gsub(/version = |"/, ""); print; exit }' \
    "$ROOT/Cargo.lock"
}

# Conformance oracle: the official A2A Python SDK and everything it imports, pinned in
# conformance/requirements.txt; installed again whenever that file changes.
setup_venv() {
  local venv="$ROOT/.venv-conformance" req="$ROOT/conformance/requirements.txt"
  # Debian splits venv's pip bootstrap into its own package.
  step "python3 venv (Debian)" \
    "[[ -x '$venv/bin/pip' ]] || python3 -c 'import ensurepip, venv'" \
    "apt-get update -qq && apt-get install -y -qq python3-venv"
  step "python venv .venv-conformance" \
    "cmp -s '$req' '$venv/.requirements-installed'" \
    "python3 -m venv '$venv' && '$venv/bin/pip' install -q -r '$req' && cp '$req' '$venv/.requirements-installed'"
}

setup_main() {
  local mode=${1:-build}
  [[ $mode != conformance ]] || { setup_venv; return 0; }

  # The compiler pinned in rust-toolchain.toml (from the Rust dist server, not GitHub).
  local rust
  rust=$(sed -n 's/^channel = "\(.*\)"$/\1/p' "$ROOT/rust-toolchain.toml")
  step "rust $rust (rust-toolchain.toml)" \
    "rustup toolchain list | grep -q '^$rust-'" \
    "rustup toolchain install '$rust' --profile minimal -c clippy -c rustfmt -t wasm32-unknown-unknown"
  step "rust target wasm32-unknown-unknown" \
    "rustup target list --installed | grep -qx wasm32-unknown-unknown" \
    "rustup target add wasm32-unknown-unknown"
  step "rust components clippy, rustfmt" \
    "rustup component list --installed | grep -q '^clippy' && rustup component list --installed | grep -q '^rustfmt'" \
    "rustup component add clippy rustfmt"

  step "trunk $TRUNK_VERSION" \
    "trunk --version | grep -qx 'trunk $TRUNK_VERSION'" \
    "cargo install --locked trunk --version $TRUNK_VERSION"

  # wasm-bindgen-cli must match the wasm-bindgen crate exactly. No --locked: its own
  # lockfile pins a crate version the registry no longer serves.
  local wb
  wb=$(lock_version wasm-bindgen)
  [[ -n $wb ]] || { echo "setup: wasm-bindgen not found in Cargo.lock" >&2; return 1; }
  if ! grep -q "wasm_bindgen = \"$wb\"" "$ROOT/Trunk.toml"; then
    echo "setup: Trunk.toml [tools] wasm_bindgen must be \"$wb\" (as in Cargo.lock)" >&2
    return 1
  fi
  step "wasm-bindgen-cli $wb" \
    "wasm-bindgen --version | grep -qx 'wasm-bindgen $wb' && wasm-bindgen-test-runner --version | grep -q '$wb'" \
    "cargo install wasm-bindgen-cli --version $wb"

  # npm ci again whenever package-lock.json is newer than the last install.
  local stamp="$ROOT/node_modules/.setup-stamp"
  step "npm packages (binaryen, playwright-core, axe-core)" \
    "[[ -f '$stamp' && ! '$ROOT/package-lock.json' -nt '$stamp' ]]" \
    "(cd '$ROOT' && npm ci --no-audit --no-fund) && touch '$stamp'"

  [[ $mode == test ]] || return 0

  step "chromium + chromedriver (Debian)" \
    "[[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]]" \
    "apt-get update -qq && apt-get install -y -qq chromium chromium-driver"

  setup_venv
}

setup_main "$@"
