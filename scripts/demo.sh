#!/usr/bin/env bash
# Sets up, builds, and runs gpuhist on the bundled sample photograph with the
# best device available (a hardware GPU if there is one).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
build/gpuhist devices
echo
build/gpuhist compute data/coffee.png
