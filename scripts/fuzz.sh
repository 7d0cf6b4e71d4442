#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (AddressSanitizer and
# UndefinedBehaviorSanitizer on everything) into build-asan/, the tree
# scripts/sanitize.sh builds, and runs each for SECONDS (default 60) from its
# seed corpus (tests/fuzz/corpus/). Fails on any finding, whose input is kept
# in build-asan/findings/TARGET/.
#
# --heap-checks: the targets with the fuzzer's instrumentation alone (in
# build-fuzz-heap/), run under glibc's malloc checks, which abort when a
# buffer written past its end is freed: they see what the decoders' own
# uninstrumented code (OpenImageIO, libtiff, FFmpeg's assembly) writes past a
# buffer, which AddressSanitizer's redzones absorb unseen. glibc aborts with
# its allocator locked, where libFuzzer's crash report would wait forever, so
# libFuzzer leaves SIGABRT alone and this script keeps the input the target
# was reading (its file in /dev/shm) as findings/TARGET/abort-SHA1. The
# working corpus is build-asan's. Default targets: image video.
# Usage: scripts/fuzz.sh [--heap-checks] [SECONDS] [TARGET...]   (targets: image video options)
set -euo pipefail
cd "$(dirname "$0")/.."
tree=build-asan
heap=0
if [ "${1:-}" = "--heap-checks" ]; then
  heap=1
  tree=build-fuzz-heap
  shift
fi
seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(image video options)
  [ $heap = 1 ] && targets=(image video)  # the options reach no decoder
fi
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ is not installed (scripts/setup.sh)" >&2; exit 1; }
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f $tree/CMakeCache.txt ]; then
  sanitizers=ON
  [ $heap = 1 ] && sanitizers=OFF
  cmake -S . -B $tree "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++ -DGPUHIST_FUZZ=ON -DGPUHIST_FUZZ_SANITIZERS=$sanitizers \
    >/dev/null
fi
cmake --build $tree --parallel "$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null
run_env=(env ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:alloc_dealloc_mismatch=0
         UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1)
if [ $heap = 1 ]; then
  malloc_debug=$(ls /usr/lib/*/libc_malloc_debug.so.0 /lib/*/libc_malloc_debug.so.0 2>/dev/null |
    head -1 || true)
  [ -n "$malloc_debug" ] || { echo "fuzz.sh: glibc's libc_malloc_debug.so.0 is missing" >&2; exit 1; }
  run_env=(env LD_PRELOAD="$malloc_debug" GLIBC_TUNABLES=glibc.malloc.check=3)
fi
extra=()
[ $heap = 1 ] && extra=(-handle_abrt=0)
status=0
for target in "${targets[@]}"; do
  work=build-asan/corpus/$target
  findings=$tree/findings/$target
  mkdir -p "$work" "$findings"
  log=$tree/fuzz-$target.log
  # New inputs go to the work corpus; the committed seeds are read only.
  # alloc_dealloc_mismatch=0: as in scripts/sanitize.sh (OpenImageIO's OpenEXRCore reader).
  "${run_env[@]}" $tree/fuzz/fuzz_$target "$work" "tests/fuzz/corpus/$target" \
    -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
    -artifact_prefix="$findings/" "${extra[@]}" >"$log" 2>&1 &
  pid=$!
  if wait $pid; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    echo "fuzz.sh: $target: $runs runs in ${seconds} s, no finding"
  else
    # An abort libFuzzer did not handle: the target's own copy of the input.
    for input in /dev/shm/gpuhist-fuzz-$target-$pid*; do
      [ -f "$input" ] || continue
      kept="$findings/abort-$(sha1sum "$input" | cut -c1-40)"
      mv "$input" "$kept"
      printf "\nfuzz.sh: %s: aborted on the input now in %s\n" "$target" "$kept" >>"$log"
    done
    echo "fuzz.sh: $target: FINDING (inputs in $findings/, log $log):" >&2
    grep -aE "ERROR|SUMMARY|runtime error|deadly signal|Test unit written|free\(\)|malloc\(\)|aborted on" \
      "$log" | head -20 >&2
    status=1
  fi
done
exit $status
