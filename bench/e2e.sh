#!/usr/bin/env bash
# What a user times, side by side in one run: a folder of JPEGs, videos and
# overlay videos through gpuhist against decoding alone and the ffmpeg command
# line, and --device auto against --device cpu. Prints one Markdown table
# (best of REPEAT wall-clock seconds, and the ratio to the yardstick).
#
#   bench/e2e.sh [WORKDIR] [REPEAT]   (default /tmp/gpuhist-e2e, 3)
#
# Needs the Release build (scripts/build.sh) and the ffmpeg command line.
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-/tmp/gpuhist-e2e}
repeat=${2:-3}
gpuhist=build/gpuhist
threads=$(nproc)
mkdir -p "$work/jpegs"
command -v ffmpeg >/dev/null || { echo "e2e.sh: the ffmpeg command line is needed" >&2; exit 1; }
[ -x "$gpuhist" ] || { echo "e2e.sh: build first (scripts/build.sh)" >&2; exit 1; }

q() { ffmpeg -hide_banner -loglevel error -y "$@"; }
# 200 JPEGs of 12 MP, each a different noisy frame.
if [ "$(ls "$work/jpegs" | wc -l)" -lt 200 ]; then
  q -f lavfi -i "testsrc2=size=4000x3000:rate=1,noise=alls=20:allf=t" -frames:v 200 -q:v 3 \
    "$work/jpegs/f%03d.jpg"
fi
for size in 1280x720 1920x1080; do
  [ -f "$work/$size.mp4" ] || q -f lavfi -i "testsrc2=size=$size:rate=30" -frames:v 90 \
    -c:v libx264 -pix_fmt yuv420p "$work/$size.mp4"
done
# A phone's 4K clip: HEVC, 30 frames.
[ -f "$work/3840x2160-hevc.mp4" ] || q -f lavfi -i "testsrc2=size=3840x2160:rate=30" -frames:v 30 \
  -c:v libx265 -preset ultrafast -x265-params log-level=error -pix_fmt yuv420p \
  "$work/3840x2160-hevc.mp4"

# best SECONDS of `repeat` runs of the command
best() {
  local best=""
  for _ in $(seq "$repeat"); do
    local start end s
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || { echo "e2e.sh: failed: $*" >&2; exit 1; }
    end=$(date +%s.%N)
    s=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
    if [ -z "$best" ] || awk -v s="$s" -v b="$best" 'BEGIN { exit !(s < b) }'; then best=$s; fi
  done
  printf '%.3f' "$best"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
row() { echo "| $1 | $2 s | $3 | $4 s | $(ratio "$2" "$4") |"; }
ten() { for _ in 1 2 3 4 5 6 7 8 9 10; do "$@" || return 1; done; }

echo "$($gpuhist --version | head -1), $(nproc) cores, $(date -u +%Y-%m-%d), best of $repeat"
echo
echo "| what | gpuhist | yardstick | yardstick's time | gpuhist / yardstick |"
echo "|---|---|---|---|---|"
jp="$work/jpegs"
folder_cpu=$(best $gpuhist compute "$jp" --device cpu --format json -o /dev/null)
folder_auto=$(best $gpuhist compute "$jp" --format json -o /dev/null)
row "200 JPEGs of 12 MP, \`compute --device cpu\`" "$folder_cpu" "\`compute\` (auto)" "$folder_auto"
for size in 1280x720 1920x1080 3840x2160-hevc; do
  clip="$work/$size.mp4"
  what="90 frames $size H.264"
  [ "$size" = 3840x2160-hevc ] && what="30 frames 3840x2160 HEVC"
  decode=$(best ffmpeg -threads "$threads" -i "$clip" -f null -)
  histogram=$(best ffmpeg -threads "$threads" -i "$clip" -vf histogram -f null -)
  video_cpu=$(best $gpuhist video "$clip" --device cpu -o /dev/null)
  video_auto=$(best $gpuhist video "$clip" -o /dev/null)
  planes=$(best $gpuhist video "$clip" --space ycbcr -o /dev/null)
  row "$what, \`video\` (auto)" "$video_auto" "\`ffmpeg -threads $threads -i IN -f null -\`" "$decode"
  row "the same" "$video_auto" "\`ffmpeg -vf histogram -f null -\`" "$histogram"
  row "the same, \`--device cpu\`" "$video_cpu" "\`video\` (auto)" "$video_auto"
  row "$size, \`video --space ycbcr\` (no colour conversion)" "$planes" "decode alone" "$decode"
  [ "$size" = 3840x2160-hevc ] && continue  # no overlay row: re-encoding 4K is the encoder's race
  over=$(best $gpuhist video "$clip" --overlay --preset veryfast -o "$work/over.mp4")
  ffover=$(best ffmpeg -threads "$threads" -i "$clip" -filter_complex \
    "split[a][b];[b]histogram,scale=iw/2:-2[h];[a][h]overlay" -c:v libx264 -preset veryfast \
    -y "$work/ffover.mp4")
  row "$size, \`video --overlay --preset veryfast\`" "$over" "ffmpeg \`split,histogram,overlay\`, libx264 veryfast" "$ffover"
done
photo=data/coffee.png
cpu10=$(best ten $gpuhist compute "$photo" --device cpu)
auto10=$(best ten $gpuhist compute "$photo")
row "\`compute coffee.png\` ten times (auto)" "$auto10" "\`--device cpu\`" "$cpu10"
clahe_cpu=$(best $gpuhist clahe "$photo" --device cpu -o "$work/clahe.png")
clahe_auto=$(best $gpuhist clahe "$photo" -o "$work/clahe.png")
row "\`clahe coffee.png\` (auto)" "$clahe_auto" "\`--device cpu\`" "$clahe_cpu"
echo
build/bench_folder "$jp" "$repeat"
