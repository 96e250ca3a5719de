#!/usr/bin/env python3
"""Write fastsim's man page (fastsim.1) and bash completion from the binary's own help.

Run at build time (CMakeLists.txt, "Install and package"): every subcommand listed by
`fastsim --help`, with the usage and options of `fastsim COMMAND --help`, so neither
file can fall behind the command line. Standard library only.

usage: gen_cli_docs.py FASTSIM_BINARY --man OUT.1 --completion OUT.bash
"""

import argparse
import re
import subprocess
import sys

# Options whose value is a directory / a JSON file / one of a few words; every other
# option that takes a value gets no completion (a pointer, a number, NAME=VALUE).
DIR_OPTIONS = {"--out", "--results", "--dir"}
FILE_OPTIONS = {"--file", "--spec", "--baseline"}
WORD_OPTIONS = {"--backend": "local slurm"}
# A command's positional argument is the option of that name (boost "positional").
POSITIONAL_DIR = {"dir"}

# src/cli/commands.hpp's exit codes (packaging/tests/cli_docs_test.sh compares the two).
EXIT_STATUS = [
    ("0", "success"),
    ("1", "invalid scenario or input (each problem is printed with its JSON path)"),
    ("2", "usage error (unknown command or option, bad option value)"),
    ("3", "runtime or I/O failure"),
    ("4", "fastsim check: a metric left its band"),
]


def help_text(binary, *args):
    r = subprocess.run([binary, *args, "--help"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"gen_cli_docs: {binary} {' '.join(args)} --help exited {r.returncode}: {r.stderr}")
    return r.stdout


def commands(top_help):
    """The subcommands in the "commands:" section of `fastsim --help`: [(name, summary)]."""
    out = []
    in_commands = False
    for line in top_help.splitlines():
        if line.strip() == "commands:":
            in_commands = True
            continue
        if not in_commands:
            continue
        m = re.match(r"^  ([a-z][a-z-]*)\b", line)
        if m:
            out.append(m.group(1))
    return out


def parse_command_help(text):
    """{usage: [lines], summary: [lines], options: [(names, takes_arg, help)]}."""
    lines = text.splitlines()
    usage, summary, options = [], [], []
    i = 0
    while i < len(lines) and not lines[i].endswith("options:"):
        line = lines[i]
        if line.startswith("usage:") or (usage and not summary and line.startswith("    ")):
            usage.append(line[len("usage: "):] if line.startswith("usage:") else line.strip())
        else:
            summary.append(line.strip())
        i += 1
    for line in lines[i + 1:]:
        m = re.match(r"^  (-\w \[ )?(--[\w-]+)( \])?( arg)?\s*(.*)$", line)
        if m:
            names = ([m.group(1)[:2]] if m.group(1) else []) + [m.group(2)]
            options.append([names, bool(m.group(4)), m.group(5).strip()])
        elif options and line.strip():
            options[-1][2] += " " + line.strip()
    return {"usage": usage, "summary": summary, "options": options}


def roff(text):
    """Escapes text for roff: backslashes, hyphens of options, leading dots/quotes."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    if text.startswith((".", "'")):
        text = "\\&" + text
    return text


def man_page(version, names, helps):
    out = [
        f'.TH FASTSIM 1 "" "fastsim {version}" "User Commands"',
        ".SH NAME",
        "fastsim \\- packet\\-level discrete\\-event network simulator for TCP congestion control",
        ".SH SYNOPSIS",
        ".B fastsim",
        ".I command",
        "[\\fIoptions\\fR]",
        ".br",
        ".B fastsim",
        "\\fBhelp\\fR \\fIcommand\\fR | \\fB\\-\\-help\\fR | \\fB\\-\\-version\\fR",
        ".SH DESCRIPTION",
        "fastsim simulates hosts, routers and links (rate, delay, finite buffers, random loss), a full TCP",
        "and pluggable congestion\\-control algorithms, from a JSON scenario file.",
        "A run writes per\\-flow and per\\-link traces (CSV) and a",
        ".I summary.json",
        "of fairness, stability, responsiveness, utilization, queue and loss metrics.",
        "Sweeps run grids of scenarios locally or as SLURM job arrays;",
        ".B fastsim check",
        "keeps metrics inside the bands of a regression baseline.",
        ".PP",
        "Each command's options are printed by",
        ".BI \"fastsim \" command \" \\-\\-help\"",
        "(the text below is generated from that output).",
        ".SH COMMANDS",
    ]
    for name in names:
        h = helps[name]
        out.append(f".SS {roff(name)}")
        out.append(".nf")
        out.extend(roff(u) for u in h["usage"])
        out.append(".fi")
        out.append(".PP")
        out.extend(roff(s) for s in h["summary"] if s)
        for opt_names, takes_arg, text in h["options"]:
            out.append(".TP")
            label = ", ".join(f"\\fB{roff(n)}\\fR" for n in opt_names)
            out.append(label + (" \\fIarg\\fR" if takes_arg else ""))
            out.append(roff(text))
    out += [".SH EXIT STATUS", ".TP"]
    for i, (code, text) in enumerate(EXIT_STATUS):
        if i:
            out.append(".TP")
        out += [f".B {code}", roff(text)]
    out += [
        ".SH FILES",
        ".TP",
        ".I PREFIX/share/fastsim/configs/",
        "example scenarios (demo.json: two Reno flows on a dumbbell) and the published experiments",
        ".TP",
        ".I PREFIX/share/doc/fastsim/",
        "the documentation: scenario format, outputs, metrics, sweeps, algorithms, extending",
        ".TP",
        ".I PREFIX/bin/fastsim\\-plot\\-run, PREFIX/bin/fastsim\\-plot\\-sweep",
        "plots of a run's and of a collected sweep's outputs (python3 with pandas and matplotlib)",
        ".SH EXAMPLE",
        ".nf",
        "fastsim run PREFIX/share/fastsim/configs/demo.json \\-\\-out out/demo",
        "fastsim\\-plot\\-run out/demo",
        ".fi",
        ".SH SEE ALSO",
        "The scenario format: PREFIX/share/doc/fastsim/scenario\\-format.md;",
        "outputs: PREFIX/share/doc/fastsim/outputs.md.",
        "",
    ]
    return "\n".join(out)


def completion(names, helps):
    """A bash completion script: subcommands, each subcommand's options, option values,
    JSON files or directories for the positional argument."""
    cases = []
    for name in names:
        opts = [n for names_, _, _ in helps[name]["options"] for n in names_ if n.startswith("--")]
        with_arg = [n for names_, takes, _ in helps[name]["options"] if takes for n in names_ if n.startswith("--")]
        positional = "dir" if any(o[2:] in POSITIONAL_DIR for o in opts) else (
            "file" if any(o in FILE_OPTIONS for o in opts) else "none")
        cases.append(f'    {name}) opts="{" ".join(opts)}"; argopts=" {" ".join(with_arg)} "; positional={positional} ;;')
    word_cases = "\n".join(f'    {o}) COMPREPLY=($(compgen -W "{w}" -- "$cur")); return ;;'
                           for o, w in WORD_OPTIONS.items())
    return f"""# bash completion for fastsim (generated by packaging/gen_cli_docs.py from `fastsim --help`).
# Subcommands, each subcommand's options, the values of --backend, directories for
# --out/--results/collect's DIR, JSON files (and directories) for scenario, spec and
# baseline arguments.

_fastsim_files() {{
  compopt -o filenames 2>/dev/null || true
  COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X '!*.json' -- "$cur"))
}}

_fastsim() {{
  local cur="${{COMP_WORDS[COMP_CWORD]}}" prev=""
  ((COMP_CWORD > 0)) && prev="${{COMP_WORDS[COMP_CWORD - 1]}}"
  local commands="{" ".join(names)}"
  COMPREPLY=()
  if ((COMP_CWORD == 1)); then
    COMPREPLY=($(compgen -W "$commands help --help --version" -- "$cur"))
    return
  fi
  local opts argopts positional
  case "${{COMP_WORDS[1]}}" in
    help) ((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W "$commands" -- "$cur")); return ;;
{chr(10).join(cases)}
    *) return ;;
  esac
  case "$prev" in
{word_cases}
    {"|".join(sorted(DIR_OPTIONS))})
      compopt -o filenames 2>/dev/null || true; COMPREPLY=($(compgen -d -- "$cur")); return ;;
    {"|".join(sorted(FILE_OPTIONS))})
      _fastsim_files; return ;;
  esac
  # Any other option that takes a value: nothing sensible to offer.
  if [[ "$prev" == --* && "$argopts" == *" $prev "* ]]; then
    return
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  elif [[ "$positional" == file ]]; then
    _fastsim_files
  elif [[ "$positional" == dir ]]; then
    compopt -o filenames 2>/dev/null || true
    COMPREPLY=($(compgen -d -- "$cur"))
  fi
}}
complete -F _fastsim fastsim
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binary")
    ap.add_argument("--man", required=True)
    ap.add_argument("--completion", required=True)
    a = ap.parse_args()
    top = help_text(a.binary)
    names = commands(top)
    if not names:
        sys.exit(f"gen_cli_docs: no commands in `{a.binary} --help`")
    helps = {n: parse_command_help(help_text(a.binary, n)) for n in names}
    version = subprocess.run([a.binary, "--version"], capture_output=True, text=True, check=True).stdout.split()[-1]
    with open(a.man, "w") as f:
        f.write(man_page(version, names, helps))
    with open(a.completion, "w") as f:
        f.write(completion(names, helps))


if __name__ == "__main__":
    main()
