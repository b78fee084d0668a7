#!/usr/bin/env bash
# install_python.sh [VENV] — installs the Python package `vq` (distribution vq-video-quality) into
# the virtual environment VENV (default: .venv in the repository), making it first with Debian's
# python3 and its site packages (numpy, pandas), then building the native module with CMake.
# Offline: no package index, no build isolation, no dependency downloads.
#   scripts/install_python.sh ~/vq-env && ~/vq-env/bin/python -c 'import vq; help(vq.score)'
set -euo pipefail
repository=$(cd "$(dirname "$0")/.." && pwd)
venv=$(realpath -m "${1:-$repository/.venv}")
[ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv --system-site-packages "$venv"
"$venv/bin/python" -m pip install --no-build-isolation --no-deps --no-index "$repository"
"$venv/bin/python" -c 'import vq; print(f"vq {vq.__version__} installed in '"$venv"'")'
