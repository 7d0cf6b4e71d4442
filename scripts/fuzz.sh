#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (AddressSanitizer and
# UndefinedBehaviorSanitizer on everything) into build-asan/, the tree
# scripts/sanitize.sh builds, and runs each for SECONDS (default 60) from its
# seed corpus (tests/fuzz/corpus/). Fails on any finding, whose input is kept
# in build-asan/findings/TARGET/.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (targets: image video options)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(image video options)
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ is not installed (scripts/setup.sh)" >&2; exit 1; }
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f build-asan/CMakeCache.txt ]; then
  cmake -S . -B build-asan "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++ -DGPUHIST_FUZZ=ON >/dev/null
fi
cmake --build build-asan --parallel "$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null
status=0
for target in "${targets[@]}"; do
  work=build-asan/corpus/$target
  findings=build-asan/findings/$target
  mkdir -p "$work" "$findings"
  log=build-asan/fuzz-$target.log
  # New inputs go to the work corpus; the committed seeds are read only.
  # alloc_dealloc_mismatch=0: as in scripts/sanitize.sh (OpenImageIO's OpenEXRCore reader).
  if ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:alloc_dealloc_mismatch=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    build-asan/fuzz/fuzz_$target "$work" "tests/fuzz/corpus/$target" \
      -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
      -artifact_prefix="$findings/" >"$log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    echo "fuzz.sh: $target: $runs runs in ${seconds} s, no finding"
  else
    echo "fuzz.sh: $target: FINDING (inputs in $findings/, log $log):" >&2
    grep -E "ERROR|SUMMARY|runtime error|deadly signal|Test unit written" "$log" | head -20 >&2
    status=1
  fi
done
exit $status
