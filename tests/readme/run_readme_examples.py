#!/usr/bin/env python3
"""Runs the shell examples of README.md as written (ctest readme_examples).

Every ```sh block that contains a `fastsim` command runs as one bash script
(`set -euo pipefail`) in a fresh temporary folder that holds links to the source tree's
configs/, tests/, tools/ and python/, with the built binary first in PATH; each must exit
0. Lines that install or need root or the network (tools/quickstart, tools/test,
tools/setup, sudo, apt, apt-get) are left out; a block right after the line
`<!-- readme-test: skip -->` is not run.

usage: run_readme_examples.py FASTSIM_BINARY SOURCE_DIR [README]   (default SOURCE_DIR/README.md)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIPPED_COMMANDS = ("tools/quickstart", "tools/test", "tools/setup", "sudo", "apt", "apt-get")
SKIP_MARK = "<!-- readme-test: skip -->"


def shell_blocks(text):
    """(first line number, code) of every ```sh block not marked to skip."""
    blocks = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```sh":
            start = i + 1
            end = start
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            marked = i > 0 and lines[i - 1].strip() == SKIP_MARK
            if not marked:
                blocks.append((start + 1, "\n".join(lines[start:end])))
            i = end
        i += 1
    return blocks


def runnable(code):
    """The block without the lines that install or need root; None if no fastsim command is left."""
    kept = [l for l in code.split("\n") if not l.strip().split(" ", 1)[0] in SKIPPED_COMMANDS]
    if not any(re.match(r"\s*fastsim\s", l) for l in kept):
        return None
    return "\n".join(kept)


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    binary, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    readme = sys.argv[3] if len(sys.argv) == 4 else os.path.join(source, "README.md")
    name = os.path.basename(readme)
    with open(readme, encoding="utf-8") as f:
        blocks = shell_blocks(f.read())
    env = dict(os.environ, PATH=os.path.dirname(binary) + os.pathsep + os.environ.get("PATH", ""),
               FASTSIM_BINARY=binary, MPLBACKEND="Agg")
    ran, failed = 0, 0
    for line, code in blocks:
        script = runnable(code)
        if script is None:
            continue
        work = tempfile.mkdtemp(prefix="fastsim-readme-")
        try:
            for d in ("configs", "tests", "tools", "python"):
                os.symlink(os.path.join(source, d), os.path.join(work, d))
            r = subprocess.run(["bash", "-c", "set -euo pipefail\n" + script], cwd=work, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=1800)
            ran += 1
            if r.returncode != 0:
                failed += 1
                print(f"{name}:{line}: the block exited with {r.returncode}:\n{script}\n--- output ---\n{r.stdout}")
            else:
                print(f"{name}:{line}: ok")
        finally:
            shutil.rmtree(work, ignore_errors=True)
    if ran == 0:
        print(f"{name}: no ```sh block with a fastsim command found", file=sys.stderr)
        return 1
    print(f"{name}: {ran} block(s) run, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
