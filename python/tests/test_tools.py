"""tools/plot_run and tools/plot_sweep: the queue plotted is the bottleneck named in
summary.json (not the alphabetically first link), --link for several links, the RTT
panel, a log goodput axis when flows' shares differ by orders of magnitude, overlaid
runs, plot_sweep's points equal collect's aggregates, and the tools run from a python3
without pandas by re-executing under one that has it."""

import json
import os
import subprocess
import sys
import tempfile
import unittest
import venv

import pandas as pd

from .support import REPO, TOOLS, fastsim, make_sweep, run, tool

# Two paths from s: 1 Gb/s to d1 and 1 Mb/s to d2, so the flows' goodputs differ 1000-fold.
TWO_PATHS = {
    "name": "two-paths", "duration": "3s", "sample_interval": "0.5s",
    "topology": {"nodes": ["s", "r", "d1", "d2"], "links": [
        {"id": "in", "from": "s", "to": "r", "rate": "1Gbps", "delay": "1ms", "buffer": "1000pkt"},
        {"id": "fast", "from": "r", "to": "d1", "rate": "1Gbps", "delay": "5ms", "buffer": "1000pkt"},
        {"id": "slow", "from": "r", "to": "d2", "rate": "1Mbps", "delay": "5ms", "buffer": "20pkt"},
        {"id": "back1", "from": "d1", "to": "s", "rate": "1Gbps", "delay": "6ms", "buffer": "1000pkt"},
        {"id": "back2", "from": "d2", "to": "s", "rate": "1Gbps", "delay": "6ms", "buffer": "1000pkt"}]},
    "flows": [{"id": "big", "src": "s", "dst": "d1"}, {"id": "small", "src": "s", "dst": "d2"}]}


def panel(data, key):
    return next(p for p in data["panels"] if p["panel"] == key)


class PlotRunTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="fastsim-py-plot-")
        cls.ex = os.path.join(cls.tmp.name, "ex")
        fastsim("run", os.path.join(REPO, "configs", "explicit-path.json"), "--out", cls.ex,
                "--set", "/duration=6s", "--quiet")
        scenario = os.path.join(cls.tmp.name, "two.json")
        with open(scenario, "w") as f:
            json.dump(TWO_PATHS, f)
        cls.two = os.path.join(cls.tmp.name, "two")
        fastsim("run", scenario, "--out", cls.two, "--quiet")
        # Each tool start costs about a second (pandas, matplotlib): plot once per case.
        cls.ex_data = cls.plot_data(cls.ex, output="ex.png")
        cls.two_data = cls.plot_data(cls.two, output="two.png")
        cls.both_data = cls.plot_data(cls.ex, cls.two, output="both.png")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def plot_data(cls, *args, output="p.png"):
        out = os.path.join(cls.tmp.name, output)
        r = tool("plot_run", *args, "--output", out, "--print-data")
        assert os.path.getsize(out) > 0, out
        return json.loads(r.stdout)

    def test_queue_is_the_bottleneck_of_summary_json(self):
        # explicit-path's links: back, core, down, up; its bottleneck is core. The old
        # tool plotted links/back.csv, the alphabetically first, whose queue is empty.
        data = self.ex_data
        self.assertEqual(data["runs"][0]["bottleneck"], "core")
        queue = panel(data, "queue")
        self.assertEqual(len(queue["lines"]), 1)
        line = queue["lines"][0]
        self.assertEqual(line["source"], os.path.join(self.ex, "links", "core.csv"))
        self.assertEqual(line["label"], "core (bottleneck)")
        core = pd.read_csv(os.path.join(self.ex, "links", "core.csv"))
        self.assertEqual(line["samples"], len(core))
        self.assertEqual(line["max"], core["queue_pkts"].max())
        self.assertGreater(line["max"], 0)
        self.assertIn("'core'", queue["title"])

    def test_several_links_and_unknown_link(self):
        data = self.plot_data(self.ex, "--link", "up", "--link", "core")
        labels = [line["label"] for line in panel(data, "queue")["lines"]]
        self.assertEqual(labels, ["up", "core (bottleneck)"])
        bad = tool("plot_run", self.ex, "--link", "nowhere", "--output", os.path.join(self.tmp.name, "x.png"),
                   expect=1)
        self.assertIn("no trace for link 'nowhere'", bad.stderr)
        self.assertIn("links/ has: back, core, down, up", bad.stderr)

    def test_rtt_panel_and_labels(self):
        data = self.ex_data
        self.assertEqual([p["panel"] for p in data["panels"]], ["cwnd", "goodput", "rtt", "queue"])
        rtt = panel(data, "rtt")
        self.assertEqual(rtt["ylabel"], "RTT (ms)")
        srtt = pd.read_csv(os.path.join(self.ex, "flows", "f.csv"))["srtt_s"]
        self.assertAlmostEqual(rtt["lines"][0]["max"], srtt.max() * 1e3)
        self.assertEqual(panel(data, "goodput")["ylabel"], "goodput (Mb/s)")

    def test_log_axis_when_shares_differ_by_orders_of_magnitude(self):
        two = self.two_data
        self.assertEqual(panel(two, "goodput")["scale"], "log")
        self.assertEqual(two["runs"][0]["links"], ["slow"])
        self.assertEqual(panel(self.ex_data, "goodput")["scale"], "linear")

    def test_runs_overlaid(self):
        data = self.both_data
        labels = [line["label"] for line in panel(data, "cwnd")["lines"]]
        self.assertEqual(labels, ["explicit-path: f", "two-paths: big", "two-paths: small"])
        self.assertEqual([line["label"] for line in panel(data, "queue")["lines"]],
                         ["explicit-path: core (bottleneck)", "two-paths: slow (bottleneck)"])

    def test_not_a_run_folder(self):
        r = tool("plot_run", self.tmp.name, "--output", os.path.join(self.tmp.name, "y.png"), expect=1)
        self.assertIn("summary.json", r.stderr)


class InterpreterTest(unittest.TestCase):
    """The tools start with `#!/usr/bin/env python3`: under a python3 without pandas (a
    virtualenv here; a pyenv python in practice) they re-run under $FASTSIM_PYTHON."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="fastsim-py-venv-")
        env_dir = os.path.join(cls.tmp.name, "bare")
        try:
            venv.EnvBuilder(with_pip=False, system_site_packages=False).create(env_dir)
        except Exception as e:  # noqa: BLE001  (ensurepip or venv missing: python3-venv)
            raise unittest.SkipTest(f"cannot make a virtualenv (python3-venv): {e}")
        cls.bin = os.path.join(env_dir, "bin")
        bare = os.path.join(cls.bin, "python3")
        if subprocess.run([bare, "-c", "import pandas"], capture_output=True).returncode == 0:
            raise unittest.SkipTest("the bare virtualenv sees pandas")
        cls.ex = os.path.join(cls.tmp.name, "ex")
        fastsim("run", os.path.join(REPO, "configs", "explicit-path.json"), "--out", cls.ex,
                "--set", "/duration=2s", "--quiet")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def env(self, **extra):
        env = dict(os.environ, PATH=self.bin + os.pathsep + os.environ.get("PATH", ""))
        env.pop("FASTSIM_PYTHON_REEXEC", None)
        env.update(extra)
        return env

    def test_reexec_under_fastsim_python(self):
        out = os.path.join(self.tmp.name, "p.png")
        r = run([os.path.join(TOOLS, "plot_run"), self.ex, "--output", out],
                env=self.env(FASTSIM_PYTHON=sys.executable))
        self.assertEqual(r.stdout.strip(), out)
        self.assertTrue(os.path.getsize(out) > 0)

    def test_clear_message_when_no_interpreter_has_pandas(self):
        # As after one re-execution: no second one, a message naming the packages.
        r = run([os.path.join(TOOLS, "plot_sweep"), self.tmp.name, "--metric", "m", "--x", "/a"],
                env=self.env(FASTSIM_PYTHON_REEXEC="/some/python3"), expect=3)
        self.assertIn("plot_sweep: needs the Python modules pandas, matplotlib", r.stderr)
        self.assertIn("python3-pandas", r.stderr)


class PlotSweepTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="fastsim-py-plotsweep-")
        cls.out = make_sweep(cls.tmp.name, {"/flows/0/rtt": ["10ms", "100ms", "2s"],
                                            "/flows/0/algorithm": ["reno", "cubic"]})

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_points_are_collects_aggregates(self):
        metric = "links.bottleneck.utilization"
        r = tool("plot_sweep", self.out, "--metric", metric, "--x", "/flows/0/rtt", "--series",
                 "/flows/0/algorithm", "--print-data", "--output", os.path.join(self.tmp.name, "u.png"))
        data = json.loads(r.stdout)
        self.assertEqual(data["x"], "flows.0.rtt_s")  # placed by its value in seconds
        agg = pd.read_csv(os.path.join(self.out, "aggregate.csv"))
        agg = agg[agg["metric"] == metric]
        self.assertEqual(len(data["points"]), 6)
        for p in data["points"]:
            row = agg[(agg["flows.0.rtt_s"] == p["flows.0.rtt_s"]) & (agg["/flows/0/algorithm"] == p["/flows/0/algorithm"])]
            self.assertEqual(len(row), 1)
            self.assertAlmostEqual(p["mean"], row["mean"].iloc[0], places=12)
            self.assertAlmostEqual(p["ci_high"], row["ci95_high"].iloc[0], places=9)
            self.assertEqual(p["n"], 3)

    def test_flow_metric_interval_by_time_and_unplotted_parameters(self):
        png = os.path.join(self.tmp.name, "g.png")
        r = tool("plot_sweep", self.out, "--metric", "goodput_bps", "--flow", "b", "--x", "/flows/0/rtt",
                 "--where", "/flows/0/algorithm=reno", "--print-data", "--output", png)
        self.assertEqual(len(json.loads(r.stdout)["points"]), 3)
        r = tool("plot_sweep", self.out, "--metric", "jain", "--at", "2.5", "--x", "/flows/0/rtt",
                 "--y", "/flows/0/algorithm", "--print-data", "--output", png)
        self.assertEqual(len(json.loads(r.stdout)["points"]), 6)
        bad = tool("plot_sweep", self.out, "--metric", "jain", "--at", "2.5", "--x", "/flows/0/rtt",
                   "--output", png, expect=1)
        self.assertIn("parameter /flows/0/algorithm takes 2 values", bad.stderr)
        bad = tool("plot_sweep", self.out, "--metric", "nope", "--x", "/flows/0/rtt", "--output", png, expect=1)
        self.assertIn("no metric 'nope'", bad.stderr)


if __name__ == "__main__":
    unittest.main()
