# Shared by the packaging tests: fail() and the paths ctest passes (packaging/CMakeLists.txt).
set -euo pipefail
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
: "${FASTSIM_BINARY:?set by ctest}" "${FASTSIM_SOURCE_DIR:?set by ctest}" "${FASTSIM_BUILD_DIR:?set by ctest}"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/fastsim-package-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
# The subcommands listed under "commands:" in `fastsim --help`.
fastsim_commands() {
  "$FASTSIM_BINARY" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z][a-z-]*( |$)/ {print $1}'
}
