# cpack makes the Debian package: it holds /usr/bin/fastsim, the tools, the man page, the
# completion and the Python package, and depends on the Debian packages of the shared
# libraries the binary links (dpkg-shlibdeps) and on python3.
source "$(dirname "$0")/common.sh"
command -v dpkg-deb >/dev/null || fail "no dpkg-deb (Debian's dpkg)"
(cd "$TMP" && cpack --config "$FASTSIM_BUILD_DIR/CPackConfig.cmake" -B "$TMP/out" >"$TMP/cpack.log" 2>&1) || {
  cat "$TMP/cpack.log" >&2
  fail "cpack failed"
}
debs=("$TMP"/out/fastsim_*.deb)
[ -f "${debs[0]}" ] || fail "cpack made no fastsim_*.deb: $(ls "$TMP/out")"
deb=${debs[0]}
dpkg-deb -c "$deb" | awk '{print $NF}' >"$TMP/contents"
for f in ./usr/bin/fastsim ./usr/bin/fastsim-plot-run ./usr/bin/fastsim-plot-sweep ./usr/share/man/man1/fastsim.1.gz \
  ./usr/share/bash-completion/completions/fastsim ./usr/share/fastsim/configs/demo.json \
  ./usr/share/doc/fastsim/README.md ./usr/lib/python3/dist-packages/fastsim_results/__init__.py; do
  grep -qxF "$f" "$TMP/contents" || fail "$deb lacks $f"
done
depends=$(dpkg-deb -f "$deb" Depends)
for p in libboost-program-options libfmt libstdc++6 libc6 python3; do
  [[ ", $depends" == *", $p"* ]] || fail "Depends lacks $p: $depends"
done
[ "$(dpkg-deb -f "$deb" Package)" = fastsim ] || fail "Package: $(dpkg-deb -f "$deb" Package)"
[ -n "$(dpkg-deb -f "$deb" Maintainer)" ] || fail "no Maintainer"
description=$(dpkg-deb -f "$deb" Description)
[[ "$description" == *"congestion control"*"fastsim_results"* ]] || fail "Description: $description"
synopsis=$(head -n 1 <<<"$description")
[[ "$(sed -n 2p <<<"$description")" != *"$synopsis"* ]] || fail "the extended description repeats the synopsis: $description"
[[ "$(sed -n 2p <<<"$description")" == " fastsim simulates"* ]] || fail "extended description: $description"
echo "ok: $(basename "$deb"), Depends: $depends"
