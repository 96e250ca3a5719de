"""One run's outputs (`fastsim run FILE --out DIR`, docs/outputs.md) as DataFrames.

    run = load_run("out/demo")
    run.summary                 # summary.json as a dict
    run.bottleneck              # the link the interval metrics use ("core")
    run.flows                   # one row per flow: summary.json's flows[] (index: flow id)
    run.links                   # one row per monitored link (index: link id)
    run.intervals               # one row per equilibrium interval (index: its number)
    run.interval_flows          # one row per interval and flow: throughput, convergence
    run.interval_at(35.0)       # the interval holding t = 35 s (a Series)
    run.prediction              # `run --predict`: predicted against measured per interval and flow
    run.prediction_intervals    # ... and the bottleneck's mean queue per interval
    run.flow_samples            # every flows/<id>.csv, long form, with a "flow" column
    run.link_samples            # every links/<id>.csv, with a "link" column
    run.udp_samples, run.arrival_samples
    run.flow_trace("a"), run.link_trace("core")   # one trace

Traces are read on first use.
"""

import functools
import json
import os
import re

import pandas as pd

__all__ = ["Run", "load_run", "read_csv"]


def read_csv(path, text_columns=()):
    """A fastsim CSV: empty cells are NaN, every other text stays as written ("NA" and
    "none" are not missing values); `text_columns` are kept as strings (ids)."""
    return pd.read_csv(path, keep_default_na=False, na_values=[""],
                       dtype={c: str for c in text_columns})


def natural_key(name):
    """Sort key putting 'f2' before 'f10'."""
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]


def _flatten(entry, prefix=""):
    """Scalars of a JSON object, nested objects as dotted names; lists kept as they are."""
    out = {}
    for k, v in entry.items():
        name = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(_flatten(v, name + "."))
        else:
            out[name] = v
    return out


def _numbers(df):
    """Columns of numbers and JSON nulls as floats (null -> NaN); others as they are."""
    for c in df.columns:
        values = [v for v in df[c] if v is not None]
        if values and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
            df[c] = pd.to_numeric(df[c])
        elif not values:
            df[c] = float("nan")
    return df


def _table(entries, index="id"):
    rows = [_flatten(e) for e in entries if isinstance(e, dict)]
    df = _numbers(pd.DataFrame(rows))
    if index in df.columns:
        df = df.set_index(index)
    return df


class Run:
    """The outputs of one run; see the module's documentation."""

    def __init__(self, path):
        self.path = os.fspath(path)
        summary_path = os.path.join(self.path, "summary.json")
        if not os.path.isfile(summary_path):
            raise FileNotFoundError(
                f"{summary_path}: no such file (is {self.path} the --out folder of a finished fastsim run?)")
        with open(summary_path) as f:
            self.summary = json.load(f)

    def __repr__(self):
        return f"Run({self.path!r}: {self.name}, {len(self.flows)} flows, bottleneck {self.bottleneck!r})"

    @property
    def name(self):
        return (self.summary.get("scenario") or {}).get("name") or os.path.basename(os.path.normpath(self.path))

    @property
    def scenario(self):
        """The scenario as run: the input after --set, with every default filled in."""
        return self.summary.get("scenario", {})

    @property
    def bottleneck(self):
        """Id of the link the interval metrics use (summary.json's "bottleneck"), or None."""
        return self.summary.get("bottleneck") or None

    @functools.cached_property
    def flows(self):
        return _table(self.summary.get("flows", []))

    @functools.cached_property
    def links(self):
        return _table(self.summary.get("links", []))

    @functools.cached_property
    def udp(self):
        return _table(self.summary.get("udp", []))

    @functools.cached_property
    def arrivals(self):
        return _table(self.summary.get("arrivals", []))

    @functools.cached_property
    def completed_flows(self):
        return _table(self.summary.get("completed_flows", []))

    @functools.cached_property
    def intervals(self):
        """One row per interval (index "interval", from 0): start_s, end_s and the scalar
        metrics; the per-flow lists (flows, flow_throughput_bps, ...) stay lists here and
        are spread out in interval_flows."""
        df = _numbers(pd.DataFrame(self.summary.get("intervals", [])))
        df.index.name = "interval"
        return df

    @functools.cached_property
    def interval_flows(self):
        """One row per interval and flow: interval, start_s, end_s, flow, and each per-flow
        list of the interval without its "flow_" prefix (throughput_bps, convergence_s,
        window_convergence_s)."""
        rows = []
        for k, iv in enumerate(self.summary.get("intervals", [])):
            lists = {key[len("flow_"):]: v for key, v in iv.items() if key.startswith("flow_") and isinstance(v, list)}
            for i, flow in enumerate(iv.get("flows", [])):
                row = {"interval": k, "start_s": iv.get("start_s"), "end_s": iv.get("end_s"), "flow": flow}
                row.update({key: v[i] if i < len(v) else None for key, v in lists.items()})
                rows.append(row)
        return _numbers(pd.DataFrame(rows))

    PREDICTION_COLUMNS = ["interval", "start_s", "end_s", "flow", "measured_goodput_bps", "predicted_goodput_bps",
                          "relative_error", "reason", "predicted_goodput_band_low_bps",
                          "predicted_goodput_band_high_bps", "within_band"]
    PREDICTION_QUEUE_COLUMNS = ["interval", "start_s", "end_s", "bottleneck_queue_pkts.measured",
                                "bottleneck_queue_pkts.predicted", "bottleneck_queue_pkts.relative_error"]

    @property
    def has_prediction(self):
        """True if the run was made with `fastsim run --predict` (summary.json has "prediction")."""
        return isinstance(self.summary.get("prediction"), dict)

    @functools.cached_property
    def prediction(self):
        """summary.json's prediction (`fastsim run --predict`, docs/predict.md), one row per
        measured interval and flow: interval (its number in intervals), start_s, end_s, flow,
        measured_goodput_bps, predicted_goodput_bps and relative_error (NaN where the model
        gives no number), reason (the model's text where it gives none, else None) and, for
        Vegas, the band of equilibrium goodputs (predicted_goodput_band_low_bps, _high_bps)
        and within_band. No rows (the same columns) for a run without --predict."""
        rows = []
        for k, iv in enumerate((self.summary.get("prediction") or {}).get("intervals", [])):
            for f in iv.get("flows", []):
                band = f.get("predicted_goodput_band_bps") or [None, None]
                rows.append({"interval": k, "start_s": iv.get("start_s"), "end_s": iv.get("end_s"), "flow": f.get("id"),
                             "measured_goodput_bps": f.get("measured_goodput_bps"),
                             "predicted_goodput_bps": f.get("predicted_goodput_bps"),
                             "relative_error": f.get("relative_error"), "reason": f.get("reason"),
                             "predicted_goodput_band_low_bps": band[0], "predicted_goodput_band_high_bps": band[1],
                             "within_band": f.get("within_band")})
        return self._prediction_table(rows, self.PREDICTION_COLUMNS)

    @functools.cached_property
    def prediction_intervals(self):
        """summary.json's prediction per measured interval: interval, start_s, end_s and the
        bottleneck's mean queue in packets, bottleneck_queue_pkts.measured, .predicted and
        .relative_error (NaN where the model predicts no queue). No rows without --predict."""
        rows = []
        for k, iv in enumerate((self.summary.get("prediction") or {}).get("intervals", [])):
            row = {"interval": k, "start_s": iv.get("start_s"), "end_s": iv.get("end_s")}
            row.update(_flatten(iv.get("bottleneck_queue_pkts") or {}, "bottleneck_queue_pkts."))
            rows.append(row)
        return self._prediction_table(rows, self.PREDICTION_QUEUE_COLUMNS)

    @staticmethod
    def _prediction_table(rows, columns):
        df = pd.DataFrame(rows, columns=columns)
        for c in df.columns:  # numbers; JSON nulls (and absent values) -> NaN
            if c not in ("flow", "reason", "within_band"):
                df[c] = pd.to_numeric(df[c]) if len(df) else df[c].astype("int64" if c == "interval" else float)
        return df

    def interval_at(self, t):
        """The interval whose span [start_s, end_s) holds time t (the last one also holds
        its end), as a Series with its number as name. Unlike an index, a time picks the
        same phase of the scenario in replications whose start jitter adds or removes an
        interval. KeyError if no interval holds t."""
        iv = self.intervals
        if len(iv):
            inside = (iv["start_s"] <= t) & ((t < iv["end_s"]) | ((iv.index == iv.index[-1]) & (t == iv["end_s"])))
            if inside.any():
                return iv[inside].iloc[0]
        raise KeyError(f"{self.path}: no interval holds t = {t} s")

    def _samples(self, folder, key, suffix=".csv", exclude=None):
        d = os.path.join(self.path, folder)
        if not os.path.isdir(d):
            return pd.DataFrame()
        frames = []
        for name in sorted(os.listdir(d), key=natural_key):
            if not name.endswith(suffix) or (exclude and name.endswith(exclude)):
                continue
            df = read_csv(os.path.join(d, name), text_columns=("flow",))
            df.insert(0, key, name[: -len(suffix)])
            frames.append(df)
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()

    @functools.cached_property
    def flow_samples(self):
        """Every flow trace (flows/<id>.csv) in long form, with a "flow" column."""
        return self._samples("flows", "flow")

    @functools.cached_property
    def link_samples(self):
        """Every link trace (links/<id>.csv) in long form, with a "link" column."""
        return self._samples("links", "link")

    @functools.cached_property
    def udp_samples(self):
        return self._samples("udp", "udp")

    @functools.cached_property
    def arrival_samples(self):
        """Every arrival process trace (arrivals/<id>.csv), with an "arrival" column."""
        return self._samples("arrivals", "arrival", exclude="-flows.csv")

    def flow_trace(self, flow):
        """flows/<flow>.csv as a DataFrame."""
        return self._trace("flows", flow)

    def link_trace(self, link):
        """links/<link>.csv as a DataFrame (only monitored links have one)."""
        return self._trace("links", link)

    def _trace(self, folder, name):
        path = os.path.join(self.path, folder, f"{name}.csv")
        if not os.path.isfile(path):
            have = ", ".join(self.trace_ids(folder)) or "nothing"
            raise KeyError(f"{path}: no such trace; {folder}/ has: {have}")
        return read_csv(path)

    def trace_ids(self, folder):
        """Ids of the traces in flows/, links/, udp/ or arrivals/, naturally sorted."""
        d = os.path.join(self.path, folder)
        if not os.path.isdir(d):
            return []
        return sorted((n[:-4] for n in os.listdir(d) if n.endswith(".csv")), key=natural_key)


def load_run(path):
    """The outputs of `fastsim run ... --out PATH`."""
    return Run(path)
