#!/usr/bin/env bash
# The seeds' demo on Linux: record 200 frames from the camera and the microphone (the synthetic ones
# where the machine has none) into test.h264 (H.264, SPS/PPS before every key frame) and test.aac (ADTS).
# Installs FFmpeg's libraries with apt when missing, builds with the FFmpeg engine, then records.
# Extra arguments go to `streamkit record` (for example: --codec hevc -o test.h265 --frames 300).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-dependencies.sh --engine
swift build -c release --traits FFmpeg --product streamkit
"$(swift build -c release --traits FFmpeg --show-bin-path)/streamkit" record "$@"
