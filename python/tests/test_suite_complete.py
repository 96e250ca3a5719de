"""Every test module of python/tests is run by one of the ctest entries in
tests/CMakeLists.txt (they list modules, so that the tools tests run in parallel)."""

import os
import re
import unittest

from .support import REPO


class SuiteTest(unittest.TestCase):
    def test_every_module_is_registered(self):
        with open(os.path.join(REPO, "tests", "CMakeLists.txt")) as f:
            registered = set(re.findall(r"\btests\.(test_\w+)", f.read()))
        here = {n[:-3] for n in os.listdir(os.path.dirname(__file__)) if re.fullmatch(r"test_\w+\.py", n)}
        self.assertEqual(here - registered, set(), "add these to a ctest entry in tests/CMakeLists.txt")
