#!/usr/bin/env bash
# The native H.264 encoder's threads at 1920x1080 (mandelbrot with lavfi, foreman CIF scaled up): N threads (N
# slices coded at once, `--threads N`) against one thread and one slice, per preset, in paired runs (the machine's
# load drifts; each pair shares it). Prints the wall-time and CPU ratios, the CPU of the calling thread (the wall
# time on an idle machine with a core per thread), fps, whether every run gave the same bytes, and the size and
# BD-rate (PSNR-Y) the slices cost. Saves every number in threads.json in the output folder.
#
# Usage: scripts/benchmark-native-h264-threads.sh [threads.py options]
#   --threads 2  --rounds 3  --frames 60  --presets veryfast,ultrafast  --sequences mandelbrot,foreman  --qps 22,27,32,37
# Env: STREAMKIT_BENCHMARK_OUT (default .build/native-h264-benchmark/threads).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${STREAMKIT_BENCHMARK_OUT:-.build/native-h264-benchmark/threads}"
mkdir -p "$out"
swift build -c release --product streamkit-benchmark >/dev/null
native="$(swift build -c release --show-bin-path)/streamkit-benchmark"
python3 scripts/native-h264-benchmark/threads.py --native "$native" --media ../shared/media/sequences --work "$out" "$@"
