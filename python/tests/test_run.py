"""load_run on a run of the repository's explicit-path scenario: summary tables, traces,
the bottleneck, and intervals selected by time."""

import math
import os
import tempfile
import unittest

from fastsim_results import load_run

from .support import REPO, fastsim


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


if __name__ == "__main__":
    unittest.main()
