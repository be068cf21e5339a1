#!/usr/bin/env bash
# The whole StreamKit test suite, on a fresh Debian machine with the Swift toolchain: installs the
# oracle tools and FFmpeg's libraries (apt), then
#   1. builds and tests with the toolchain alone (trait FFmpeg off: pure Swift),
#   2. builds and tests again with the FFmpeg codec engine (trait FFmpeg on).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-dependencies.sh --engine
mkdir -p .build
echo "== pure Swift build and tests (no FFmpeg engine)"
swift build
swift test 2>&1 | tee .build/test-output-pure.log
echo "== with the FFmpeg engine (--traits FFmpeg)"
swift build --traits FFmpeg
swift test --traits FFmpeg 2>&1 | tee .build/test-output-ffmpeg.log
