#!/bin/sh
# Runs gpuhist under valgrind's memcheck on small clips and pictures of shapes
# whose rows FFmpeg's scaler once overran, and fails on any error it reports:
# memcheck sees into the decoders' hand-written assembly, which
# AddressSanitizer does not instrument.
# Each run costs about ten seconds of start-up under memcheck, so they are few;
# glibc's malloc checks cover every shape in the other tests.
# Usage: tests/memcheck.sh GPUHIST_BINARY SOURCE_DIR
set -u
gpuhist=$1
source_dir=$2
command -v valgrind >/dev/null || { echo "memcheck.sh: valgrind is not installed" >&2; exit 1; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
# valgrind 3.19 cannot run some processors' instructions that libraries
# OpenImageIO loads execute as they start (libhwy's rdtscp on AMD family 26):
# the process dies of SIGILL before main. That is this machine's valgrind, not
# a finding, so the test is skipped (ctest's status 77) saying so.
if ! valgrind -q --log-file="$dir/probe.log" "$gpuhist" --version >/dev/null 2>&1; then
  # Only an instruction in libhwy (loaded by OpenImageIO) before main: one of
  # gpuhist's own would be a finding.
  if grep -q "Illegal opcode" "$dir/probe.log" &&
    grep -A1 "Illegal opcode" "$dir/probe.log" | grep -q "libhwy"; then
    echo "memcheck.sh: SKIPPED: valgrind cannot run this processor's code in a library gpuhist" \
      "loads (glibc's malloc checks still cover the decoders):" >&2
    grep -m 2 -E "Illegal opcode|at 0x" "$dir/probe.log" >&2
    exit 77
  fi
  echo "memcheck.sh: gpuhist --version failed under valgrind:" >&2
  cat "$dir/probe.log" >&2
  exit 1
fi
make_clip() {  # NAME SOURCE ENCODING...
  name=$1 source=$2
  shift 2
  ffmpeg -nostdin -loglevel error -y -f lavfi -i "testsrc2=$source" -frames:v 2 "$@" "$dir/$name" ||
    { echo "memcheck.sh: ffmpeg could not make $name" >&2; exit 1; }
}
make_clip c420.mp4 size=360x240:rate=10 -pix_fmt yuv420p -c:v libx264 -preset ultrafast
make_clip c422.mp4 size=362x204:rate=10 -pix_fmt yuv422p -c:v libx264 -preset ultrafast
status=0
check() {  # LABEL ARGS...
  label=$1
  shift
  if ! valgrind -q --error-exitcode=99 --log-file="$dir/valgrind.log" "$gpuhist" "$@" \
    >/dev/null 2>"$dir/stderr"; then
    echo "memcheck.sh: $label failed" >&2
    cat "$dir/stderr" "$dir/valgrind.log" >&2
    status=1
  elif [ -s "$dir/valgrind.log" ]; then
    echo "memcheck.sh: $label: valgrind reported" >&2
    cat "$dir/valgrind.log" >&2
    status=1
  else
    echo "memcheck.sh: $label: clean"
  fi
}
check "video yuv420p 360x240" video "$dir/c420.mp4" --device cpu --no-progress
check "video --overlay yuv422p 362x204" video "$dir/c422.mp4" --overlay -o "$dir/o.mp4" \
  --device cpu --no-progress
check "compute and --plot of a JPEG and a PNG" compute "$source_dir/data/rocket.jpg" \
  "$source_dir/data/coffee.png" --plot "$dir/plot.png" --device cpu --no-progress
exit $status
