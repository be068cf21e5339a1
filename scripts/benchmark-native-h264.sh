#!/usr/bin/env bash
# The native H.264 encoder against its peers, side by side in one run, one thread each, 1280x720, the same
# inputs (foreman CIF and cars 320x240 scaled up, and lavfi's mandelbrot): ours, x264 --profile baseline
# --preset veryfast --tune zerolatency, x264 --preset ultrafast, and openh264 (libopenh264 through our C
# driver, cross-checked once against the modern FFmpeg's -c:v libopenh264).
# Prints, per point, CPU fps, kbit/s, PSNR-Y and VMAF; the ratios ours/peer; the BD-rate of ours against
# each peer; peak RSS at 1080p; the top functions of a callgrind profile of ours. Saves the RD curves
# (rd-curves.png) and every number (results.json) in the output folder.
#
# Usage: scripts/benchmark-native-h264.sh [measure.py options]
#   --frames N (default 60)  --keyint N (30)  --qps 22,27,32,37  --bitrates 500000,...,4000000
#   --sequences foreman,cars,mandelbrot  --no-vmaf  --vmaf-subsample N  --rss-frames N  --profile-frames N
#   --no-native-bitrate (ours on the QP ladder only)  --encoders ours,...  --ladders qp,bitrate  --append
#   Presets: --encoders ours-ultrafast,ours-superfast,ours-veryfast,ours-faster,ours-fast,ours-medium,x264-veryfast,x264-ultrafast,openh264
#   ("ours" alone is the default preset); the analysis then prints a table per preset: fps, speed ratio and
#   BD-rate (PSNR-Y) against each peer.
# Env: STREAMKIT_BENCHMARK_OUT (default .build/native-h264-benchmark), STREAMKIT_MODERN_FFMPEG.
# Re-analyse without measuring: .build/peers-venv/bin/python scripts/native-h264-benchmark/analyse.py DIR/results.json
set -euo pipefail
cd "$(dirname "$0")/.."
here=scripts/native-h264-benchmark
out="${STREAMKIT_BENCHMARK_OUT:-.build/native-h264-benchmark}"
mkdir -p "$out"

scripts/install-dependencies.sh
swift build -c release --product streamkit-benchmark >/dev/null
native="$(swift build -c release --show-bin-path)/streamkit-benchmark"
gcc -O2 -Wall -Wextra -o "$out/openh264-encode" "$here/openh264-encode.c" -lopenh264
python=.build/peers-venv/bin/python
modern="${STREAMKIT_MODERN_FFMPEG:-$("$python" -c 'import imageio_ffmpeg as i; print(i.get_ffmpeg_exe())')}"

"$python" "$here/bdrate.py" --self-test
"$python" "$here/measure.py" --native "$native" --openh264 "$out/openh264-encode" --modern-ffmpeg "$modern" \
    --media ../shared/media/sequences --work "$out" "$@"
"$python" "$here/analyse.py" "$out/results.json" --plot "$out/rd-curves.png"
