"""A sweep folder's result tables (`fastsim collect DIR`, docs/sweeps.md) as DataFrames.

    sweep = load_sweep("out/rtt")
    sweep.runs              # runs.csv: one row per run (parameters, status, every metric)
    sweep.flows             # flows.csv: one row per run and flow
    sweep.aggregate         # aggregate.csv: per point and metric, mean and t 95 % interval
    sweep.aggregate_flows   # aggregate_flows.csv: the same per point, flow and flow metric
    sweep.parameters        # [Parameter(pointer, columns, unit)]: how each pointer appears
    sweep.parameter_columns # the columns to group runs by (numbers where they have units)
    sweep.intervals         # one row per run and equilibrium interval (from runs.csv)
    sweep.interval_at(35)   # per run, the interval holding t = 35 s
    sweep.summarize("links.bottleneck.utilization")    # mean and CI over replications

Parameters are typed: a pointer whose values carry units ("20ms", "100Mbps", "50pkt") has a
numeric column with the unit in its name (flows.0.rtt_s = 0.02, ..._bps, ..._B, ..._pkt),
written by collect; other parameters keep their pointer column ("/flows/0/algorithm",
"/flows/0/count" as numbers). Only successful runs (status "ok") carry metrics.
Loading warns (StaleTablesWarning) when a run finished after the tables were collected.
"""

import functools
import json
import os
import re
import warnings
from dataclasses import dataclass, field

import pandas as pd

from .run import read_csv
from .stats import summarize

__all__ = ["Parameter", "StaleTablesWarning", "Sweep", "load_sweep", "numeric_column_names", "UNITS"]

#: The units of collect's numeric parameter columns, in its column order.
UNITS = ("s", "bps", "pkt", "B")

_ID_COLUMNS = ("run_id", "flow")


def dotted(pointer):
    """'/flows/0/rtt' -> 'flows.0.rtt', as collect names numeric parameter columns."""
    return ".".join(t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:])


def numeric_column_names(pointer):
    """The names collect may give the numeric columns of `pointer`, one per unit."""
    return [f"{dotted(pointer)}_{u}" for u in UNITS]


@dataclass
class Parameter:
    """A swept JSON pointer and the columns it appears in: `columns` are the numeric ones
    (with `units`, one each) if collect wrote any, else the pointer's own column."""
    pointer: str
    columns: list = field(default_factory=list)
    units: list = field(default_factory=list)

    @property
    def numeric(self):
        return bool(self.units)


class StaleTablesWarning(UserWarning):
    """The sweep folder has run results newer than its collected tables."""


class Sweep:
    """The tables of one collected sweep; see the module's documentation."""

    def __init__(self, path):
        self.path = os.fspath(path)
        plan = os.path.join(self.path, "sweep.json")
        if not os.path.isfile(plan):
            raise FileNotFoundError(f"{plan}: no such file (is {self.path} a fastsim sweep folder?)")
        with open(plan) as f:
            self.plan = json.load(f)
        if not os.path.isfile(os.path.join(self.path, "runs.csv")):
            raise FileNotFoundError(f"{self.path}/runs.csv: no such file: run `fastsim collect {self.path}` first")
        self._warn_if_stale()
        pointers = []
        for r in self.plan.get("runs", []):
            for p in r.get("params", {}):
                if p not in pointers:
                    pointers.append(p)
        self.parameters = []
        for p in sorted(pointers):
            names = [(c, u) for c, u in zip(numeric_column_names(p), UNITS) if c in self.runs.columns]
            if names:
                self.parameters.append(Parameter(p, [c for c, _ in names], [u for _, u in names]))
            else:
                self.parameters.append(Parameter(p, [p], []))

    def _warn_if_stale(self):
        """Runs that finished after collect wrote the tables (a resumed or rerun sweep) are
        missing from them: say so rather than analyse the old tables silently. A run's
        status.json is written last, whatever its outcome (a failed rerun leaves the old
        summary.json behind)."""
        written = os.path.getmtime(os.path.join(self.path, "runs.csv"))
        runs = os.path.join(self.path, "runs")
        newer = []
        if os.path.isdir(runs):
            for run in sorted(os.listdir(runs)):
                status = os.path.join(runs, run, "status.json")
                if os.path.isfile(status) and os.path.getmtime(status) > written:
                    newer.append(run)
        if newer:
            warnings.warn(f"{self.path}: {len(newer)} run(s) finished after runs.csv was written (first: "
                          f"{newer[0]}); the tables do not have their results: run `fastsim collect "
                          f"{self.path}` again (a copy that did not keep file times warns too)",
                          StaleTablesWarning, stacklevel=4)

    def __repr__(self):
        return (f"Sweep({self.path!r}: {len(self.runs)} runs, parameters "
                f"{', '.join(p.pointer for p in self.parameters) or 'none'})")

    @property
    def spec(self):
        return self.plan.get("spec", {})

    @property
    def parameter_columns(self):
        """The columns that identify a parameter point: each parameter's numeric columns,
        or its pointer column when it has none."""
        return [c for p in self.parameters for c in p.columns]

    def parameter(self, name):
        """The Parameter with this pointer or column name."""
        for p in self.parameters:
            if name == p.pointer or name in p.columns:
                return p
        have = ", ".join(f"{p.pointer} ({', '.join(p.columns)})" for p in self.parameters)
        raise KeyError(f"{name!r} is not a parameter of the sweep {self.path}; it has: {have or 'none'}")

    def _table(self, name, required=True):
        path = os.path.join(self.path, name)
        if not os.path.isfile(path):
            if required:
                raise FileNotFoundError(f"{path}: no such file: run `fastsim collect {self.path}` again "
                                        "(a fastsim older than this package does not write it)")
            return pd.DataFrame()
        return read_csv(path, text_columns=_ID_COLUMNS)

    @functools.cached_property
    def runs(self):
        return self._table("runs.csv")

    @functools.cached_property
    def ok_runs(self):
        """The runs whose status is "ok" (the ones with metrics)."""
        return self.runs[self.runs["status"] == "ok"].reset_index(drop=True)

    @functools.cached_property
    def flows(self):
        return self._table("flows.csv")

    @functools.cached_property
    def aggregate(self):
        return self._table("aggregate.csv")

    @functools.cached_property
    def aggregate_flows(self):
        return self._table("aggregate_flows.csv")

    def _run_keys(self):
        """run_id, the parameter columns (pointer and numeric), replication, seed."""
        cols = ["run_id"]
        for p in self.parameters:
            cols += [p.pointer] + [c for c in p.columns if c != p.pointer]
        return cols + ["replication", "seed"]

    @functools.cached_property
    def intervals(self):
        """One row per successful run and equilibrium interval, from runs.csv's
        intervals.<k>.<metric> columns: the run's keys, "interval" (k), then the metrics
        (start_s, end_s, jain, utilization, ...)."""
        pattern = re.compile(r"^intervals\.(\d+)\.(.+)$")
        by_index = {}
        for c in self.runs.columns:
            m = pattern.match(c)
            if m:
                by_index.setdefault(int(m.group(1)), {})[m.group(2)] = c
        keys = self._run_keys()
        ok = self.ok_runs
        frames = []
        for k in sorted(by_index):
            cols = by_index[k]
            part = ok[keys + list(cols.values())].rename(columns={v: n for n, v in cols.items()})
            part = part[part["start_s"].notna()] if "start_s" in part else part
            part.insert(len(keys), "interval", k)
            frames.append(part)
        if not frames:
            return pd.DataFrame(columns=keys + ["interval"])
        df = pd.concat(frames, ignore_index=True)
        return df.sort_values(["run_id", "interval"], kind="stable").reset_index(drop=True)

    def interval_at(self, t):
        """Per successful run, the interval whose span [start_s, end_s) holds time t (the
        run's last interval also holds its end): one row per run that has one. With start
        jitter, replications can split the run into a different number of intervals, so
        that interval k is not the same phase in every run; a time is."""
        iv = self.intervals
        if iv.empty:
            return iv
        last = iv.groupby("run_id")["interval"].transform("max") == iv["interval"]
        inside = (iv["start_s"] <= t) & ((t < iv["end_s"]) | (last & (t == iv["end_s"])))
        return iv[inside].drop_duplicates("run_id").reset_index(drop=True)

    def summarize(self, metric, data=None, by=None, level=0.95):
        """Mean, sd and Student-t `level` interval of `metric` over replications, one row
        per parameter point: n, mean, sd, ci_low, ci_high (as aggregate.csv's n, mean, sd,
        ci95_low, ci95_high at level 0.95). `data`: a table with the parameter columns,
        default the successful runs (pass sweep.interval_at(t), or sweep.flows filtered to
        a flow); `by`: the columns to group by, default the parameter columns (and `flow`
        when `data` has that column: flows of one run are not replications)."""
        data = self.ok_runs if data is None else data
        if metric not in data.columns:
            raise KeyError(f"no column {metric!r}; metrics are, e.g.: "
                           + ", ".join(c for c in list(data.columns)[:40] if c not in self._run_keys()))
        if by is None:
            # Rows of flows.csv: one per flow and run; the flows of a run are not replications.
            by = list(self.parameter_columns) + (["flow"] if "flow" in data.columns else [])
        return summarize(data, metric, by, level)


def load_sweep(path):
    """The result tables of the sweep folder PATH, after `fastsim collect PATH`."""
    return Sweep(path)
