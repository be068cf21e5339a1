#!/usr/bin/env bash
# The whole StreamKit test suite, on a fresh Debian machine with the Swift toolchain: installs the
# oracle tools and FFmpeg's libraries (apt), then
#   1. builds with the toolchain alone (trait FFmpeg off: pure Swift) in one build whose codec modules are optimised and
#      whose other modules and tests are not (-c release with STREAMKIT_OPTIMISE_CODECS_ONLY=1, see Package.swift: the
#      native encoder's and decoder's suites measure allocations and check bit-exactness on optimised code, and the
#      native live proofs keep up with a camera only there), and tests: every suite at once but those that need real
#      time; then, in a process of their own (STREAMKIT_REAL_TIME_SUITES=1),
#      the suites that need real time (network peers, timers, paced sources) four tests at a time, each on ports of
#      its own — a suite that fails there runs again alone, one test at a time, and that run decides (the log names
#      it: it is sensitive to load); then the few that measure real time too closely to share the machine (trait `.runsAlone`),
#      one test at a time;
#   2. the README's main job, pure (scripts/demo.sh --pure), on that build;
#   3. builds with the FFmpeg codec engine and TLS over OpenSSL (traits FFmpeg and OpenSSL on) and tests again, the
#      same way, the suites whose code those traits change (the codec sessions, Transport, the CLI and what drives
#      it); the others compile to the same code either way and ran in pass 1, so their test targets are not even built
#      (STREAMKIT_TEST_TARGETS, see Package.swift).
# The real-time suites run apart because in one process they share Swift's cooperative pool (a thread per core) with
# the CPU-bound suites, which starve their timers. Each pass prints its wall time, and a table closes the run. A
# failing pass does not stop the others; the script then exits with 1. The closing count is read from each test run's
# xUnit report (.build/xunit-*-swift-testing.xml).
set -uo pipefail
cd "$(dirname "$0")/.."

# The test targets whose code a trait changes: Codecs and FFmpegEngine (FFmpeg), Transport (OpenSSL), the streamkit
# CLI (both), SRT sockets (trait SRT, in Transport's tests), the suites that run the CLI, and the live pipeline (x264 and AAC take over from the native encoder).
traited='CodecsTests|MP4WriterTests|StreamKitCLITests|StreamingTests|RTMPTests|RTMPPublisherTests|RTMPIngestTests|TransportTests|LiveTests|SRTPTests'
# The suites with tests that carry `.needsRealTime` or `.runsAlone` (Tests/TestSupport/RealTimeSuites.swift; without
# STREAMKIT_REAL_TIME_SUITES=1 they skip themselves), and of them those in the targets the traits change.
realTime='FFmpegReceiverTests|FFmpegSenderTests|LossTests|RTPMediaStreamPeerTests|SessionDescriptionPeerTests|StreamSynchronizerPeerTests'
realTime+='|EventLoopTests|RTSPServerTests|TCPWakeupTests|TLSConnectionTests|SyntheticCameraTests|SyntheticMicrophoneTests'
realTime+='|StreamingTests|RTMPTests|RTMPPublisherTests|RTMPIngestTests|LiveFanOutProofTests|LiveAdaptationProofTests|LiveAudioAdaptationProofTests|ReadmeLiveExampleTests'
realTime+='|NetworkDestinationProofTests|RTPSessionReceiverTests|ReceivedSourceProofTests|RTMPServerDestinationProofTests|SRTPeerTests|SRTLiveProofTests|SRTAdaptationProofTests'
realTime+='|HTTPServerPeerTests|WebRTCAnswerTests|ChromiumAnswerTests|ICELitePeerTests|OpusRTPTests|HLSHTTPProofTests'
traitedRealTime='EventLoopTests|RTSPServerTests|TCPWakeupTests|TLSConnectionTests|StreamingTests|RTMPTests|RTMPPublisherTests|RTMPIngestTests'
traitedRealTime+='|LiveFanOutProofTests|LiveAdaptationProofTests|LiveAudioAdaptationProofTests|ReadmeLiveExampleTests|NetworkDestinationProofTests|ReceivedSourceProofTests|RTMPServerDestinationProofTests|SRTPeerTests|SRTLiveProofTests|SRTAdaptationProofTests|HLSHTTPProofTests'
# The WebRTC sessions with real peers (aiortc, Chromium) run in a network namespace with loopback alone, so no ICE
# candidate or packet can leave 127.0.0.1.
webRTC='WHEPPlaybackProofTests|ServeWHEPProofTests|ServeWHIPProofTests|WHIPPublishProofTests|WHIPIngestProofTests|WHIPChromiumIngestProofTests|WHIPRoundTripProofTests'
# The suites that carry `.runsAlone`, and of them those in the targets the traits change.
alone='StreamSynchronizerPeerTests|AdaptiveSenderTests|AdaptationProofTests|LiveAdaptationProofTests|LiveAudioAdaptationProofTests|SRTAdaptationProofTests'
traitedAlone='AdaptiveSenderTests|AdaptationProofTests|LiveAdaptationProofTests|LiveAudioAdaptationProofTests|SRTAdaptationProofTests'
# The native H.264 encoder's and decoder's suites and the native engine's: they run in the pure pass, where the codecs
# are optimised, and not in the traited pass, whose debug build has them unoptimised (11 of 21 CPU minutes there).
native='NativeH264Tests|NativeH264KernelsTests|NativeH264DecoderTests|NativeEngineTests'

mkdir -p .build
rm -f .build/xunit-*.xml
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
    fi
    local took=$((SECONDS - start))
    if [ "$status" -ne 0 ]; then failed=1; fi
    timings+=("$(printf '%3d:%02d  %s%s' $((took / 60)) $((took % 60)) "$name" "$([ "$status" -ne 0 ] && echo '  (FAILED)')")")
    echo "== $name: $((took / 60)) min $((took % 60)) s$([ "$status" -ne 0 ] && echo ", exit $status")"
}

# Runs real-time suites at once, at most four tests at a time (more starve the tests that encode a camera in real
# time: run all at once, 3 of 87 failed on an idle machine); a suite with a failing test then runs again alone, one
# test at a time, and decides.
#   at_once_then_alone TAG SUITES SKIPPED SWIFT-TEST-ARGUMENTS...
at_once_then_alone() {
    local tag=$1 suites=$2 skipped=$3
    shift 3
    rm -f ".build/xunit-$tag"*.xml
    if env STREAMKIT_REAL_TIME_SUITES=1 SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=4 \
        swift test "$@" --filter "$suites" --skip "$skipped" --xunit-output ".build/xunit-$tag.xml"; then
        return 0
    fi
    local again
    again=$(python3 - ".build/xunit-$tag-swift-testing.xml" <<'PY'
import sys, xml.etree.ElementTree as tree
try:
    cases = tree.parse(sys.argv[1]).getroot().iter("testcase")
except (OSError, tree.ParseError):
    sys.exit(0)
print("|".join(sorted({c.get("classname").split(".")[-1] for c in cases if c.find("failure") is not None})))
PY
)
    if [ -z "$again" ]; then return 1; fi
    echo "== the suites that failed beside the others run again alone, one test at a time: $again"
    env STREAMKIT_REAL_TIME_SUITES=1 swift test "$@" --no-parallel --filter "$again" --skip "$skipped" \
        --xunit-output ".build/xunit-$tag-again.xml"
}

total=$SECONDS
pass "install the peers" - scripts/install-dependencies.sh --engine
[ "$failed" -eq 0 ] || exit 1

pass "imports follow the layers" - scripts/check-layers.sh
# Every swift command of the pure passes sees the same variable and flags, or the manifest would differ and the build
# would start again.
export STREAMKIT_OPTIMISE_CODECS_ONLY=1
pure=(-c release -Xswiftc -enable-testing)
pass "pure Swift, the codecs optimised: build" - swift build "${pure[@]}" --build-tests
pass "pure Swift: every suite at once but the real-time ones" .build/test-output-pure.log \
    swift test "${pure[@]}" --skip-build --xunit-output .build/xunit-pure.xml
pass "pure Swift: the real-time suites at once" .build/test-output-pure-real-time.log \
    at_once_then_alone pure-real-time "$realTime" "$alone" "${pure[@]}" --skip-build
pass "pure Swift: the real-time suites that run alone" .build/test-output-pure-alone.log \
    env STREAMKIT_REAL_TIME_SUITES=1 swift test "${pure[@]}" --skip-build --no-parallel --filter "$alone" --xunit-output .build/xunit-pure-alone.xml

# The README's main job in the pure build: scripts/demo.sh --pure records the synthetic camera and microphone with the
# native encoders into test.h264 and test.aac (here in a folder of their own), reusing the pure build; ffprobe reads
# both.
demo_check() {
    rm -rf .build/demo && mkdir -p .build/demo || return 1
    STREAMKIT_BUILD_FLAGS="-Xswiftc -enable-testing" scripts/demo.sh --pure --frames 60 \
        -o .build/demo/test.h264 --audio-output .build/demo/test.aac || return 1
    local pictures audio
    pictures=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 .build/demo/test.h264)
    audio=$(ffprobe -v error -count_packets -select_streams a:0 -show_entries stream=nb_read_packets -of csv=p=0 .build/demo/test.aac)
    echo "demo --pure: ${pictures:-0} pictures in test.h264, ${audio:-0} AAC frames in test.aac"
    [ "${pictures:-0}" -eq 60 ] && [ "${audio:-0}" -gt 0 ]
}
pass "the README's main job, pure: scripts/demo.sh --pure writes test.h264 and test.aac" - demo_check

# The traited build is a plain debug build of the library and of the test targets in $traited (its codec suites ran in
# the pure pass; a debug build's test discovery needs its index store).
unset STREAMKIT_OPTIMISE_CODECS_ONLY
# Only the test targets the traited passes run are declared (Package.swift), so the build compiles no other: each name
# in $traited is a test target.
export STREAMKIT_TEST_TARGETS=${traited//|/,}
pass "FFmpeg, TLS and SRT (--traits FFmpeg,OpenSSL,SRT): build" - swift build --build-tests --traits FFmpeg,OpenSSL,SRT
pass "FFmpeg and TLS: the suites the traits change, at once, but the real-time ones" .build/test-output-ffmpeg.log \
    swift test --traits FFmpeg,OpenSSL,SRT --skip-build --filter "$traited" --skip "$native" --xunit-output .build/xunit-ffmpeg.xml
pass "FFmpeg and TLS: their real-time suites at once" .build/test-output-ffmpeg-real-time.log \
    at_once_then_alone ffmpeg-real-time "$traitedRealTime" "$alone" --traits FFmpeg,OpenSSL,SRT --skip-build
pass "FFmpeg and TLS: their real-time suites that run alone" .build/test-output-ffmpeg-alone.log \
    env STREAMKIT_REAL_TIME_SUITES=1 swift test --traits FFmpeg,OpenSSL,SRT --skip-build --no-parallel --filter "$traitedAlone" \
    --xunit-output .build/xunit-ffmpeg-alone.xml

# Four at a time as the other real-time passes run (all 15 at once — four Chromiums, five aiortc peers, three FFmpeg
# publishers on two cores — failed 5 of them with nothing else running); a suite that fails beside the others runs again alone.
webrtc_in_namespace() {
    ip link set lo up && at_once_then_alone webrtc "$webRTC" NothingIsSkipped --traits FFmpeg,OpenSSL,SRT --skip-build
}
export -f at_once_then_alone webrtc_in_namespace
export webRTC
pass "WebRTC with its peers, in a network namespace with loopback alone (unshare -rn)" .build/test-output-webrtc.log \
    unshare -rn bash -c webrtc_in_namespace

took=$((SECONDS - total))
echo "== wall time per pass"
printf '%s\n' "${timings[@]}"
printf '%3d:%02d  all\n' $((took / 60)) $((took % 60))

# One plain closing line for all the runs together, from their xUnit reports: a test that ran again alone counts as
# that run found it.
# The XCTest halves of the reports are empty (every suite is Swift Testing).
find .build -maxdepth 1 -name 'xunit-*.xml' ! -name '*-swift-testing.xml' -delete
python3 - .build/xunit-*-swift-testing.xml <<'PY'
import sys, xml.etree.ElementTree as tree
results = {}
for path in sorted(sys.argv[1:], key=lambda path: "-again-" in path):  # a run again after the run it repeats
    run = path.split("/")[-1].removeprefix("xunit-").removesuffix("-swift-testing.xml").removesuffix("-again")
    try:
        cases = tree.parse(path).getroot().iter("testcase")
    except (OSError, tree.ParseError) as error:
        print(f"{path}: {error}")
        continue
    for case in cases:
        if case.find("skipped") is None:
            results[(run, case.get("classname"), case.get("name"))] = case.find("failure") is None
passed = sum(results.values())
print(f"{passed} passed, {len(results) - passed} failed")
PY
if [ "$failed" -ne 0 ]; then echo "a pass failed (marked FAILED above)"; fi
exit "$failed"
