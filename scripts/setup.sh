#!/usr/bin/env bash
# Installs every Debian package gpuhist needs to build and test, on a new machine.
# Runs as root, or through sudo when it is available.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libvulkan-dev mesa-vulkan-drivers vulkan-tools vulkan-validationlayers glslang-tools
  libopenimageio-dev openimageio-tools libjpeg62-turbo-dev libpng-dev zlib1g-dev libwebp-dev
  fonts-dejavu-core
  libavformat-dev libavcodec-dev libswscale-dev libavutil-dev ffmpeg
  libcli11-dev nlohmann-json3-dev
  libglfw3-dev libx11-dev xvfb xauth x11-apps x11-utils xdotool
  libgtest-dev libgmock-dev libbenchmark-dev valgrind clang llvm libclang-rt-14-dev
  libopencv-dev locales libtiff-tools
  pybind11-dev python3-dev python3-numpy python3-pytest python3-dask python3-distributed
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: run as root to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "setup: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
