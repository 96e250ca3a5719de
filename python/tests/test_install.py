"""pip installs the package from a copy of the checkout's python/ (no network, Debian's
setuptools), and the installed copy imports."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from .support import REPO


class InstallTest(unittest.TestCase):
    def test_pip_install_from_checkout(self):
        for module in ("pip", "setuptools"):
            if subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True).returncode:
                self.skipTest(f"no {module} for {sys.executable} (Debian: python3-{module}; tools/setup)")
        with tempfile.TemporaryDirectory(prefix="fastsim-py-pip-") as tmp:
            # A copy: building writes build/ and *.egg-info next to the sources.
            src = os.path.join(tmp, "src")
            shutil.copytree(os.path.join(REPO, "python"), src,
                            ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info", "tests"))
            site = os.path.join(tmp, "site")
            r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps",
                                "--no-index", "--disable-pip-version-check", "--target", site, src],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            r = subprocess.run([sys.executable, "-c", "import fastsim_results as f; f.load_sweep; print(f.__file__)"],
                               cwd=tmp, env=dict(os.environ, PYTHONPATH=site), capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertTrue(r.stdout.strip().startswith(site), r.stdout)


if __name__ == "__main__":
    unittest.main()
