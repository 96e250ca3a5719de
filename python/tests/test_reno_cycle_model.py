"""tools/reno-cycle-model: without its two costs the loss-cycle model reproduces the
random-loss response function 1.3098 / sqrt(p) (Ott, Kemperman, Mathis 1996); each cost
lowers the mean window, both together by about a percent at p = 1e-3; out-of-range
arguments are refused with exit code 2."""

import importlib.machinery
import importlib.util
import math
import os
import subprocess
import sys
import unittest

from .support import TOOLS


def load_model():
    path = os.path.join(TOOLS, "reno-cycle-model")
    loader = importlib.machinery.SourceFileLoader("reno_cycle_model", path)
    spec = importlib.util.spec_from_loader("reno_cycle_model", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


class RenoCycleModelTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.model = load_model()
        p = 1e-3
        cls.limit = 1.3098 / math.sqrt(p)
        cls.w = {(lag, rec): cls.model.mean_window(p, lag, rec, cycles=200_000, seed=1)
                 for lag in (False, True) for rec in (False, True)}

    def test_ideal_process_gives_the_random_loss_response_function(self):
        self.assertAlmostEqual(self.w[(False, False)] / self.limit, 1.0, delta=0.005)

    def test_each_cost_lowers_the_window_and_both_by_about_a_percent(self):
        ideal = self.w[(False, False)]
        self.assertLess(self.w[(True, False)], ideal)
        self.assertLess(self.w[(False, True)], ideal)
        both = self.w[(True, True)] / self.limit - 1
        self.assertLess(both, -0.005)
        self.assertGreater(both, -0.02)

    def test_out_of_range_arguments_are_refused(self):
        for args in (["0"], ["1.5"], ["--cycles", "0", "1e-3"]):
            r = subprocess.run([sys.executable, os.path.join(TOOLS, "reno-cycle-model"), *args], capture_output=True, text=True)
            self.assertEqual(r.returncode, 2, args)
            self.assertIn("must", r.stderr)


if __name__ == "__main__":
    unittest.main()
