"""Find a Python that has the modules a tool needs (standard library only).

The tools start with `#!/usr/bin/env python3`, so they run under the first python3 in PATH.
That may be a pyenv or virtualenv interpreter without pandas or matplotlib while Debian's
/usr/bin/python3 has them (tools/setup installs python3-pandas and python3-matplotlib).
`require()` then runs the tool again under $FASTSIM_PYTHON, else /usr/bin/python3, once;
if that one lacks them too, it stops with a message saying what to install.
"""

import importlib.util
import os
import sys

FALLBACK = "/usr/bin/python3"
_REEXEC_MARK = "FASTSIM_PYTHON_REEXEC"


def missing_modules(modules):
    """The names among `modules` that this interpreter cannot import."""
    return [m for m in modules if importlib.util.find_spec(m) is None]


def _same_interpreter(path):
    # Paths, not files: a virtualenv's python is a link to the system one, yet sees other
    # packages.
    return os.path.abspath(path) == os.path.abspath(sys.executable)


def candidates():
    """Interpreters to try, in order: $FASTSIM_PYTHON, then /usr/bin/python3."""
    out = []
    for c in (os.environ.get("FASTSIM_PYTHON"), FALLBACK):
        if c and c not in out and os.access(c, os.X_OK) and not _same_interpreter(c):
            out.append(c)
    return out


def require(modules, tool):
    """Return if every module in `modules` imports; else re-run the tool under another
    interpreter (at most once), else exit with status 3 naming what is missing."""
    missing = missing_modules(modules)
    if not missing:
        return
    if not os.environ.get(_REEXEC_MARK):
        for c in candidates():
            env = dict(os.environ, **{_REEXEC_MARK: sys.executable})
            os.execve(c, [c, os.path.abspath(sys.argv[0])] + sys.argv[1:], env)
    tried = [os.environ[_REEXEC_MARK]] if os.environ.get(_REEXEC_MARK) else []
    tried.append(sys.executable)
    sys.stderr.write(
        f"{tool}: needs the Python modules {', '.join(missing)}, which {' and then '.join(tried)} "
        "cannot import: install Debian's python3-pandas and python3-matplotlib (tools/setup), "
        "or set FASTSIM_PYTHON to a python3 that has them\n")
    sys.exit(3)
