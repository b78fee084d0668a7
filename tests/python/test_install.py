"""scripts/install_python.sh: pip builds and installs the package into a fresh venv, offline, and
the installed package scores. It compiles the whole library (about 10 minutes on 2 cores without
ccache; about a minute with a warm one), so it runs only when asked: VQ_TEST_PIP_INSTALL=1."""

import os
import subprocess
import sys

import pytest

from conftest import REPOSITORY


@pytest.mark.skipif(os.environ.get("VQ_TEST_PIP_INSTALL") != "1",
                    reason="rebuilds the library through pip; set VQ_TEST_PIP_INSTALL=1 to run it")
def test_install_script_makes_a_venv_that_scores(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([str(REPOSITORY / "scripts" / "install_python.sh"), str(venv)], check=True)
    script = (
        "import numpy as np, vq\n"
        "video = vq.VideoFormat(64, 48)\n"
        "frame = np.arange(64 * 72, dtype=np.uint8).reshape(72, 64)\n"
        "result = vq.score([frame] * 3, [frame] * 3, format=video, features=['psnr'])\n"
        "print(vq.__file__, result.pooled['psnr_y']['mean'])\n")
    done = subprocess.run([str(venv / "bin" / "python"), "-c", script], check=True,
                          capture_output=True, text=True, cwd=tmp_path)
    installed, psnr = done.stdout.split()
    assert installed.startswith(str(venv))
    assert float(psnr) == 60.0  # identical frames: PSNR's cap for 8-bit
