#!/bin/sh
# Runs gpuhist under valgrind's memcheck on small clips and pictures of shapes
# whose rows FFmpeg's scaler once overran, and the fuzz targets' seed corpora
# (every image format read by default, the clips, the inputs that once broke
# gpuhist) through their entry points; fails on any error memcheck reports.
# memcheck sees into the decoders' hand-written assembly, which
# AddressSanitizer does not instrument.
# Each run costs a few seconds of start-up under memcheck, so they are few;
# glibc's malloc checks cover every shape in the other tests.
# Usage: tests/memcheck.sh GPUHIST_BINARY SOURCE_DIR [REPLAY_DIR [HWY_TIMER_SHIM]]
#   REPLAY_DIR holds replay_image and replay_video (tests/fuzz/replay.cpp);
#   HWY_TIMER_SHIM is tests/support/valgrind_hwy_timer.cpp built as a module.
set -u
gpuhist=$1
source_dir=$2
replay_dir=${3:-}
shim=${4:-}
command -v valgrind >/dev/null || { echo "memcheck.sh: valgrind is not installed" >&2; exit 1; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
make_clip() {  # NAME SOURCE ENCODING...
  name=$1 source=$2
  shift 2
  ffmpeg -nostdin -loglevel error -y -f lavfi -i "testsrc2=$source" -frames:v 2 "$@" "$dir/$name" ||
    { echo "memcheck.sh: ffmpeg could not make $name" >&2; exit 1; }
}
make_clip c420.mp4 size=360x240:rate=10 -pix_fmt yuv420p -c:v libx264 -preset ultrafast
make_clip c422.mp4 size=362x204:rate=10 -pix_fmt yuv422p -c:v libx264 -preset ultrafast
make_clip c10.mkv size=98x54:rate=10 -pix_fmt yuv420p10le -c:v libx264 -preset ultrafast
# Clips a phone writes: declaring Rec. 709 (full range) or Rec. 2020 (10-bit), turned by a
# display matrix.
make_clip c709.mp4 size=362x204:rate=10 -pix_fmt yuv420p -colorspace bt709 -color_range pc \
  -c:v libx264 -preset ultrafast
make_clip c2020.mp4 size=98x54:rate=10 -pix_fmt yuv420p10le -colorspace bt2020nc \
  -color_primaries bt2020 -color_trc arib-std-b67 -c:v libx264 -preset ultrafast
# A raw H.264 stream (no times) of 16:15 pixels; a clip with AAC audio.
make_clip raw.h264 size=98x54:rate=10 -vf setsar=16/15 -c:v libx264 -preset ultrafast
ffmpeg -nostdin -loglevel error -y -f lavfi -i testsrc2=size=98x54:rate=10 -f lavfi -i sine \
  -frames:v 2 -t 0.2 -c:v libx264 -preset ultrafast -c:a aac "$dir/aac.mp4" ||
  { echo "memcheck.sh: ffmpeg could not make aac.mp4" >&2; exit 1; }
for clip in c709 c2020; do
  ffmpeg -nostdin -loglevel error -y -i "$dir/$clip.mp4" -c copy -metadata:s:v:0 rotate=90 \
    "$dir/turned-$clip.mp4" || { echo "memcheck.sh: ffmpeg could not turn $clip" >&2; exit 1; }
done
preload=
# valgrind 3.19 cannot run an instruction that libhwy (loaded through libjxl by
# FFmpeg and OpenImageIO) executes as it is loaded, on some processors
# (rdtscp on AMD family 26): the process dies of SIGILL before main. That is
# this machine's valgrind, not a finding: the shim replaces that one function
# of libhwy's (its timer's resolution) and every other instruction runs under
# memcheck. Without the shim the test is skipped (ctest's status 77), saying so.
# The probe decodes a clip: FFmpeg's libraries (and libhwy with them) are
# loaded by then, however late the program loads them. The run that passes is
# the first check (a clip of 4:2:0 frames counted).
probe() {  # PRELOAD
  LD_PRELOAD=$1 valgrind -q --error-exitcode=99 --log-file="$dir/probe.log" "$gpuhist" video \
    "$dir/c420.mp4" --device cpu --no-progress >/dev/null 2>"$dir/probe.err"
}
libhwy_sigill() {
  grep -q "Illegal opcode" "$dir/probe.log" &&
    grep -A1 "Illegal opcode" "$dir/probe.log" | grep -q "libhwy"
}
probe_failed() {
  echo "memcheck.sh: video yuv420p 360x240 failed" >&2
  cat "$dir/probe.err" "$dir/probe.log" >&2
  exit 1
}
if ! probe ""; then
  libhwy_sigill || probe_failed
  shimmed=1
  [ -n "$shim" ] && probe "$shim" && shimmed=0
  if [ -z "$shim" ] || { [ $shimmed -ne 0 ] && libhwy_sigill; }; then
    echo "memcheck.sh: SKIPPED: valgrind cannot run this processor's code in a library gpuhist" \
      "loads (glibc's malloc checks still cover the decoders):" >&2
    grep -m 2 -E "Illegal opcode|at 0x" "$dir/probe.log" >&2
    exit 77
  fi
  [ $shimmed -ne 0 ] && probe_failed
  preload=$shim
  echo "memcheck.sh: libhwy's timer start-up replaced by $shim (valgrind cannot run its rdtscp here)"
fi
[ -s "$dir/probe.log" ] && probe_failed
echo "memcheck.sh: video yuv420p 360x240: clean"
status=0
check() {  # LABEL ARGS...
  label=$1
  shift
  if ! LD_PRELOAD=$preload valgrind -q --error-exitcode=99 --log-file="$dir/valgrind.log" "$@" \
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
check "video --overlay yuv422p 362x204" "$gpuhist" video "$dir/c422.mp4" --overlay -o "$dir/o.mp4" \
  --device cpu --no-progress
# Frames two pixels wide: the scaler reads past their last column.
check "video --overlay at 2x2" "$gpuhist" video "$dir/c420.mp4" --overlay --size 2x2 \
  -o "$dir/o2.mkv" --device cpu --no-progress
# Frames converted with their declared matrix and turned upright (8- and 16-bit RGB),
# written back with the matrix.
check "video --overlay of a turned Rec. 709 full-range clip" "$gpuhist" video \
  "$dir/turned-c709.mp4" --overlay -o "$dir/o709.mp4" --device cpu --no-progress
check "video --adjust of a turned 10-bit Rec. 2020 clip" "$gpuhist" video \
  "$dir/turned-c2020.mp4" --adjust equalize -o "$dir/o2020.mkv" --device cpu --no-progress
# Frames timed by their rate, pixels' shape and audio written into MPEG-TS.
check "video --overlay of a raw H.264 stream" "$gpuhist" video "$dir/raw.h264" --overlay \
  -o "$dir/raw.mkv" --device cpu --no-progress
check "video --overlay with AAC audio into MPEG-TS" "$gpuhist" video "$dir/aac.mp4" --overlay \
  -o "$dir/aac.ts" --device cpu --no-progress
# Y'CbCr planes counted in the decoder's own frames (8-bit), and copied (10-bit).
# (A JPEG's planes, counted after its reader is gone: the image corpus's replay.)
check "video --space ycbcr yuv420p 360x240" "$gpuhist" video "$dir/c420.mp4" --space ycbcr \
  --device cpu --no-progress
check "video --space ycbcr yuv420p10le 98x54" "$gpuhist" video "$dir/c10.mkv" --space ycbcr \
  --device cpu --no-progress
# (JPEGs are read below, as every test's sources are.)
check "compute and --plot of a PNG" "$gpuhist" compute "$source_dir/data/coffee.png" \
  --plot "$dir/plot.png" --device cpu --no-progress
# A PNG read and a histogram written to PNG by libpng in the io layer (no module).
check "draw a PNG's histogram into a PNG" "$gpuhist" draw "$source_dir/data/coffee.png" \
  -o "$dir/drawn.png" --device cpu
# Adjusted images written by libjpeg and libpng in the io layer, with their sources' metadata.
check "equalize a JPEG into a JPEG" "$gpuhist" equalize "$source_dir/data/rocket.jpg" \
  -o "$dir/equalized.jpg" --device cpu
check "equalize a PNG into a PNG" "$gpuhist" equalize "$source_dir/data/coffee.png" \
  -o "$dir/equalized.png" --device cpu
if [ -n "$replay_dir" ]; then
  # (which also writes each seed's pixels with its metadata kept: JPEG and PNG as bytes,
  # TIFF and the others through the encoder's attributes; and reads each JPEG's planes)
  check "the image seed corpus through fuzz_image's entry point" "$replay_dir/replay_image" \
    "$source_dir/tests/fuzz/corpus/image" "$source_dir/tests/fuzz/regressions"
  check "the video seed corpus through fuzz_video's entry point" "$replay_dir/replay_video" \
    "$source_dir/tests/fuzz/corpus/video"
fi
exit $status
