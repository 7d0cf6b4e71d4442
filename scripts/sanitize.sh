#!/usr/bin/env bash
# Builds gpuhist with clang, AddressSanitizer and UndefinedBehaviorSanitizer
# (and the fuzzer's instrumentation: the same tree builds the fuzz targets,
# scripts/fuzz.sh) into build-asan/ and runs the test programs labelled
# `sanitize` there (those that
# need no software GPU: the CPU paths, files, video decoding and the command
# line; and the Python module's tests). Reports go to files, since decoders run with stderr silenced; any
# report fails the run. Usage: scripts/sanitize.sh
set -euo pipefail
cd "$(dirname "$0")/.."
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
command -v clang++ >/dev/null || { echo "sanitize.sh: clang++ is not installed (scripts/setup.sh)" >&2; exit 1; }
if [ ! -f build-asan/CMakeCache.txt ]; then
  cmake -S . -B build-asan "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++ -DGPUHIST_FUZZ=ON >/dev/null
else
  cmake -S . -B build-asan >/dev/null  # the tests of this tree's sources, listed below
fi
# Each test is named after its program, but for the Python module's.
programs=$(ctest --test-dir build-asan -N -L sanitize 2>/dev/null | sed -n 's/^ *Test *#[0-9]*: //p' |
  sed 's/_decode$//; s/^test_python_sanitized$/_gpuhist gpuhist_images/' | sort -u)
cmake --build build-asan --parallel "$(nproc)" --target gpuhist_app $programs >/dev/null
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
# Reports name functions and lines (clang's runtime needs llvm-symbolizer).
symbolizer=$(command -v llvm-symbolizer || ls /usr/lib/llvm-*/bin/llvm-symbolizer 2>/dev/null | head -1 || true)
[ -n "$symbolizer" ] && export ASAN_SYMBOLIZER_PATH="$symbolizer"
# alloc_dealloc_mismatch=0: OpenImageIO 2.4's OpenEXRCore reader frees the
# buffers it reads scanline chunks into with delete where it made them with
# new[] (one-byte elements: the same glibc free either way); gpuhist's own
# code is held to matching pairs by -Wmismatched-new-delete (part of -Wall).
export ASAN_OPTIONS="log_path=$logs/asan:exitcode=99:detect_leaks=0:abort_on_error=0:alloc_dealloc_mismatch=0"
export UBSAN_OPTIONS="log_path=$logs/ubsan:print_stacktrace=1:halt_on_error=1"
status=0
ctest --test-dir build-asan --output-on-failure --parallel "$(nproc)" --timeout 1500 -L sanitize ||
  status=1
# A decoder of an opt-in format that fails inside the decoding worker is
# fenced by design (the file is reported, the batch goes on): its report
# counts only when the fault lies in gpuhist's own code.
for log in "$logs"/*; do
  [ -e "$log" ] || continue
  # Frame #1 is the code that faulted (#0 may be a sanitizer's interceptor).
  if grep -q "run_decode_worker" "$log" && ! grep -m1 -E "^ +#1 " "$log" | grep -q "$PWD/"; then
    echo "sanitize.sh: a decoder fault fenced in the decoding worker, as expected:" \
      "$(grep -m1 -E '^ +#1 ' "$log" | sed 's/^ *//')"
    rm -f "$log"
  fi
done
if [ -n "$(ls -A "$logs")" ]; then
  echo "sanitize.sh: the sanitizers reported:" >&2
  cat "$logs"/* >&2
  status=1
fi
[ $status -eq 0 ] && echo "sanitize.sh: no sanitizer report"
exit $status
