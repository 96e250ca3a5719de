"""The example of docs/python.md (jain_vs_rtt.py), run exactly as the document has it on a
small sweep made with the built binary: it writes its figure, and its table holds
collect's mean and Student-t interval of the same interval's Jain index."""

import os
import re
import subprocess
import sys
import tempfile
import unittest

import pandas as pd

from .support import REPO, make_sweep


def example_script():
    with open(os.path.join(REPO, "docs", "python.md")) as f:
        text = f.read()
    m = re.search(r"```python\n(# jain_vs_rtt\.py .*?)```", text, re.S)
    if not m:
        raise AssertionError("docs/python.md has no ```python block starting with '# jain_vs_rtt.py'")
    return m.group(1)


class DocsExampleTest(unittest.TestCase):
    def test_example_runs_and_matches_collect(self):
        with tempfile.TemporaryDirectory(prefix="fastsim-py-docs-") as tmp:
            out = make_sweep(tmp, {"/flows/0/rtt": ["20ms", "60ms"], "/flows/0/algorithm": ["reno", "cubic"]})
            script = os.path.join(tmp, "jain_vs_rtt.py")
            with open(script, "w") as f:
                f.write(example_script())
            env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"))
            # t = 2.5 s: after flow b joins (1 s + up to 0.3 s of jitter) in every run.
            r = subprocess.run([sys.executable, script, out, "2.5"], cwd=tmp, env=env, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertGreater(os.path.getsize(os.path.join(tmp, "jain.png")), 0)
            table = pd.read_csv(os.path.join(tmp, "jain.csv"))
            self.assertEqual(len(table), 4)
            self.assertEqual((table["n"] == 3).sum() + table["n"].lt(3).sum(), 4)
            # In every run here, t = 2.5 s falls in interval 1, so the table must hold
            # aggregate.csv's intervals.1.jain.
            runs = pd.read_csv(os.path.join(out, "runs.csv"))
            self.assertTrue((runs["intervals.1.start_s"] <= 2.5).all() and (runs["intervals.1.end_s"] > 2.5).all())
            agg = pd.read_csv(os.path.join(out, "aggregate.csv"))
            agg = agg[agg["metric"] == "intervals.1.jain"]
            merged = table.merge(agg, on=["/flows/0/algorithm", "flows.0.rtt_s"], how="left")
            self.assertEqual(len(merged), 4)
            # collect leaves out a point whose runs all have a null index (n = 0 here)
            self.assertTrue((merged["n_x"] == merged["n_y"].fillna(0)).all())
            full = merged[merged["n_x"] >= 2]
            self.assertGreater(len(full), 0)
            for a, b in [("mean_x", "mean_y"), ("ci_low", "ci95_low"), ("ci_high", "ci95_high")]:
                self.assertLess(((full[a] - full[b]).abs()).max(), 1e-9, a)
            self.assertIn("flows.0.rtt_s", r.stdout)


if __name__ == "__main__":
    unittest.main()
