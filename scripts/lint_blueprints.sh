#!/usr/bin/env bash
# Lint every blueprint at its defaults and at a few parameter points; fail on any error or warning.
# Used by CI (see examples/ci/infragraph-lint.yml for a user's repository).
#   scripts/lint_blueprints.sh            # from the repository root
set -u
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
status=0

lint() {  # lint FILE [-D NAME=VALUE ...]: print the report, fail unless it has no error and no warning
    local out
    out=$("$PY" -m infragraph lint "$@" 2>&1)
    local rc=$?
    echo "== infragraph lint $*"
    echo "$out"
    if [ $rc -ne 0 ] || ! grep -q '^0 error(s), 0 warning(s)' <<<"$out"; then
        echo "FAILED (exit $rc): $*"
        status=1
    fi
}

shopt -s globstar nullglob
files=(blueprints/**/*.igl)
if [ ${#files[@]} -eq 0 ]; then
    echo "no blueprints to lint"
    exit 0
fi
for f in "${files[@]}"; do
    lint "$f"
done

# Parameter points: FILE then its -D overrides. A point whose file is absent is skipped (the
# blueprint library is still growing); an unknown parameter fails, so keep these in step.
points=(
    "blueprints/devices/switch.igl -D ports=8"
    "blueprints/devices/switch.igl -D ports=128 -D port_speed=800Gbps"
    "blueprints/devices/dgx.igl -D gpus=16 -D nvswitches=6"
    "blueprints/devices/host.igl -D gpus=4 -D nics=4"
    "blueprints/fabrics/stack.igl -D shape=\"RI(4)_SW(2)\""
    "blueprints/fabrics/stack.igl -D shape=\"FC(4)_FC(2)_FC(2)\""
)
for p in "${points[@]}"; do
    eval "set -- $p"
    [ -f "$1" ] || { echo "== skipped (no $1)"; continue; }
    lint "$@"
done
exit $status
