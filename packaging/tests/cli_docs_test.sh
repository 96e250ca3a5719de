# The man page and bash completion generated at build time cover every subcommand of
# `fastsim --help` and every option of `fastsim COMMAND --help`; the man page formats
# without warnings; the completion completes subcommands, options, option values and files.
source "$(dirname "$0")/common.sh"
man="$FASTSIM_BUILD_DIR/packaging/fastsim.1"
completion="$FASTSIM_BUILD_DIR/packaging/fastsim.bash"
[ -f "$man" ] || fail "no $man (built by the fastsim_cli_docs target)"
[ -f "$completion" ] || fail "no $completion"

mapfile -t commands < <(fastsim_commands)
((${#commands[@]} >= 8)) || fail "only ${#commands[@]} commands in fastsim --help: ${commands[*]}"
for c in "${commands[@]}"; do
  grep -qx ".SS $c" "$man" || fail "man page has no section for the subcommand $c"
  for opt in $("$FASTSIM_BINARY" "$c" --help | grep -oE '^  (-\w \[ )?--[a-z-]+' | grep -oE -- '--[a-z-]+'); do
    grep -qF "\\fB$(sed 's/-/\\-/g' <<<"$opt")\\fR" "$man" || fail "man page lacks $c's option $opt"
  done
done
# The exit codes of src/cli/commands.hpp, each under EXIT STATUS.
codes=$(grep -oE 'k[A-Za-z]+ = [0-9]+' "$FASTSIM_SOURCE_DIR/src/cli/commands.hpp" | grep -oE '[0-9]+$') ||
  fail "no exit codes in src/cli/commands.hpp"
exit_section=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$man")
for code in $codes; do
  grep -qx ".B $code" <<<"$exit_section" || fail "man page's EXIT STATUS lacks $code"
done
[ "$(grep -c '^\.B [0-9]' <<<"$exit_section")" = "$(wc -w <<<"$codes")" ] || fail "EXIT STATUS codes differ from commands.hpp"
if command -v groff >/dev/null; then
  warnings=$(groff -man -Tutf8 -ww -z "$man" 2>&1)
  [ -z "$warnings" ] || fail "groff warns about the man page: $warnings"
  [[ "$(groff -man -Tutf8 -P-cbou "$man")" == *"EXIT STATUS"* ]] || fail "man page does not format"
fi

# complete(): COMPREPLY for the words given, the last being completed.
complete_words() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _fastsim; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$completion" "$@"
}
spec=$(bash -c 'source "$1"; complete -p fastsim' _ "$completion")
[[ "$spec" == "complete -F _fastsim fastsim" ]] || fail "complete -p fastsim: $spec"
[ "$(complete_words fastsim va)" = validate ] || fail "fastsim va<TAB>: $(complete_words fastsim va)"
[ "$(complete_words fastsim s | sort | tr '\n' ' ')" = "schema sweep " ] || fail "fastsim s<TAB>: $(complete_words fastsim s)"
for c in "${commands[@]}"; do
  grep -qx "$c" <<<"$(complete_words fastsim "${c:0:2}")" || fail "fastsim ${c:0:2}<TAB> does not offer $c"
  offered=$(complete_words fastsim "$c" --)
  for opt in $("$FASTSIM_BINARY" "$c" --help | grep -oE '^  (-\w \[ )?--[a-z-]+' | grep -oE -- '--[a-z-]+'); do
    grep -qx -- "$opt" <<<"$offered" || fail "fastsim $c --<TAB> does not offer $opt"
  done
done
[ "$(complete_words fastsim run x.json --ou)" = --out ] || fail "fastsim run x.json --ou<TAB>"
[ "$(complete_words fastsim sweep s.json --backend s)" = slurm ] || fail "--backend s<TAB>"
[ "$(complete_words fastsim help pr)" = predict ] || fail "fastsim help pr<TAB>"
[ -z "$(complete_words fastsim run x.json --seed "")" ] || fail "--seed <TAB> offers something"
# Files: JSON files and directories for a scenario, directories only for --out.
mkdir -p "$TMP/work/outdir" && touch "$TMP/work/scenario.json" "$TMP/work/notes.txt"
cd "$TMP/work"
[ "$(complete_words fastsim run "" | sort | tr '\n' ' ')" = "outdir scenario.json " ] ||
  fail "fastsim run <TAB>: $(complete_words fastsim run "")"
[ "$(complete_words fastsim run scenario.json --out "")" = outdir ] || fail "--out <TAB>"
[ "$(complete_words fastsim collect "")" = outdir ] || fail "fastsim collect <TAB>"
echo "ok: ${#commands[@]} subcommands in the man page and the completion"
