#!/usr/bin/env bash
# The whole StreamKit test suite, on a fresh Debian machine with the Swift toolchain: installs the
# oracle tools and FFmpeg's libraries (apt), then
#   1. builds and tests with the toolchain alone (trait FFmpeg off: pure Swift),
#   2. builds and tests again with the FFmpeg codec engine and TLS over OpenSSL (traits FFmpeg and OpenSSL on).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-dependencies.sh --engine
mkdir -p .build
echo "== pure Swift build and tests (no FFmpeg engine)"
swift build
# The suites that wait in real time (RTP peers, the RTSP server, end-to-end streaming, RTMP, the paced capture sources)
# run one test at a time after the rest, so that tests blocking the 2-thread cooperative pool (ffmpeg runs)
# cannot starve their timers on a 2-core machine.
network='RTPTests|TransportTests|StreamingTests|CaptureTests|RTMP'
swift test --skip "$network" 2>&1 | tee .build/test-output-pure.log
swift test --skip-build --filter "$network" --no-parallel 2>&1 | tee .build/test-output-pure-network.log
echo "== the native encoder's suites again, optimised (-c release): its allocation counts, and faults only the optimiser makes"
# EncoderAllocationTests is enabled only here (a debug build allocates in unspecialised generics); the bit-exactness
# suites run again because an optimiser miscompile once broke the release build's deblocking alone.
native='NativeH264Tests|NativeH264KernelsTests'
swift build -c release --build-tests -Xswiftc -enable-testing
swift test -c release --skip-build -Xswiftc -enable-testing --filter "$native" 2>&1 | tee .build/test-output-release.log
echo "== with the FFmpeg engine and TLS (--traits FFmpeg,OpenSSL)"
swift build --traits FFmpeg,OpenSSL
# The native encoder's own suites do not depend on a trait: they ran in the pure pass.
swift test --traits FFmpeg,OpenSSL --skip "$network|$native" 2>&1 | tee .build/test-output-ffmpeg.log
swift test --traits FFmpeg,OpenSSL --skip-build --filter "$network" --no-parallel 2>&1 | tee .build/test-output-ffmpeg-network.log

# One plain closing line for both runs together.
python3 - .build/test-output-pure.log .build/test-output-pure-network.log .build/test-output-release.log .build/test-output-ffmpeg.log \
    .build/test-output-ffmpeg-network.log <<'PY'
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
