# `cmake --install` into a temporary prefix, then the installed files alone: the binary
# runs the installed demo scenario from another directory, the installed plotting tool
# reads that run through the installed Python package (not the checkout's python/), and
# the man page, bash completion, example scenarios and docs are in place.
source "$(dirname "$0")/common.sh"
prefix="$TMP/prefix"
cmake --install "$FASTSIM_BUILD_DIR" --prefix "$prefix" >"$TMP/install.log" || {
  cat "$TMP/install.log" >&2
  fail "cmake --install failed"
}
for f in bin/fastsim bin/fastsim-plot-run bin/fastsim-plot-sweep share/man/man1/fastsim.1.gz \
  share/bash-completion/completions/fastsim share/fastsim/configs/demo.json share/doc/fastsim/README.md \
  share/doc/fastsim/scenario-format.md share/doc/fastsim/extending.md \
  lib/python3/dist-packages/fastsim_results/__init__.py; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
for f in bin/fastsim bin/fastsim-plot-run bin/fastsim-plot-sweep; do
  [ -x "$prefix/$f" ] || fail "not executable: $f"
done
gzip -dc "$prefix/share/man/man1/fastsim.1.gz" | cmp -s - "$FASTSIM_BUILD_DIR/packaging/fastsim.1" ||
  fail "installed man page differs from the generated one"

# Away from the checkout: nothing may resolve through the source tree.
mkdir "$TMP/work" && cd "$TMP/work"
[[ "$("$prefix/bin/fastsim" --version)" == "fastsim "[0-9]* ]] || fail "installed fastsim --version"
"$prefix/bin/fastsim" run "$prefix/share/fastsim/configs/demo.json" --out demo --quiet || fail "installed fastsim run"
[ -s demo/summary.json ] && [ -s demo/flows/a.csv ] || fail "the installed run wrote no summary.json / flows/a.csv"

# The tools start with `#!/usr/bin/env python3` and re-run under $FASTSIM_PYTHON when the
# first python3 in PATH lacks pandas.
[ -n "${FASTSIM_PYTHON:-}" ] || fail "no python3 with pandas and matplotlib (FASTSIM_PYTHON; tools/setup)"
pkg="$prefix/lib/python3/dist-packages/fastsim_results"
"$prefix/bin/fastsim-plot-run" demo --print-data --output plot.png >data.json || fail "installed fastsim-plot-run"
[ -s plot.png ] || fail "fastsim-plot-run wrote no plot.png"
"$FASTSIM_PYTHON" - data.json <<'PY' || fail "fastsim-plot-run --print-data: unexpected data"
import json, sys
d = json.load(open(sys.argv[1]))
cwnd = next(p for p in d["panels"] if p["panel"] == "cwnd")
assert [l["label"] for l in cwnd["lines"]] == ["a", "b"], cwnd
assert all(l["samples"] >= 80 and l["mean"] > 10 for l in cwnd["lines"]), cwnd
PY
# The tool imports the installed package.
"$FASTSIM_PYTHON" -c "
import os, runpy, sys
sys.argv = ['$prefix/bin/fastsim-plot-run', 'demo', '--output', 'plot2.png']
try:
    runpy.run_path(sys.argv[0], run_name='__main__')
except SystemExit as e:
    assert not e.code, e.code
open('module.txt', 'w').write(os.path.realpath(sys.modules['fastsim_results'].__file__))
" >/dev/null || fail "fastsim-plot-run under runpy"
[[ "$(cat module.txt)" == "$pkg/"* ]] || fail "fastsim-plot-run imported $(cat module.txt), not the package in $pkg"
"$prefix/bin/fastsim-plot-sweep" --help >/dev/null || fail "installed fastsim-plot-sweep --help"
# Scripts of one's own: PYTHONPATH=PREFIX/lib/python3/dist-packages (README.md "Install").
PYTHONPATH="$prefix/lib/python3/dist-packages" "$FASTSIM_PYTHON" -c "
import fastsim_results, sys
assert fastsim_results.__file__.startswith('$pkg'), fastsim_results.__file__
r = fastsim_results.load_run('demo')
assert len(r.flows) == 2, r.flows
" || fail "import fastsim_results from the prefix"
echo "ok: installed into $prefix and ran"
