"""Shared by the Python package's tests (run by ctest as python.test_*; see python/CMakeLists.txt).

They import the package from the build tree (PYTHONPATH=build/python) and skip, saying why, when
numpy or the built module is missing, and the golden tests when ../shared is absent."""

import fcntl
import os
import subprocess
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="numpy is not installed (python3-numpy)")
try:
    import vq  # noqa: F401
except ImportError as missing:
    pytest.skip(f"the vq module is not importable ({missing}); build with -DVQ_PYTHON=ON and "
                "put build/python on PYTHONPATH", allow_module_level=True)

REPOSITORY = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("VQ_TEST_BUILD_DIR", REPOSITORY / "build"))
SHARED = Path(os.environ.get("VQ_TEST_SHARED_DIR", REPOSITORY.parent / "shared"))


def pytest_sessionfinish(session, exitstatus):
    # Every test of the run skipped: exit 77, which ctest reports as skipped (SKIP_RETURN_CODE).
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter and exitstatus == 0 and reporter.stats.get("skipped") and not reporter.stats.get("passed"):
        session.exitstatus = 77


@pytest.fixture(scope="session")
def fixtures() -> Path:
    """../shared's clips unpacked where the C++ tests unpack them (build/tests/fixtures), under the
    same lock and checksum stamp (tests/test_support.cpp), so that the two suites share one copy."""
    manifest = SHARED / "fixtures" / "MANIFEST.sha256"
    if not manifest.exists():
        pytest.skip(f"{SHARED}/fixtures not found: golden test skipped")
    dest = BUILD / "tests" / "fixtures"
    dest.parent.mkdir(parents=True, exist_ok=True)
    with open(str(dest) + ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamp = dest / ".verified"
        if not (stamp.exists() and stamp.stat().st_mtime >= manifest.stat().st_mtime):
            subprocess.run([str(SHARED / "fixtures" / "unpack.sh"), str(dest)], check=True,
                           stdout=subprocess.DEVNULL)
            stamp.write_text("\n")
    return dest


@pytest.fixture(scope="session")
def golden_dir() -> Path:
    if not (SHARED / "golden").is_dir():
        pytest.skip(f"{SHARED}/golden not found: golden test skipped")
    return SHARED / "golden"
