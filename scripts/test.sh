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

# One plain closing line for both runs together.
python3 - .build/test-output-pure.log .build/test-output-ffmpeg.log <<'PY'
import re, sys
passed = failed = 0
for path in sys.argv[1:]:
    text = open(path, errors="replace").read()
    for count, verdict in re.findall(r"Test run with (\d+) tests? .*?(passed|failed)", text):
        if verdict == "passed":
            passed += int(count)
        else:
            failed += 1
print(f"{passed} passed, {failed} failed")
PY
