#!/usr/bin/env bash
# Build the abi3 wheel, install it into a fresh virtual environment outside the checkout, and run
# the tool from another directory, as a user would: blueprints list, info, validate, compile,
# lint, simulate, translate, sweep --dry-run. Fails loudly (the command, its output, exit 1) on
# the first command that exits non-zero or prints something other than what it must.
#   bash scripts/smoke_wheel.sh            # needs maturin (the dev extra) and a Rust toolchain
# SMOKE_DIR=DIR keeps the wheel, venv and outputs in DIR (default: a temporary folder, removed).
set -euo pipefail
CHECKOUT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-python3}
WORK=${SMOKE_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/infragraph-smoke.XXXXXX")}
[ -n "${SMOKE_DIR:-}" ] || trap 'rm -rf "$WORK"' EXIT
case "$WORK/" in "$CHECKOUT"/*) echo "smoke: SMOKE_DIR must be outside the checkout" >&2; exit 1;; esac
mkdir -p "$WORK"

fail() { echo "smoke: FAILED: $*" >&2; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

t=$(now)
rm -rf "$WORK/dist"
(cd "$CHECKOUT" && "$PY" -m maturin build --release --quiet --out "$WORK/dist") \
    >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; fail "maturin build"; }
wheels=("$WORK"/dist/*.whl)
[ ${#wheels[@]} -eq 1 ] || fail "expected one wheel in $WORK/dist, found ${#wheels[@]}"
WHEEL=${wheels[0]}
case "$(basename "$WHEEL")" in *-abi3-*) ;; *) fail "not an abi3 wheel: $(basename "$WHEEL")";; esac
echo "smoke: built $(basename "$WHEEL") in $(since "$t") s"

t=$(now)
rm -rf "$WORK/venv"
"$PY" -m venv "$WORK/venv"
"$WORK/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$WHEEL" \
    || fail "pip install $(basename "$WHEEL")"
echo "smoke: installed into a fresh venv in $(since "$t") s"

RUN="$WORK/run"
rm -rf "$RUN" && mkdir -p "$RUN" && cd "$RUN"
BIN="$WORK/venv/bin"
# Inputs a user would have: copies, so nothing is read from the checkout.
cp "$CHECKOUT/examples/fabric.yaml" "$CHECKOUT/examples/sweeps/collective_scaling.yaml" "$RUN/"

where=$("$BIN/python" -c 'import infragraph, infragraph._simengine; print(infragraph.__file__)')
case "$where" in "$WORK/venv/"*) ;; *) fail "infragraph imported from $where, not from the new venv";; esac

run() {  # run NAME EXPECTED-TEXT COMMAND...: exit 0 and EXPECTED-TEXT in its output
    local name=$1 expect=$2 out rc
    shift 2
    set +e
    out=$("$@" 2>&1)
    rc=$?
    set -e
    if [ $rc -ne 0 ] || ! grep -qF -- "$expect" <<<"$out"; then
        echo "== $*" >&2
        echo "$out" >&2
        fail "$name (exit $rc; expected output containing '$expect')"
    fi
    echo "smoke: ok  $name"
}

shopt -s globstar nullglob
expected=("$CHECKOUT"/blueprints/**/*.igl)
run "blueprints list" "std.fabrics.clos" "$BIN/infragraph" blueprints list
listed=$("$BIN/infragraph" blueprints list | wc -l)
[ "$listed" -eq ${#expected[@]} ] || fail "blueprints list shows $listed blueprints, the checkout has ${#expected[@]}"
run "info" "nodes by type" "$BIN/infragraph" info std.fabrics.clos -D radix=8
run "validate" "fabric.yaml: valid" "$BIN/infragraph" validate fabric.yaml
run "compile" "g.json:" "$BIN/infragraph" compile std.fabrics.clos -D radix=8 -o g.json
run "compile output reads back" "300 nodes" "$BIN/infragraph" info g.json
run "lint" "0 error(s), 0 warning(s)" "$BIN/infragraph" lint std.fabrics.clos -D radix=8
"$BIN/infragraph" lint std.fabrics.clos -D radix=8 --format sarif >lint.sarif || fail "lint --format sarif"
"$BIN/python" - lint.sarif <<'PY' || fail "the SARIF rules carry no help text (docs/lint.md not shipped?)"
import json, sys
rules = json.load(open(sys.argv[1]))["runs"][0]["tool"]["driver"]["rules"]
assert rules and all(len(r["help"]["text"]) > 40 for r in rules), [r["id"] for r in rules]
PY
echo "smoke: ok  lint --format sarif (rule help from the shipped docs)"
run "simulate" "engine" "$BIN/infragraph" simulate std.fabrics.ring --collective all-reduce --size 1MiB
run "synthesize" "synthesized all-reduce" "$BIN/infragraph" synthesize std.fabrics.ring --collective all-reduce --model none -o synth.json
run "translate" "astra-analytical" "$BIN/infragraph" translate std.fabrics.ring --to astra-analytical -o bundle --size 1MiB
[ -x bundle/run.sh ] || fail "translate wrote no executable bundle/run.sh"
run "sweep --dry-run" "220 points" "$BIN/infragraph" sweep collective_scaling.yaml --dry-run -o scaling
echo "smoke: the installed wheel works from $RUN"
