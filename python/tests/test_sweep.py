"""load_sweep on a tiny sweep run with the built binary: parameters as typed numbers with
units in the column names, per-flow tables, intervals selected by time, and means and
intervals equal to collect's (Boost.Math) ones; a warning when runs are newer than the tables."""

import os
import shutil
import tempfile
import unittest
import warnings

import pandas as pd

from fastsim_results import load_sweep
from fastsim_results.sweep import StaleTablesWarning

from .support import TINY_BASE, make_sweep


class LoadSweepTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="fastsim-py-sweep-")
        cls.out = make_sweep(cls.tmp.name, {
            "/flows/0/rtt": ["20ms", "60ms"],
            "/topology/dumbbell/bottleneck/buffer": ["50pkt", "30KB"],
            "/topology/dumbbell/bottleneck/rate": ["10Mbps", "20Mbps"],
            "/flows/0/algorithm": ["reno", "cubic"]}, replications=2)
        cls.sweep = load_sweep(cls.out)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_parameters_are_numbers_with_units_in_names(self):
        s = self.sweep
        by_pointer = {p.pointer: p for p in s.parameters}
        self.assertEqual(by_pointer["/flows/0/rtt"].columns, ["flows.0.rtt_s"])
        self.assertEqual(by_pointer["/topology/dumbbell/bottleneck/rate"].columns,
                         ["topology.dumbbell.bottleneck.rate_bps"])
        self.assertEqual(by_pointer["/topology/dumbbell/bottleneck/buffer"].units, ["pkt", "B"])
        self.assertFalse(by_pointer["/flows/0/algorithm"].numeric)
        runs = s.runs
        self.assertEqual(len(runs), 2 * 2 * 2 * 2 * 2)
        self.assertTrue(pd.api.types.is_float_dtype(runs["flows.0.rtt_s"]))
        self.assertEqual(sorted(runs["flows.0.rtt_s"].unique()), [0.02, 0.06])
        self.assertEqual(sorted(runs["topology.dumbbell.bottleneck.rate_bps"].unique()), [10e6, 20e6])
        pkt = runs["topology.dumbbell.bottleneck.buffer_pkt"]
        size = runs["topology.dumbbell.bottleneck.buffer_B"]
        self.assertEqual(sorted(pkt.dropna().unique()), [50])
        self.assertEqual(sorted(size.dropna().unique()), [30000])
        self.assertTrue((pkt.isna() == (runs["/topology/dumbbell/bottleneck/buffer"] == "30KB")).all())
        self.assertEqual(s.parameter("flows.0.rtt_s").pointer, "/flows/0/rtt")
        with self.assertRaisesRegex(KeyError, "not a parameter"):
            s.parameter("/duration")
        # ids stay text even when they look like numbers
        self.assertTrue(all(isinstance(v, str) for v in runs["run_id"]))

    def test_summarize_matches_collect(self):
        s = self.sweep
        metric = "links.bottleneck.utilization"
        ours = s.summarize(metric)
        self.assertEqual(len(ours), 16)
        agg = s.aggregate[s.aggregate["metric"] == metric]
        merged = ours.merge(agg, on=s.parameter_columns, how="inner")
        self.assertEqual(len(merged), 16)
        self.assertTrue((merged["n_x"] == merged["n_y"]).all())
        for a, b in [("mean_x", "mean_y"), ("ci_low", "ci95_low"), ("ci_high", "ci95_high")]:
            self.assertLess(((merged[a] - merged[b]).abs() / merged[b].abs()).max(), 1e-9, a)
        self.assertTrue((merged["ci_high"] > merged["ci_low"]).any())  # the replications differ

    def test_flows_and_aggregate_flows(self):
        s = self.sweep
        self.assertEqual(sorted(s.flows["flow"].unique()), ["a", "b"])
        self.assertIn("flows.0.rtt_s", s.flows.columns)
        a = s.flows[s.flows["flow"] == "a"]
        ours = s.summarize("goodput_bps", data=a)
        af = s.aggregate_flows
        af = af[(af["flow"] == "a") & (af["metric"] == "goodput_bps")]
        merged = ours.merge(af, on=s.parameter_columns)
        self.assertEqual(len(merged), 16)
        self.assertLess(((merged["mean_x"] - merged["mean_y"]).abs() / merged["mean_y"]).max(), 1e-12)
        # All flows at once: grouped by flow too (the flows of a run are not replications).
        both = s.summarize("goodput_bps", data=s.flows)
        self.assertIn("flow", both.columns)
        agg = s.aggregate_flows[s.aggregate_flows["metric"] == "goodput_bps"]
        merged = both.merge(agg, on=list(s.parameter_columns) + ["flow"])
        self.assertEqual(len(merged), len(agg))
        self.assertTrue((merged["n_x"] == merged["n_y"]).all())
        self.assertLess(((merged["mean_x"] - merged["mean_y"]).abs() / merged["mean_y"]).max(), 1e-12)

    def test_intervals_selected_by_time(self):
        s = self.sweep
        iv = s.intervals
        self.assertEqual(set(iv["interval"]), {0, 1})  # before and after flow b joins
        at = s.interval_at(2.5)
        self.assertEqual(len(at), len(s.ok_runs))
        self.assertTrue((at["start_s"] <= 2.5).all() and (at["end_s"] > 2.5).all())
        self.assertTrue((at["start_s"] >= 1.0).all())  # b joins at 1 s + jitter
        # The join time differs between replications (start jitter): a time picks the
        # same phase where the interval's start does not repeat.
        self.assertGreater(at["start_s"].nunique(), 1)
        early = s.interval_at(0.5)
        self.assertTrue((early["interval"] == 0).all())
        table = s.summarize("jain", data=at)
        self.assertEqual(len(table), 16)
        self.assertEqual(table["n"].sum(), at["jain"].notna().sum())  # every value counted once
        means = table[table["n"] > 0]["mean"]
        self.assertTrue(((means > 0) & (means <= 1)).all())

    def test_not_collected(self):
        folder = os.path.join(self.tmp.name, "uncollected")
        os.makedirs(folder)
        with open(os.path.join(folder, "sweep.json"), "w") as f:
            f.write('{"runs": []}')
        with self.assertRaisesRegex(FileNotFoundError, "fastsim collect"):
            load_sweep(folder)
        with self.assertRaisesRegex(FileNotFoundError, "sweep folder"):
            load_sweep(self.tmp.name)

    def test_tables_older_than_a_run_warn(self):
        with warnings.catch_warnings():
            warnings.simplefilter("error", StaleTablesWarning)
            load_sweep(self.out)  # freshly collected: no warning
        copy = os.path.join(self.tmp.name, "stale")
        shutil.copytree(self.out, copy)  # keeps the files' times
        run = sorted(os.listdir(os.path.join(copy, "runs")))[1]
        status = os.path.join(copy, "runs", run, "status.json")
        later = os.path.getmtime(os.path.join(copy, "runs.csv")) + 10
        os.utime(status, (later, later))  # as if the run had been redone (even failed) after collect
        message = rf"1 run\(s\) finished after runs.csv .*{run}.*fastsim collect"
        with self.assertWarnsRegex(StaleTablesWarning, message) as w:
            load_sweep(copy)
        self.assertEqual(w.filename, __file__)  # the warning points at the caller

    def test_base_is_the_tiny_dumbbell(self):
        self.assertEqual(self.sweep.spec["base"]["name"], TINY_BASE["name"])


if __name__ == "__main__":
    unittest.main()
