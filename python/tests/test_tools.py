"""tools/plot_run and tools/plot_sweep: the queue plotted is the bottleneck named in
summary.json (not the alphabetically first link), --link for several links, the RTT
panel, a log goodput axis when flows' shares differ by orders of magnitude, overlaid
runs, the predicted levels of `run --predict` as dashed lines, plot_sweep's points equal
collect's aggregates, and the tools run from a python3 without pandas by re-executing
under one that has it."""

import json
import os
import subprocess
import sys
import tempfile
import unittest
import venv

import pandas as pd

from .support import PREDICTED, REPO, TOOLS, fastsim, make_sweep, run, run_scenario, tool

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


def plot_data(folder, *args, output="p.png"):
    """plot_run ARGS --print-data, writing folder/output; its JSON."""
    out = os.path.join(folder, output)
    r = tool("plot_run", *args, "--output", out, "--print-data")
    assert os.path.getsize(out) > 0, out
    return json.loads(r.stdout)


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
        return plot_data(cls.tmp.name, *args, output=output)

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


class PlotRunPredictionTest(unittest.TestCase):
    """A run made with --predict gets each flow's predicted goodput per interval and the
    bottleneck's predicted queue as dashed segments in the colours of the measured lines;
    a run without it gets none."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="fastsim-py-plotpred-")
        cls.pred = run_scenario(cls.tmp.name, "pred", PREDICTED, "--predict")
        cls.plain = run_scenario(cls.tmp.name, "plain", PREDICTED)
        with open(os.path.join(cls.pred, "summary.json")) as f:
            cls.intervals = json.load(f)["prediction"]["intervals"]
        cls.pred_data = plot_data(cls.tmp.name, cls.pred, output="pred.png")
        cls.plain_data = plot_data(cls.tmp.name, cls.plain, output="plain.png")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_predicted_goodput_per_interval_dashed_in_the_flows_colour(self):
        goodput = panel(self.pred_data, "goodput")
        expected = {}  # label -> [(interval, start, end, Mb/s)] from summary.json
        for k, iv in enumerate(self.intervals):
            for fl in iv["flows"]:
                if fl["predicted_goodput_bps"] is not None:
                    expected.setdefault(f"{fl['id']} (predicted)", []).append(
                        (k, iv["start_s"], iv["end_s"], fl["predicted_goodput_bps"] / 1e6))
        self.assertEqual(sorted(expected), ["fast1 (predicted)", "fast2 (predicted)"])  # reno: a reason
        self.assertEqual(len(expected["fast1 (predicted)"]), 2)
        self.assertEqual([s[0] for s in expected["fast2 (predicted)"]], [1])  # it starts at 2 s
        colours = {line["label"]: line["color"] for line in goodput["lines"]}
        got = {p["label"]: p for p in goodput["predicted"]}
        self.assertEqual(sorted(got), sorted(expected))
        for label, segments in expected.items():
            p = got[label]
            self.assertEqual(p["linestyle"], "dashed")
            self.assertEqual(p["color"], colours[label[: -len(" (predicted)")]])
            self.assertEqual([(s["interval"], s["start_s"], s["end_s"]) for s in p["segments"]],
                             [s[:3] for s in segments])
            for s, e in zip(p["segments"], segments):
                self.assertAlmostEqual(s["value"], e[3], places=9)
        self.assertEqual(goodput["legend"], ["predicted (dashed)"])
        self.assertEqual(self.pred_data["runs"][0]["prediction"], True)

    def test_predicted_bottleneck_queue_dashed(self):
        queue = panel(self.pred_data, "queue")
        self.assertEqual([line["label"] for line in queue["lines"]], ["a (bottleneck)"])
        self.assertEqual(len(queue["predicted"]), 1)
        p = queue["predicted"][0]
        self.assertEqual(p["label"], "a (predicted)")
        self.assertEqual(p["color"], queue["lines"][0]["color"])
        self.assertEqual([(s["start_s"], s["end_s"], s["value"]) for s in p["segments"]],
                         [(iv["start_s"], iv["end_s"], iv["bottleneck_queue_pkts"]["predicted"])
                          for iv in self.intervals])
        self.assertEqual(p["segments"][0]["value"], 20.0)  # fast1's alpha
        self.assertEqual(queue["legend"], ["a (bottleneck)", "predicted (dashed)"])

    def test_no_predicted_lines_without_predict(self):
        data = self.plain_data
        self.assertEqual(data["runs"][0]["prediction"], False)
        for p in data["panels"]:
            self.assertEqual(p["predicted"], [], p["panel"])
            self.assertNotIn("predicted (dashed)", p["legend"], p["panel"])
        self.assertEqual(panel(data, "goodput")["legend"], [])
        self.assertEqual(panel(data, "queue")["legend"], ["a (bottleneck)"])


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
            # Utilization cannot pass 1: the bar drawn is the interval clipped to [0, 1].
            self.assertEqual(p["drawn_high"], min(p["ci_high"], 1.0))
            self.assertEqual(p["drawn_low"], max(p["ci_low"], 0.0))
        self.assertEqual(data["range"], [0.0, 1.0])
        # At rtt 10 ms: mean 0.9945, sd 0.0034, n = 3, so the t-interval reaches 1.003.
        self.assertTrue(any(p["ci_high"] > 1 for p in data["points"]))
        self.assertTrue(data["clipped"])

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
        bad = tool("plot_sweep", self.out, "--metric", "goodput_bps", "--flow", "b", "--x", "/flows/0/rtt",
                   "--where", "/flows/0/algorithm=vegas", "--output", png, expect=1)
        self.assertIn("no run has this value; /flows/0/algorithm takes cubic, reno", bad.stderr)


class ReproduceMeanQueueTest(unittest.TestCase):
    """tools/reproduce's mean-queue rows read the link trace's mean_queue_pkts (the exact
    per-period averages); a run folder written by a fastsim without that column is named,
    with what to do, instead of failing with a KeyError."""

    @classmethod
    def setUpClass(cls):
        import importlib.machinery
        import importlib.util
        loader = importlib.machinery.SourceFileLoader("reproduce_tool", os.path.join(TOOLS, "reproduce"))
        spec = importlib.util.spec_from_loader("reproduce_tool", loader)
        cls.tool = importlib.util.module_from_spec(spec)
        loader.exec_module(cls.tool)

    def run_folder(self, header, rows):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        os.makedirs(os.path.join(tmp.name, "links"))
        with open(os.path.join(tmp.name, "summary.json"), "w") as f:
            json.dump({"bottleneck": "b"}, f)
        with open(os.path.join(tmp.name, "links", "b.csv"), "w") as f:
            f.write(header + "\n" + "".join(r + "\n" for r in rows))
        return self.tool.Run(tmp.name), tmp.name

    def test_mean_of_the_period_means_in_the_window(self):
        run, _ = self.run_folder("time_s,queue_pkts,mean_queue_pkts",
                                 ["1.0,9,4.0", "2.0,0,6.0", "3.0,5,8.0", "4.0,1,100.0"])
        # (1, 3]: the periods ending at 2 s and 3 s, whatever the instantaneous queue says
        self.assertAlmostEqual(self.tool.x_window_mean_queue(run, {"t0": 1.0, "t1": 3.0}), 7.0)

    def test_a_trace_without_the_column_is_named(self):
        run, folder = self.run_folder("time_s,queue_pkts", ["1.0,9", "2.0,0"])
        with self.assertRaises(SystemExit) as e:
            self.tool.x_window_mean_queue(run, {"t0": 0.0, "t1": 2.0})
        self.assertIn(folder, str(e.exception.code))
        self.assertIn("no mean_queue_pkts column", str(e.exception.code))
        self.assertIn("rerun it", str(e.exception.code))


if __name__ == "__main__":
    unittest.main()
