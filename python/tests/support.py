"""Shared helpers of the Python tests: the fastsim binary (FASTSIM_BINARY, set by ctest,
else build/release/fastsim), running it and the tools, and a tiny sweep."""

import json
import os
import subprocess
import sys

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TOOLS = os.path.join(REPO, "tools")


def fastsim_binary():
    path = os.environ.get("FASTSIM_BINARY") or os.path.join(REPO, "build", "release", "fastsim")
    if not os.access(path, os.X_OK):
        raise RuntimeError(f"no fastsim binary at {path}: build it (cmake --build --preset release) "
                           "or set FASTSIM_BINARY")
    return path


def run(cmd, cwd=None, env=None, expect=0):
    """Runs cmd; asserts its exit code is `expect` (None: any) and returns the result."""
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if expect is not None and r.returncode != expect:
        raise AssertionError(f"{' '.join(cmd)} exited {r.returncode}, expected {expect}:\n{r.stdout}\n{r.stderr}")
    return r


def fastsim(*args, cwd=None, expect=0):
    return run([fastsim_binary(), *args], cwd=cwd, expect=expect)


def tool(name, *args, env=None, expect=0):
    """Runs tools/<name> under this interpreter (the one ctest found with pandas and matplotlib)."""
    return run([sys.executable, os.path.join(TOOLS, name), *args], env=env, expect=expect)


# Two Reno flows on a 10 Mb/s dumbbell for 4 s; the second joins at 1 s. Start jitter makes
# the replications differ.
TINY_BASE = {
    "name": "tiny", "duration": "4s", "sample_interval": "0.5s",
    "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "1ms", "buffer": "50pkt"},
                              "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
    "flows": [{"id": "a", "rtt": "20ms", "start_jitter": "100ms"},
              {"id": "b", "rtt": "40ms", "start": "1s", "start_jitter": "300ms"}]}


def make_sweep(folder, grid, replications=3, seed=3, base=None):
    """Runs and collects a sweep of the tiny base with `grid`; returns its folder."""
    os.makedirs(folder, exist_ok=True)
    spec = os.path.join(folder, "spec.json")
    with open(spec, "w") as f:
        json.dump({"base": base or TINY_BASE, "grid": grid, "replications": replications, "seed": seed}, f)
    out = os.path.join(folder, "out")
    fastsim("sweep", spec, "--out", out, "--jobs", "2", "--quiet")
    fastsim("collect", out)
    return out


# For `run --predict`: two FAST flows on link a (the second joins at 2 s into the first's
# queue: the persistent-congestion split) and, on a disjoint path, a Reno flow over
# drop-tail only, for which the model gives a reason instead of a number. Two intervals.
PREDICTED = {
    "name": "predicted", "duration": "4s", "sample_interval": "0.5s",
    "topology": {"nodes": ["s1", "d1", "s2", "d2"], "bottleneck": "a", "links": [
        {"id": "a", "from": "s1", "to": "d1", "rate": "50Mbps", "delay": "5ms", "buffer": "1000pkt"},
        {"id": "back1", "from": "d1", "to": "s1", "rate": "1Gbps", "delay": "5ms", "buffer": "1000pkt"},
        {"id": "b", "from": "s2", "to": "d2", "rate": "10Mbps", "delay": "5ms", "buffer": "50pkt"},
        {"id": "back2", "from": "d2", "to": "s2", "rate": "1Gbps", "delay": "5ms", "buffer": "1000pkt"}]},
    "flows": [{"id": "fast1", "src": "s1", "dst": "d1", "algorithm": "fast", "params": {"alpha": 20}},
              {"id": "fast2", "src": "s1", "dst": "d1", "algorithm": "fast", "params": {"alpha": 20}, "start": "2s"},
              {"id": "reno", "src": "s2", "dst": "d2"}]}


def run_scenario(folder, name, scenario, *args):
    """Writes `scenario` to folder/name.json, runs it into folder/name with `args`, and
    returns the output folder."""
    path = os.path.join(folder, f"{name}.json")
    with open(path, "w") as f:
        json.dump(scenario, f)
    out = os.path.join(folder, name)
    fastsim("run", path, "--out", out, "--quiet", *args)
    return out
