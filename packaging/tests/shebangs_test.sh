# Every Python tool starts with `#!/usr/bin/env python3` (the first python3 in PATH; the
# tools re-run under one with pandas when needed, fastsim_results/interpreter.py), never a
# fixed interpreter path.
source "$(dirname "$0")/common.sh"
n=0
for f in "$FASTSIM_SOURCE_DIR"/tools/* "$FASTSIM_SOURCE_DIR"/packaging/*.py; do
  [ -f "$f" ] || continue
  first=$(head -n 1 "$f")
  case "$first" in
    *python*) [ "$first" = "#!/usr/bin/env python3" ] || fail "$f starts with '$first', not '#!/usr/bin/env python3'"; n=$((n + 1)) ;;
    '#!'*) [ "$first" = "#!/usr/bin/env bash" ] || fail "$f starts with '$first', not '#!/usr/bin/env bash'" ;;
  esac
done
((n >= 5)) || fail "only $n Python tools found"
echo "ok: $n Python tools"
