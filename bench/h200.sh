#!/usr/bin/env bash
# The whole GPU benchmark on a machine that has nothing but an NVIDIA driver.
#
#   bench/h200.sh prepare   here: builds the engine-only gpuhist-bench and, where
#                           nvcc exists, cub_compare and atomics_probe into .device/,
#                           with the sample photo as PPM and the Vulkan loader
#                           packages in .gl/
#   bench/h200.sh run [PHASE...]
#                           there: runs the tuning sweeps (tune), the benchmark (bench),
#                           the ladder (ladder), RGB images (rgb), the stream with four
#                           frames per submission (stream), one image from host
#                           memory to counts (e2e), the adjustments of
#                           video frames (adjust), CUB (cub), the probe
#                           of shared atomics (atomics) and the Python module on
#                           numpy arrays (python), all of them
#                           unless phases are named, writing every report into $OUT (or
#                           ./bench-out) and each phase's seconds into phases.txt there
#
# With the device tool: prepare here, then run `bench/h200.sh run` there,
# carrying .device and .gl.
set -euo pipefail
cd "$(dirname "$0")/.."

prepare() {
  cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUHIST_ENGINE_ONLY=ON >/dev/null
  cmake --build build-device
  rm -rf .device && mkdir -p .device
  cp build-device/gpuhist-bench .device/
  # The engine's libraries, which the python phase links the module against
  # with that machine's own Python and pybind11.
  mkdir -p .device/lib
  cp build-device/src/libgpuhist*.a .device/lib/
  for tool in cub_compare atomics_probe; do
    if [ -x "build-device/$tool" ]; then cp "build-device/$tool" .device/; fi
  done
  oiiotool data/coffee.png -o .device/coffee.ppm
  if ! ls .gl/libglvnd0_*.deb >/dev/null 2>&1; then
    mkdir -p .gl /tmp/amd64/partial
    local o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
    apt-get $o update -qq
    (cd .gl && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
  fi
  grep -qx '/.device/' .git/info/exclude || echo '/.device/' >> .git/info/exclude
  grep -qx '/.gl/' .git/info/exclude || echo '/.gl/' >> .git/info/exclude
  ls -la .device .gl
}

run() {
  local out="${OUT:-bench-out}"
  mkdir -p "$out"
  local phases=("$@")
  [ ${#phases[@]} -gt 0 ] || phases=(tune bench ladder rgb stream e2e adjust cub atomics python)
  for phase in "${phases[@]}"; do
    case "$phase" in
      tune | bench | ladder | rgb | stream | e2e | adjust | cub | atomics | python) ;;
      *) echo "bench/h200.sh: unknown phase '$phase' (tune, bench, ladder, rgb, stream, e2e, adjust, cub, atomics, python)" >&2; exit 2 ;;
    esac
  done
  # The Vulkan loader and the GL dispatch libraries the NVIDIA driver's ICD needs.
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
  if [ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  fi
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv | tee "$out/nvidia-smi.csv" || true
  for phase in "${phases[@]}"; do
    local start=$SECONDS
    "phase_$phase" "$out"
    echo "$phase $((SECONDS - start)) s" | tee -a "$out/phases.txt" >&2
  done
}

bench=.device/gpuhist-bench
photo=.device/coffee.ppm

# The knobs on the largest and the smallest image.
phase_tune() {
  "$bench" --tune --sizes 16384x16384 --photo "$photo" --stream-sizes none --adjust-sizes none -o "$1/tune-large.txt" 2>"$1/tune.log"
  "$bench" --tune --sizes 2448x1505 --photo "$photo" --stream-sizes none --adjust-sizes none -o "$1/tune-small.txt" 2>>"$1/tune.log"
}

# The `cpu` and `gpu` strategies on every size and format, with the host-memory stream.
phase_bench() {
  "$bench" --photo "$photo" --strategies cpu,gpu -o "$1/bench.txt" 2>"$1/bench.log"
  cat "$1/bench.txt"
}

# The whole ladder on the smaller sizes.
phase_ladder() {
  "$bench" --photo "$photo" --sizes 2448x1505,7680x4320 --stream-sizes none --adjust-sizes none -o "$1/ladder.txt" 2>"$1/ladder.log"
  cat "$1/ladder.txt"
}

# Pixels without alpha (photographs, video frames).
phase_rgb() {
  "$bench" --photo "$photo" --strategies gpu --cases rgb8:256,rgb16:4096 --sizes 1920x1080,3840x2160,16384x16384 \
    --stream-sizes none --adjust-sizes none -o "$1/rgb.txt" 2>"$1/rgb.log"
  cat "$1/rgb.txt"
}

# The stream with four frames per submission.
phase_stream() {
  "$bench" --photo "$photo" --sizes 64x64 --strategies gpu --data photo --cases rgba8:256 \
    --stream-sizes 1920x1080,3840x2160,7680x4320 --stream-frames 240 --stream-batch 4 \
    --adjust-sizes none -o "$1/stream-batch4.txt" 2>"$1/stream.log"
  cat "$1/stream-batch4.txt"
}

# One image in host memory to counts, each way it reaches the device (CUB's
# figures for the same in the cub phase).
phase_e2e() {
  "$bench" --e2e --sizes 16x16,640x480,1280x720,2448x1505,3840x2160,7680x4320,16384x16384 \
    -o "$1/e2e.txt" 2>"$1/e2e.log"
  cat "$1/e2e.txt"
}

# The adjustments of video-sized frames, 8- and 16-bit, on the GPU and on the CPU.
phase_adjust() {
  "$bench" --photo "$photo" --sizes 64x64 --strategies gpu --data photo --cases rgba8:256 \
    --stream-sizes none --adjust-sizes 1920x1080,3840x2160,7680x4320 --adjust-formats rgb8,rgb16 \
    -o "$1/adjust.txt" 2>"$1/adjust.log"
  cat "$1/adjust.txt"
}

# CUB's MultiHistogramEven on the same images, where it was built.
phase_cub() {
  if [ -x .device/cub_compare ]; then .device/cub_compare "$photo" | tee "$1/cub.txt"; fi
}

# What four shared atomics per pixel cost, against conflict-free and
# atomic-free counters (see bench/atomics_probe.cu), where it was built.
phase_atomics() {
  if [ -x .device/atomics_probe ]; then .device/atomics_probe "$photo" | tee "$1/atomics.txt"; fi
}

# The Python module (built with the engine alone: arrays, no files) on numpy
# arrays from host memory, against OpenCV and PyTorch where that machine has
# them. Its python3 is another version than this machine's, so the module is
# compiled there, with its pybind11, and linked against the engine built here.
phase_python() {
  local site=/tmp/gpuhist-python ext
  ext=$(python3 -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
  mkdir -p "$site/gpuhist"
  cp python/gpuhist/*.py python/gpuhist/py.typed "$site/gpuhist/"
  # pybind11's headers and Python's: pip's pybind11 names both; else Python's alone.
  local includes
  includes=$(python3 -m pybind11 --includes 2>/dev/null ||
    python3 -c 'import sysconfig; print("-I" + sysconfig.get_paths()["include"])')
  local sources=()
  for s in module adjust_functions arguments arrays errors functions histogram_type; do sources+=("python/src/$s.cpp"); done
  # shellcheck disable=SC2086 # the include flags are several words
  "${CXX:-g++}" -O2 -DNDEBUG -std=c++20 -shared -fPIC -fvisibility=hidden -DGPUHIST_PYTHON_FILES=0 -Iinclude \
    $includes "${sources[@]}" -o "$site/gpuhist/_gpuhist$ext" \
    -Wl,--start-group .device/lib/*.a -Wl,--end-group -l:libvulkan.so.1 -lpthread 2>"$1/python-build.log"
  PYTHONPATH=$site python3 bench/python_histogram.py --repeat 7 \
    --sizes 16x16,640x480,1920x1080,2448x1505,3840x2160,7680x4320,16384x16384 | tee "$1/python.txt"
  PYTHONPATH=$site python3 bench/python_histogram.py --repeat 7 | tee -a "$1/python.txt"
}

case "${1:-}" in
  prepare) prepare ;;
  run) shift; run "$@" ;;
  *) echo "usage: bench/h200.sh prepare | run [tune|bench|ladder|rgb|stream|e2e|adjust|cub|atomics|python ...]" >&2; exit 2 ;;
esac
