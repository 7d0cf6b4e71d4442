#!/usr/bin/env bash
# Installs the build tree into a temporary prefix, builds examples/count_image
# against it with find_package(gpuhist), runs it on the sample photo on the
# CPU and with the gpu strategy on the default device, and checks its counts equal those of
# `gpuhist compute --format json`; checks the man page and the pkg-config
# files too. Usage: tests/install_consumer.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
source=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/usr
# Everything but the Python package, whose place is Python's own, not the prefix.
cmake --install "$build" --prefix "$prefix" --component Unspecified >"$work/install.log"
test -f "$prefix/include/gpuhist/gpuhist.hpp"
test -x "$prefix/bin/gpuhist"
module=$(find "$prefix" -path '*/gpuhist/libgpuhist-images.so')
test -f "$module"
grep -q '^\.SH EQUALIZE' "$prefix/share/man/man1/gpuhist.1"
# The pkg-config files name the tree they are in, wherever it was installed.
pcdir=$(dirname "$(find "$prefix" -name gpuhist.pc | head -1)")
include=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=includedir gpuhist-io)
libdir=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=libdir gpuhist)
if [ "$(realpath "$include")" != "$(realpath "$prefix/include")" ] ||
  [ "$(realpath "$libdir")" != "$(realpath "$pcdir/..")" ]; then
  echo "install_consumer: pkg-config names $include and $libdir, not the tree in $prefix" >&2
  exit 1
fi
PKG_CONFIG_PATH=$pcdir pkg-config --exists --print-errors gpuhist gpuhist-io

cmake -S "$source/examples/count_image" -B "$work/example" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release >"$work/configure.log"
cmake --build "$work/example" >"$work/build.log"

photo=$source/data/coffee.png
"$work/example/count_image" "$photo" 64 cpu >"$work/cpu.txt"
# The default device with the gpu strategy (Vulkan's software device where there is no GPU).
"$work/example/count_image" "$photo" 64 auto gpu >"$work/gpu.txt"
"$prefix/bin/gpuhist" compute "$photo" --bins 64 --device cpu --format json >"$work/expected.json"
# The installed program and the example both read a PGM through the installed module (a
# JPEG or PNG read whole needs none). (The loader's log goes to files: gpuhist silences
# stderr while it decodes.)
pgm=$work/grey.pgm
printf 'P5\n6 4\n255\nabcdefghijklmnopqrstuvwx' >"$pgm"
loads_module() {
  rm -f "$work"/ld.*
  LD_DEBUG=files LD_DEBUG_OUTPUT="$work/ld" "$@" >/dev/null
  if ! grep -q "file=$module " "$work"/ld.*; then
    echo "install_consumer: $1 did not load $module" >&2
    exit 1
  fi
}
loads_module "$prefix/bin/gpuhist" compute "$pgm" --device cpu
loads_module "$work/example/count_image" "$pgm" 64 cpu
# A program linked by pkg-config's flags alone reads a JPEG and a PNG (without the
# module: libjpeg and libpng are among the flags) and a PGM (through the installed module).
cat >"$work/read_two.cpp" <<'CPP'
#include <cstdio>

#include "gpuhist/image_file.hpp"

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const gpuhist::Image image = gpuhist::load_image(argv[i]);
    std::printf("%ux%u\n", image.width, image.height);
  }
}
CPP
# shellcheck disable=SC2046 # (the flags are words)
c++ -std=c++20 "$work/read_two.cpp" -o "$work/read_two" \
  $(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs gpuhist-io)
read_two=$("$work/read_two" "$source/data/rocket.jpg" "$photo" "$pgm")
if [ "$read_two" != "$(printf '640x427\n600x400\n6x4')" ]; then
  echo "install_consumer: a program linked by pkg-config read: $read_two" >&2
  exit 1
fi
/usr/bin/python3 - "$work/expected.json" "$work/cpu.txt" "$work/gpu.txt" <<'PY'
import json, sys
expected = json.load(open(sys.argv[1]))["histograms"]
for name in sys.argv[2:]:
    got = {}
    for line in open(name):
        channel, counts = line.split(":", 1)
        got[channel] = [int(c) for c in counts.split()]
    if got != expected:
        sys.exit(f"{name}: the example's counts differ from gpuhist compute's")
print("install_consumer: the installed library built the example; its counts match")
PY

# The Python package, where a build has one, installed under a staging root
# (DESTDIR) and imported from there: it reads a PGM through its own copy of
# the image-file module, and counts the photo as gpuhist compute does.
if grep -q '^GPUHIST_PYTHON_DIR:' "$build/CMakeCache.txt" && [ -d "$build/python/gpuhist" ]; then
  DESTDIR=$work/stage cmake --install "$build" --component python >"$work/install-python.log"
  package=$(dirname "$(find "$work/stage" -path '*/gpuhist/__init__.py' | head -1)")
  test -f "$package/libgpuhist-images.so"
  PYTHONPATH=$(dirname "$package") /usr/bin/python3 - "$package" "$photo" "$work/expected.json" \
    "$pgm" <<'PY'
import json, sys
import gpuhist
assert gpuhist.__file__.startswith(sys.argv[1]), gpuhist.__file__
assert gpuhist.read(sys.argv[4]).shape == (4, 6)
module = sys.argv[1] + "/libgpuhist-images.so"
assert module in open("/proc/self/maps").read(), "the package's own module was not loaded"
h = gpuhist.histogram_file(sys.argv[2], bins=64, device="cpu")
expected = json.load(open(sys.argv[3]))["histograms"]
got = {name: [int(c) for c in row] for name, row in zip(h.channels, h.counts)}
if got != expected:
    sys.exit("the installed Python package's counts differ from gpuhist compute's")
print("install_consumer: the installed Python package reads images through its own module")
PY
fi
