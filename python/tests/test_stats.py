"""Student-t quantiles and the mean/CI summary against Boost.Math's values (which
fastsim collect uses) and by hand."""

import math
import unittest

import pandas as pd

from fastsim_results import mean_ci, summarize, t_quantile


class TQuantileTest(unittest.TestCase):
    def test_known_values(self):
        # boost::math::quantile(students_t(df), p)
        for p, df, q in [(0.975, 1, 12.706204736174694), (0.975, 4, 2.7764451051977934),
                         (0.975, 2, 4.3026527297494619), (0.995, 10, 3.1692726726169509),
                         (0.975, 100, 1.9839715185235518), (0.9, 3, 1.6377443536962104),
                         (0.975, 2999, 1.9607553192053149)]:
            self.assertAlmostEqual(t_quantile(p, df), q, delta=q * 1e-12, msg=f"t({p}, {df})")

    def test_symmetry_and_bad_input(self):
        self.assertAlmostEqual(t_quantile(0.025, 4), -2.7764451051977987, delta=1e-12)
        self.assertEqual(t_quantile(0.5, 7), 0.0)
        for p in (0.0, 1.0, 1.5):
            with self.assertRaises(ValueError):
                t_quantile(p, 3)
        with self.assertRaises(ValueError):
            t_quantile(0.9, 0)


class MeanCiTest(unittest.TestCase):
    def test_as_collect(self):
        # The values of sweep_test's aggregation case: 1..5.
        n, mean, sd, lo, hi = mean_ci([1, 2, 3, 4, 5])
        self.assertEqual(n, 5)
        self.assertAlmostEqual(mean, 3.0)
        self.assertAlmostEqual(sd, 1.5811388300841898, places=14)
        self.assertAlmostEqual(hi, 3 + 2.7764451051977987 * 1.5811388300841898 / math.sqrt(5), places=12)
        self.assertAlmostEqual(lo, 3 - 2.7764451051977987 * 1.5811388300841898 / math.sqrt(5), places=12)

    def test_one_value_and_missing(self):
        n, mean, sd, lo, hi = mean_ci([4.0, float("nan"), None])
        self.assertEqual((n, mean), (1, 4.0))
        self.assertTrue(math.isnan(sd) and math.isnan(lo) and math.isnan(hi))
        self.assertEqual(mean_ci([])[0], 0)

    def test_summarize_groups_in_numeric_order(self):
        df = pd.DataFrame({"rtt_s": [0.1, 0.02, 0.1, 0.02], "x": [1.0, 10.0, 3.0, 12.0]})
        t = summarize(df, "x", "rtt_s")
        self.assertEqual(t["rtt_s"].tolist(), [0.02, 0.1])
        self.assertEqual(t["mean"].tolist(), [11.0, 2.0])
        self.assertEqual(t["n"].tolist(), [2, 2])
        self.assertAlmostEqual(t["ci_high"][0] - 11.0, 12.706204736174707 * math.sqrt(2) / math.sqrt(2), places=9)


if __name__ == "__main__":
    unittest.main()
