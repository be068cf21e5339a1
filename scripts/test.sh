#!/usr/bin/env bash
# The whole StreamKit test suite, on a fresh Debian machine with the Swift toolchain: installs the
# oracle tools and FFmpeg's libraries (apt), then
#   1. builds and tests with the toolchain alone (trait FFmpeg off: pure Swift): every suite at once but those that
#      need real time; then, in a process of their own (STREAMKIT_REAL_TIME_SUITES=1), the suites that need real time
#      (network peers, timers, paced sources) at once, each test on ports of its own; then the few that measure real
#      time too closely to share the machine (trait `.runsAlone`), one test at a time;
#   2. the native H.264 encoder's and decoder's suites again, optimised (-c release);
#   3. builds with the FFmpeg codec engine and TLS over OpenSSL (traits FFmpeg and OpenSSL on) and tests again, the
#      same way, the suites whose code those traits change (the codec sessions, Transport, the CLI and what drives
#      it); the others compile to the same code either way and ran in pass 1.
# The real-time suites run apart because in one process they share Swift's cooperative pool (a thread per core) with
# the CPU-bound suites, which starve their timers. Each pass prints its wall time, and a table closes the run. A
# failing pass does not stop the others; the script then exits with 1.
set -uo pipefail
cd "$(dirname "$0")/.."

# The test targets whose code a trait changes: Codecs and FFmpegEngine (FFmpeg), Transport (OpenSSL), the streamkit
# CLI (both), the suites that run the CLI, and the live pipeline (x264 and AAC take over from the native encoder).
traited='CodecsTests|MP4WriterTests|StreamKitCLITests|StreamingTests|RTMPTests|RTMPPublisherTests|RTMPIngestTests|TransportTests|LiveTests'
# The suites with tests that carry `.needsRealTime` or `.runsAlone` (Tests/TestSupport/RealTimeSuites.swift; without
# STREAMKIT_REAL_TIME_SUITES=1 they skip themselves), and of them those in the targets the traits change.
realTime='FFmpegReceiverTests|FFmpegSenderTests|LossTests|RTPMediaStreamPeerTests|SessionDescriptionPeerTests|StreamSynchronizerPeerTests'
realTime+='|EventLoopTests|RTSPServerTests|TCPWakeupTests|TLSConnectionTests|SyntheticCameraTests|SyntheticMicrophoneTests'
realTime+='|StreamingTests|RTMPTests|RTMPPublisherTests|RTMPIngestTests|LiveFanOutProofTests|LiveAdaptationProofTests|ReadmeLiveExampleTests'
realTime+='|NetworkDestinationProofTests|RTPSessionReceiverTests|ReceivedSourceProofTests|RTMPServerDestinationProofTests'
traitedRealTime='EventLoopTests|RTSPServerTests|TCPWakeupTests|TLSConnectionTests|StreamingTests|RTMPTests|RTMPPublisherTests|RTMPIngestTests'
traitedRealTime+='|LiveFanOutProofTests|LiveAdaptationProofTests|ReadmeLiveExampleTests|NetworkDestinationProofTests|ReceivedSourceProofTests|RTMPServerDestinationProofTests'
# The suites that carry `.runsAlone`, and of them those in the targets the traits change.
alone='StreamSynchronizerPeerTests|AdaptiveSenderTests|AdaptationProofTests|LiveAdaptationProofTests'
traitedAlone='AdaptiveSenderTests|AdaptationProofTests|LiveAdaptationProofTests'
# The native encoder's and decoder's suites, run again optimised (their allocation counts are measured only there).
native='NativeH264Tests|NativeH264KernelsTests|NativeH264DecoderTests'

mkdir -p .build
logs=()
timings=()
failed=0

# Runs one pass: prints its name, runs it, and prints and keeps its wall time.
#   pass NAME LOG|- COMMAND...
pass() {
    local name=$1 log=$2
    shift 2
    local start=$SECONDS status
    echo "== $name"
    # The status is read right after the command: any later command (even an assignment) resets PIPESTATUS.
    if [ "$log" = "-" ]; then
        "$@"
        status=$?
    else
        "$@" 2>&1 | tee "$log"
        status=${PIPESTATUS[0]}
        logs+=("$log")
    fi
    local took=$((SECONDS - start))
    if [ "$status" -ne 0 ]; then failed=1; fi
    timings+=("$(printf '%3d:%02d  %s%s' $((took / 60)) $((took % 60)) "$name" "$([ "$status" -ne 0 ] && echo '  (FAILED)')")")
    echo "== $name: $((took / 60)) min $((took % 60)) s$([ "$status" -ne 0 ] && echo ", exit $status")"
}

total=$SECONDS
pass "install the peers" - scripts/install-dependencies.sh --engine
[ "$failed" -eq 0 ] || exit 1

pass "imports follow the layers" - scripts/check-layers.sh
pass "pure Swift: build" - swift build --build-tests
pass "pure Swift: every suite at once but the real-time ones" .build/test-output-pure.log swift test --skip-build
pass "pure Swift: the real-time suites, one test at a time" .build/test-output-pure-real-time.log \
    env STREAMKIT_REAL_TIME_SUITES=1 swift test --skip-build --no-parallel --filter "$realTime" --skip "$alone"
pass "pure Swift: the real-time suites that run alone" .build/test-output-pure-alone.log \
    env STREAMKIT_REAL_TIME_SUITES=1 swift test --skip-build --no-parallel --filter "$alone"

# EncoderAllocationTests is enabled only here (a debug build allocates in unspecialised generics); the bit-exactness
# suites run again because an optimiser miscompile once broke the release build's deblocking alone.
pass "native H.264, optimised: build" - swift build -c release --build-tests -Xswiftc -enable-testing
pass "native H.264, optimised: its suites" .build/test-output-release.log \
    swift test -c release --skip-build -Xswiftc -enable-testing --filter "$native"

pass "FFmpeg and TLS (--traits FFmpeg,OpenSSL): build" - swift build --build-tests --traits FFmpeg,OpenSSL
pass "FFmpeg and TLS: the suites the traits change, at once, but the real-time ones" .build/test-output-ffmpeg.log \
    swift test --traits FFmpeg,OpenSSL --skip-build --filter "$traited"
pass "FFmpeg and TLS: their real-time suites, one test at a time" .build/test-output-ffmpeg-real-time.log \
    env STREAMKIT_REAL_TIME_SUITES=1 swift test --traits FFmpeg,OpenSSL --skip-build --no-parallel --filter "$traitedRealTime" --skip "$alone"
pass "FFmpeg and TLS: their real-time suites that run alone" .build/test-output-ffmpeg-alone.log \
    env STREAMKIT_REAL_TIME_SUITES=1 swift test --traits FFmpeg,OpenSSL --skip-build --no-parallel --filter "$traitedAlone"

took=$((SECONDS - total))
echo "== wall time per pass"
printf '%s\n' "${timings[@]}"
printf '%3d:%02d  all\n' $((took / 60)) $((took % 60))

# One plain closing line for all the runs together.
python3 - "${logs[@]}" <<'PY'
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
exit "$failed"
