#!/usr/bin/env bash
# test.sh — runs the whole test suite on the build in ./build (scripts/setup.sh makes it).
# Tests that need ../shared (fixtures, goldens) or a GPU skip with a message when it is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --build build
ctest --test-dir build --output-on-failure -j "$(nproc)" "$@"
