"""load_run on a run of the repository's explicit-path scenario: summary tables, traces,
the bottleneck, and intervals selected by time; the prediction of `run --predict`."""

import json
import math
import os
import tempfile
import unittest

from fastsim_results import load_run

from .support import PREDICTED, REPO, fastsim, run_scenario


class LoadRunTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="fastsim-py-run-")
        cls.out = os.path.join(cls.tmp.name, "ex")
        fastsim("run", os.path.join(REPO, "configs", "explicit-path.json"), "--out", cls.out,
                "--set", "/duration=6s", "--quiet")
        cls.loaded = load_run(cls.out)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_summary_tables(self):
        r = self.loaded
        self.assertEqual(r.name, "explicit-path")
        self.assertEqual(r.bottleneck, "core")
        self.assertEqual(r.flows.index.tolist(), ["f"])
        self.assertEqual(r.flows.loc["f", "algorithm"], "reno")
        self.assertGreater(r.flows.loc["f", "goodput_bps"], 1e6)
        self.assertTrue(math.isnan(r.flows.loc["f", "completion_time_s"]))  # JSON null -> NaN
        self.assertEqual(sorted(r.links.index), ["back", "core", "down", "up"])
        self.assertEqual(r.links.loc["core", "rate_bps"], 100e6)

    def test_traces(self):
        r = self.loaded
        self.assertEqual(r.trace_ids("links"), ["back", "core", "down", "up"])
        self.assertEqual(sorted(r.link_samples["link"].unique()), ["back", "core", "down", "up"])
        core = r.link_trace("core")
        self.assertEqual(len(core), 6)
        self.assertGreater(core["queue_pkts"].max(), 0)
        self.assertEqual(r.link_trace("back")["queue_pkts"].max(), 0)
        f = r.flow_trace("f")
        self.assertIn("srtt_s", f.columns)
        self.assertEqual(r.flow_samples[r.flow_samples["flow"] == "f"]["cwnd_pkts"].tolist(), f["cwnd_pkts"].tolist())
        with self.assertRaisesRegex(KeyError, "links/ has: back, core, down, up"):
            r.link_trace("nowhere")

    def test_intervals_by_time(self):
        r = self.loaded
        self.assertEqual(len(r.intervals), 1)
        iv = r.interval_at(3.0)
        self.assertEqual(iv.name, 0)
        self.assertEqual(iv["end_s"], 6.0)
        self.assertEqual(r.interval_at(6.0).name, 0)  # the last interval holds its end
        with self.assertRaises(KeyError):
            r.interval_at(7.0)
        flows = r.interval_flows
        self.assertEqual(flows["flow"].tolist(), ["f"])
        self.assertEqual(flows["throughput_bps"][0], r.intervals["flow_throughput_bps"][0][0])

    def test_not_a_run(self):
        with self.assertRaisesRegex(FileNotFoundError, "summary.json"):
            load_run(self.tmp.name)


class LoadPredictionTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="fastsim-py-predict-")
        cls.pred = run_scenario(cls.tmp.name, "pred", PREDICTED, "--predict")
        cls.plain = run_scenario(cls.tmp.name, "plain", PREDICTED)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_prediction_rows_are_summary_json(self):
        r = load_run(self.pred)
        self.assertTrue(r.has_prediction)
        with open(os.path.join(self.pred, "summary.json")) as f:
            intervals = json.load(f)["prediction"]["intervals"]
        expected = [(k, iv["start_s"], iv["end_s"], fl["id"], fl["predicted_goodput_bps"], fl.get("reason"))
                    for k, iv in enumerate(intervals) for fl in iv["flows"]]
        p = r.prediction
        got = [(row.interval, row.start_s, row.end_s, row.flow,
                None if math.isnan(row.predicted_goodput_bps) else row.predicted_goodput_bps, row.reason)
               for row in p.itertuples()]
        self.assertEqual(got, expected)
        self.assertEqual(p["flow"].tolist(), ["fast1", "reno", "fast1", "fast2", "reno"])
        reno = p[p["flow"] == "reno"]
        self.assertTrue(reno["predicted_goodput_bps"].isna().all())  # a reason, not a number
        self.assertTrue(all(text.startswith("no random loss") for text in reno["reason"]))
        # The persistent-congestion split (eq. (10)): the newcomer gets 0.618 of the pair's rate.
        second = p[p["interval"] == 1].set_index("flow")["predicted_goodput_bps"]
        self.assertAlmostEqual(second["fast2"] / (second["fast1"] + second["fast2"]), (5**0.5 - 1) / 2, places=6)
        q = r.prediction_intervals
        self.assertEqual(q["bottleneck_queue_pkts.predicted"].tolist(),
                         [iv["bottleneck_queue_pkts"]["predicted"] for iv in intervals])
        self.assertEqual(q["bottleneck_queue_pkts.predicted"][0], 20.0)  # alpha packets

    def test_no_prediction_without_the_flag(self):
        r = load_run(self.plain)
        self.assertFalse(r.has_prediction)
        self.assertTrue(r.prediction.empty)
        self.assertTrue(r.prediction_intervals.empty)
        self.assertIn("predicted_goodput_bps", r.prediction.columns)
        self.assertEqual(r.prediction["predicted_goodput_bps"].dtype, float)


if __name__ == "__main__":
    unittest.main()
