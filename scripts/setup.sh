#!/usr/bin/env bash
# setup.sh — installs vq's build dependencies from Debian's packages and builds vq (Release) in
# ./build. CUDA is used when nvcc is found (/usr/local/cuda or PATH); the build works without it.
# FFmpeg's libraries (container input) and the ffmpeg binary (the tests' clips) are optional too,
# and so is chromium (the HTML report's browser test skips without it); so are pybind11 and numpy
# (the Python package, build/python).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ pkg-config xz-utils libcli11-dev nlohmann-json3-dev
          libfmt-dev libgtest-dev libgmock-dev libbenchmark-dev libpng-dev
          libavformat-dev libavcodec-dev libavutil-dev libswscale-dev ffmpeg
          python3-dev pybind11-dev python3-numpy python3-pytest python3-pandas  # the Python package
          python3-venv python3-pip python3-setuptools python3-wheel  # scripts/install_python.sh
          python3-distributed python3-tqdm  # vq.dask and its tests
          chromium)  # chromium: the HTML report's browser test (tests/html_report_test.cpp)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# ccache, where a developer has it, makes rebuilds in fresh clones cheap; CI does not install it.
launchers=()
command -v ccache > /dev/null && launchers=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${launchers[@]}" "$@"
cmake --build build
