#!/usr/bin/env bash
# The seeds' demo on Linux: record 200 frames from the camera and the microphone (the synthetic ones
# where the machine has none) into test.h264 (H.264, SPS/PPS before every key frame) and test.aac (ADTS).
# Installs FFmpeg's libraries with apt when missing, builds with the FFmpeg engine, then records.
# With --pure, or where FFmpeg's libraries cannot be installed, it builds with the toolchain alone
# (`swift build`, no traits): the pure-Swift native engine records the H.264 video (Constrained
# Baseline) and the AAC-LC audio.
# Extra arguments go to `streamkit record` (for example: --codec hevc -o test.h265 --frames 300).
# STREAMKIT_BUILD_FLAGS adds flags to the pure build (scripts/test.sh passes its optimised build's, to reuse it).
set -euo pipefail
cd "$(dirname "$0")/.."

pure=0
if [ "${1:-}" = "--pure" ]; then pure=1; shift; fi
if [ "$pure" = 0 ]; then
    if scripts/install-dependencies.sh --engine && pkg-config --exists libavcodec libavutil libswscale 2>/dev/null; then
        swift build -c release --traits FFmpeg --product streamkit
        exec "$(swift build -c release --traits FFmpeg --show-bin-path)/streamkit" record "$@"
    fi
    echo "demo: FFmpeg's libraries are not available; building without them (the native engine records video and audio)" >&2
fi
read -r -a flags <<<"${STREAMKIT_BUILD_FLAGS:-}"
swift build -c release --product streamkit "${flags[@]}"
exec "$(swift build -c release "${flags[@]}" --show-bin-path)/streamkit" record "$@"
