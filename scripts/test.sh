#!/usr/bin/env bash
# Sets up, builds, and runs the whole test suite (GPU strategies run on the
# software Vulkan device when there is no GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
ctest --test-dir build --output-on-failure --parallel "$(nproc)" --timeout 1500
