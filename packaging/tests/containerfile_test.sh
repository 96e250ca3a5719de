# packaging/Containerfile stays consistent with tools/setup and the build (the image is not
# built in CI): it starts from the Debian release tools/setup is written for, installs the
# build dependencies by running tools/setup (and no apt-get list of its own in the build
# stage), copies every top-level path the build reads, builds with the release preset like
# tools/test, and installs the .deb with exactly the package's Recommends besides it.
source "$(dirname "$0")/common.sh"
cf="$FASTSIM_SOURCE_DIR/packaging/Containerfile"
setup="$FASTSIM_SOURCE_DIR/tools/setup"
debian=$(grep -oE 'bare Debian [0-9]+' "$setup" | grep -oE '[0-9]+$') || fail "tools/setup names no 'bare Debian N'"
grep -q "Quick start (Debian $debian)" "$FASTSIM_SOURCE_DIR/README.md" || fail "README's quick start is not for Debian $debian"
mapfile -t froms < <(grep -E '^FROM ' "$cf" | awk '{print $2}')
((${#froms[@]} == 2)) || fail "expected a build and a runtime stage: ${froms[*]}"
[ "${froms[0]}" = "debian:$debian" ] || fail "build stage from ${froms[0]}, tools/setup is for Debian $debian"
[ "${froms[1]}" = "debian:$debian-slim" ] || fail "runtime stage from ${froms[1]}, not debian:$debian-slim"

build_stage=$(awk '/^FROM /{n++} n == 1' "$cf")
grep -qx 'COPY tools/setup tools/setup' <<<"$build_stage" || fail "the build stage does not copy tools/setup"
grep -qE '^RUN FASTSIM_SKIP_FUZZ=1 tools/setup( |$)' <<<"$build_stage" || fail "the build stage does not run tools/setup"
! grep -q 'apt-get install' <<<"$build_stage" || fail "the build stage has its own apt-get install (use tools/setup)"
grep -q 'cmake --preset release' "$FASTSIM_SOURCE_DIR/tools/test" || fail "tools/test no longer uses the release preset"
grep -qE '^RUN cmake --preset release .*cmake --build --preset release.*cpack' <<<"$build_stage" ||
  fail "the build stage does not configure, build (release preset) and cpack"
# Every top-level path the build reads is copied, and every copied path exists.
copied=$(grep -E '^COPY ' <<<"$build_stage" | grep -v -- '--from' | awk '{for (i = 2; i < NF; i++) print $i}')
for p in CMakeLists.txt CMakePresets.json README.md include src tests tools python configs docs packaging; do
  grep -qx "$p" <<<"$copied" || fail "the Containerfile does not copy $p"
done
for p in $copied; do
  [ -e "$FASTSIM_SOURCE_DIR/$p" ] || fail "the Containerfile copies $p, which does not exist"
done
for p in $(sed -n 's/^\(include\|add_subdirectory\)(\([a-z][a-zA-Z_/]*\))$/\2/p' "$FASTSIM_SOURCE_DIR/CMakeLists.txt"); do
  [ -d "$FASTSIM_SOURCE_DIR/$p" ] || continue # include(GNUInstallDirs), include(CPack)
  grep -qx "${p%%/*}" <<<"$copied" || fail "CMakeLists.txt reads $p, not copied"
done

runtime_stage=$(awk '/^FROM /{n++} n == 2' "$cf")
extra=$(grep -oE 'install -y --no-install-recommends /tmp/fastsim_\*\.deb[^&]*' <<<"$runtime_stage" |
  sed 's|.*/tmp/fastsim_\*\.deb||; s/\\//g' | xargs -n 1 | sort | tr '\n' ' ')
recommends=$(sed -n 's/^set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "\(.*\)")$/\1/p' "$FASTSIM_SOURCE_DIR/CMakeLists.txt" |
  tr ',' '\n' | xargs -n 1 | sort | tr '\n' ' ')
[ -n "$recommends" ] || fail "no CPACK_DEBIAN_PACKAGE_RECOMMENDS in CMakeLists.txt"
[ "$extra" = "$recommends" ] || fail "the runtime stage installs '$extra' besides the .deb; the package recommends '$recommends'"
echo "ok: Debian $debian, tools/setup, the release preset, recommends $recommends"
