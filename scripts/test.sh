#!/usr/bin/env bash
# Sets up, builds, and runs the whole test suite (GPU strategies run on the
# software Vulkan device when there is no GPU); then the AddressSanitizer and
# UndefinedBehaviorSanitizer build's tests (scripts/sanitize.sh) and each
# fuzz target for GPUHIST_FUZZ_SECONDS (default 15; scripts/fuzz.sh).
# Usage: scripts/test.sh [--long]   (--long: also the tests labelled long,
# such as every setting of the gpu strategy's knobs)
set -euo pipefail
cd "$(dirname "$0")/.."
labels=(-LE long)
[ "${1:-}" = "--long" ] && labels=()
scripts/setup.sh
scripts/build.sh
ctest --test-dir build --output-on-failure --parallel "$(nproc)" --timeout 1500 "${labels[@]}"
scripts/sanitize.sh
scripts/fuzz.sh "${GPUHIST_FUZZ_SECONDS:-15}"
