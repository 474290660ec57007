#!/usr/bin/env bash
# Set up everything a fresh machine needs, in one go:
#  - system packages: Graphviz (static pictures) and Chromium + ChromeDriver (the visualizer's
#    real-browser test), from the distribution's packages;
#  - the public infragraph package, in a separate venv, for the compatibility tests;
#  - the Python package in development mode with its dependencies and dev tools, which also
#    compiles the Rust engine (simengine/) into infragraph._simengine through maturin.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v dot >/dev/null 2>&1 || missing+=(graphviz)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "setup: installing system packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: Rust (cargo) is required to build the simulation engine; install it with rustup" >&2
  exit 1
fi

# The public `infragraph` package (the format's reference implementation) in its own environment:
# the compatibility tests exchange documents with it, and it cannot share ours (same import name).
if [ ! -x .venv-public-infragraph/bin/python ]; then
  echo "setup: installing the public infragraph package for the compatibility tests"
  python3 -m venv .venv-public-infragraph
  .venv-public-infragraph/bin/pip install --quiet --disable-pip-version-check infragraph==3.1.0
fi

echo "setup: installing infragraph (development mode) and building the Rust engine"
python3 -m pip install --quiet --disable-pip-version-check -e '.[dev]'
python3 -c "import infragraph._simengine" && echo "setup: done"
