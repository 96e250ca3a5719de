#!/usr/bin/env python3
"""docs/extending.md's worked example: the page's code blocks are the files they name, and
fastsim_extended (fastsim with the example algorithm delay-aimd in its table,
tests/extending/CMakeLists.txt) lists it, runs it, refuses bad parameters and passes its
regression row. Standard library only; run by ctest (label extending)."""

import csv
import json
import os
import re
import subprocess
import tempfile
import unittest

ROOT = os.environ.get("FASTSIM_SOURCE_DIR") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EXTENDED = os.environ.get("FASTSIM_EXTENDED") or os.path.join(ROOT, "build", "release", "tests", "extending",
                                                              "fastsim_extended")
FASTSIM = os.environ.get("FASTSIM_BINARY") or os.path.join(ROOT, "build", "release", "fastsim")
HERE = os.path.join(ROOT, "tests", "extending")
SCENARIO = os.path.join(HERE, "delay-aimd.json")
DOC = os.path.join(ROOT, "docs", "extending.md")


def run(cmd, expect=0):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if expect is not None and r.returncode != expect:
        raise AssertionError(f"{' '.join(cmd)} exited {r.returncode}, expected {expect}:\n{r.stdout}\n{r.stderr}")
    return r


def read_text(path):
    with open(path) as f:
        return f.read()


def load_json(path):
    with open(path) as f:
        return json.load(f)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class DocTest(unittest.TestCase):
    def test_code_blocks_are_the_files(self):
        with open(DOC) as f:
            text = f.read()
        blocks = re.findall(r"<!-- file: (\S+) -->\n```\w*\n(.*?)\n```", text, re.S)
        self.assertGreaterEqual(len(blocks), 8)
        shown = set()
        for path, code in blocks:
            with self.subTest(path=path):
                self.assertTrue(path.startswith("tests/extending/"), path)
                content = read_text(os.path.join(ROOT, path))
                self.assertIn(code + "\n", content, f"docs/extending.md shows text that is not in {path}")
                shown.add(path)
        # Every file of the example appears on the page.
        for d, _, files in os.walk(HERE):
            for f in files:
                rel = os.path.relpath(os.path.join(d, f), ROOT)
                if f.endswith((".hpp", ".cpp", ".inc", ".json")):
                    self.assertIn(rel, shown, f"docs/extending.md does not show {rel}")
        # The header and the registry snippets are shown whole.
        for path, code in blocks:
            if path.endswith((".hpp", ".inc")) or path.endswith("delay-aimd.json"):
                self.assertEqual(code + "\n", read_text(os.path.join(ROOT, path)), path)


class ExtendedTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="fastsim-extending-")
        cls.dir = cls.tmp.name

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_scenario(self, name, *sets):
        out = os.path.join(self.dir, name)
        if not os.path.exists(out):
            run([EXTENDED, "run", SCENARIO, "--out", out, "--quiet", *sets])
        return out

    def test_listed_with_its_parameters(self):
        algos = json.loads(run([EXTENDED, "algorithms", "--json"]).stdout)["algorithms"]
        da = next((a for a in algos if a["name"] == "delay-aimd"), None)
        self.assertIsNotNone(da, [a["name"] for a in algos])
        params = {p["name"]: p for p in da["params"]}
        self.assertEqual(list(params), ["increase", "decrease", "delay_threshold", "delay_decrease"])
        self.assertEqual(params["delay_threshold"]["unit"], "s")
        self.assertEqual(params["delay_threshold"]["default"], 0.005)
        # The other algorithms are all there, and fastsim itself does not have the example.
        real = [a["name"] for a in json.loads(run([FASTSIM, "algorithms", "--json"]).stdout)["algorithms"]]
        self.assertNotIn("delay-aimd", real)
        self.assertEqual([a["name"] for a in algos], real + ["delay-aimd"])

    def test_unreachable_threshold_is_reno(self):
        never = self.run_scenario("never", "--set", "/flows/0/params/delay_threshold=10",
                                  "--set", "/flows/1/params/delay_threshold=10")
        reno = self.run_scenario("reno", "--set", '/flows/0/algorithm="reno"', "--set", '/flows/1/algorithm="reno"',
                                 "--unset", "/flows/0/params", "--unset", "/flows/1/params")
        for trace in ("flows/a.csv", "flows/b.csv", "links/bottleneck.csv"):
            with self.subTest(trace=trace):
                da_rows, reno_rows = read_csv(os.path.join(never, trace)), read_csv(os.path.join(reno, trace))
                self.assertGreaterEqual(len(reno_rows), 50)
                self.assertEqual([{k: v for k, v in r.items() if k != "da_qdelay_s"} for r in da_rows], reno_rows)
        summary = load_json(os.path.join(never, "summary.json"))
        self.assertEqual([f["algorithm_values"]["delay_cuts"] for f in summary["flows"]], [0, 0])

    def test_delay_cuts_keep_the_queue_short(self):
        da = load_json(os.path.join(self.run_scenario("delay"), "summary.json"))
        reno = load_json(os.path.join(self.run_scenario(
            "reno", "--set", '/flows/0/algorithm="reno"', "--set", '/flows/1/algorithm="reno"',
            "--unset", "/flows/0/params", "--unset", "/flows/1/params"), "summary.json"))
        both_da, both_reno = da["intervals"][-1], reno["intervals"][-1]
        self.assertEqual(both_da["flows"], ["a", "b"])
        self.assertLess(both_da["mean_queue_pkts"], 0.2 * both_reno["mean_queue_pkts"])
        self.assertGreater(both_da["utilization"], 0.9)
        self.assertGreater(both_da["jain"], 0.95)
        for f in da["flows"]:
            self.assertGreater(f["algorithm_values"]["delay_cuts"], 5, f["id"])
        rows = read_csv(os.path.join(self.dir, "delay", "flows", "a.csv"))
        self.assertIn("da_qdelay_s", rows[0])
        self.assertTrue(any(float(r["da_qdelay_s"]) > 0.005 for r in rows))

    def test_bad_parameters_are_refused(self):
        r = run([EXTENDED, "validate", SCENARIO, "--set", "/flows/0/params/delay_decrease=0.6"], expect=1)
        self.assertIn("/flows/0/params/delay_decrease: must not exceed decrease", r.stderr)
        r = run([EXTENDED, "validate", SCENARIO, "--set", "/flows/1/params/delay_threshold=\"20s\""], expect=1)
        self.assertIn("/flows/1/params/delay_threshold", r.stderr)

    def test_regression_row(self):
        run([EXTENDED, "check", os.path.join(HERE, "baseline.json"), "--results", os.path.join(self.dir, "check"),
             "--jobs", "2", "--quiet"])


if __name__ == "__main__":
    unittest.main()
