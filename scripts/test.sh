#!/usr/bin/env bash
# The whole StreamKit test suite, on a fresh Debian machine with the Swift toolchain:
# installs the oracle tools (ffmpeg, x264, x265), then builds and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-dependencies.sh
swift build
swift test 2>&1 | tee .build/test-output.log
