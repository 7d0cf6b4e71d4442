#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (AddressSanitizer and
# UndefinedBehaviorSanitizer on everything) into build-asan/, the tree
# scripts/sanitize.sh builds, and runs each for SECONDS (default 60) from its
# seed corpus (tests/fuzz/corpus/), all at once (on fewer cores than targets
# they share the cores for those SECONDS of wall time). Fails
# on any finding, whose input is kept in build-asan/findings/TARGET/.
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
# Each target once (two runs of one would share its log and work corpus).
targets=()
for target in "$@"; do
  [[ " ${targets[*]} " == *" $target "* ]] || targets+=("$target")
done
if [ ${#targets[@]} -eq 0 ]; then
  targets=(image video options)
  [ $heap = 1 ] && targets=(image video)  # the options reach no decoder
fi
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ is not installed (scripts/setup.sh)" >&2; exit 1; }
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f $tree/CMakeCache.txt ]; then
  options=()
  [ $heap = 1 ] && options=(-DGPUHIST_FUZZ_SANITIZERS=OFF -DGPUHIST_BUILD_TESTS=OFF)
  cmake -S . -B $tree "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++ -DGPUHIST_FUZZ=ON "${options[@]}" >/dev/null
fi
cmake --build $tree --parallel "$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null
run_env=(env ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:alloc_dealloc_mismatch=0
         UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1)
if [ $heap = 1 ]; then
  # glibc's debugging malloc from beside the C library the targets load (a
  # preload of another architecture's would be skipped without a word).
  libc=$(ldd "$tree/fuzz/fuzz_${targets[0]}" | awk '$1 == "libc.so.6" { print $3 }')
  malloc_debug=$(dirname "${libc:-/nonexistent/libc.so.6}")/libc_malloc_debug.so.0
  [ -f "$malloc_debug" ] || { echo "fuzz.sh: glibc's libc_malloc_debug.so.0 is missing" >&2; exit 1; }
  run_env=(env LD_PRELOAD="$malloc_debug" GLIBC_TUNABLES=glibc.malloc.check=3)
  # The checks are on: a block written past its end aborts when freed.
  probe=$(mktemp)
  printf '#include <stdlib.h>\n#include <string.h>\nint main(void){char*p=malloc(24);memset(p,1,32);free(p);return 0;}\n' >"$probe.c"
  if cc -O0 "$probe.c" -o "$probe" 2>/dev/null && { "${run_env[@]}" "$probe"; } >/dev/null 2>&1; then
    rm -f "$probe" "$probe.c"
    echo "fuzz.sh: glibc's malloc checks did not catch a planted overrun" >&2
    exit 1
  fi
  rm -f "$probe" "$probe.c"
fi
extra=()
[ $heap = 1 ] && extra=(-handle_abrt=0)
# One target's run and its report; false on a finding.
fuzz_target() {
  local target=$1 work findings log pid code=0 runs input kept
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
  wait $pid || code=$?
  # The target's own copy of the input it was reading (image and video targets).
  local copies=(/dev/shm/gpuhist-fuzz-$target-$pid /dev/shm/gpuhist-fuzz-$target-$pid.tga)
  if [ $code = 0 ]; then
    rm -f "${copies[@]}"
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    echo "fuzz.sh: $target: $runs runs in ${seconds} s, no finding"
    return 0
  fi
  # glibc aborted (SIGABRT, 134), which libFuzzer was told to leave alone: keep the input.
  if [ $heap = 1 ] && [ $code = 134 ]; then
    for input in "${copies[@]}"; do
      [ -f "$input" ] || continue
      kept="$findings/abort-$(sha1sum "$input" | cut -c1-40)"
      mv "$input" "$kept"
      printf "\nfuzz.sh: %s: aborted on the input now in %s\n" "$target" "$kept" >>"$log"
    done
  fi
  rm -f "${copies[@]}"
  echo "fuzz.sh: $target: FINDING (inputs in $findings/, log $log):" >&2
  grep -aE "ERROR|SUMMARY|runtime error|deadly signal|Test unit written|free\(\)|malloc\(\)|aborted on" \
    "$log" | head -20 >&2
  return 1
}

# The targets side by side (each fuzzer runs on one thread), each for SECONDS.
status=0
pids=()
# (Background jobs ignore an interrupt: the runs stop with this script.)
trap 'kill "${pids[@]}" 2>/dev/null; exit 130' INT TERM
for target in "${targets[@]}"; do
  fuzz_target "$target" &
  pids+=($!)
done
for pid in "${pids[@]}"; do
  wait "$pid" || status=1
done
exit $status
