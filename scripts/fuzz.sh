#!/usr/bin/env bash
# Fuzzes every parser of the bitstream layer with libFuzzer (+ AddressSanitizer):
# the Annex B scanners, AVCC framing, H.264/H.265 parameter sets and slice headers, avcC/hvcC,
# ADTS and AudioSpecificConfig, and the whole `inspect` analysis.
#   scripts/fuzz.sh [SECONDS] [extra libFuzzer flags]
#   STREAMKIT_FUZZ_ONLY=rtp,sdp,rtsp scripts/fuzz.sh 600   — only those parser groups (see FuzzFamily)
# Seeds come from ../shared/media (or $STREAMKIT_MEDIA); crashes are written to fuzz-artifacts/ — keep each one in
# Tests/FuzzCorpus/ so the test suite replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"; shift || true

# STREAMKIT_FUZZ_TRAITS=OpenSSL builds with that trait (the srtp and dtls families need it), in a build folder of its own.
traits="${STREAMKIT_FUZZ_TRAITS:-}"
scratch=".build/fuzz${traits:+-$traits}"
swift build -c release --product streamkit-fuzz -Xswiftc -sanitize=fuzzer,address ${traits:+--traits "$traits"} \
    --scratch-path "$scratch" >/dev/null
bin="$scratch/release/streamkit-fuzz"

corpus="$(mktemp -d)"
trap 'rm -rf "$corpus"' EXIT
# Seeds: the first 4 KiB of every real stream (parameter sets and first slices live there).
find "${STREAMKIT_MEDIA:-../shared/media}" -type f \( -name '*.264' -o -name '*.h264' -o -name '*.jsv' -o -name '*.avc' -o -name '*.h265' -o -name '*.adts' -o -name '*.ts' \) |
while read -r file; do head -c 4096 "$file" > "$corpus/$(basename "$file")"; done
cp Tests/FuzzCorpus/* "$corpus/" 2>/dev/null || true
# MP4 seeds: small whole files made by ffmpeg (classic, fragmented, HEVC), within -max_len.
if command -v ffmpeg >/dev/null; then
    for flags in "" "+frag_keyframe+empty_moov"; do
        ffmpeg -v error -y -f lavfi -i testsrc2=size=32x32:rate=5:duration=1 -f lavfi -i sine=duration=0.2 -c:v libx264 \
            -c:a aac ${flags:+-movflags $flags} "$corpus/seed${flags//+/-}.mp4" || true
    done
    ffmpeg -v error -y -f lavfi -i testsrc2=size=32x32:rate=5:duration=1 -c:v libx265 -x265-params log-level=error \
        -tag:v hvc1 "$corpus/seed-hvc1.mp4" || true
    # MPEG-TS seeds: H.264 + AAC and H.265, within -max_len.
    ffmpeg -v error -y -f lavfi -i testsrc2=size=32x32:rate=5:duration=1 -f lavfi -i sine=duration=0.3 -c:v libx264 \
        -c:a aac -shortest "$corpus/seed-h264-aac.ts" || true
    ffmpeg -v error -y -f lavfi -i testsrc2=size=32x32:rate=5:duration=1 -c:v libx265 -x265-params log-level=error \
        "$corpus/seed-hevc.ts" || true
    # Opus seeds (libopus): MP4 with Opus + dOps, classic and fragmented; MPEG-TS with the Opus descriptors and
    # control headers, mono and stereo.
    for flags in "" "+frag_keyframe+empty_moov"; do
        ffmpeg -v error -y -f lavfi -i sine=duration=0.2 -c:a libopus ${flags:+-movflags $flags} \
            "$corpus/seed-opus${flags//+/-}.mp4" || true
    done
    for channels in 1 2; do
        ffmpeg -v error -y -f lavfi -i sine=duration=0.2 -ac $channels -c:a libopus "$corpus/seed-opus-$channels.ts" || true
    done
fi
# Native H.264 decoder seeds: small whole x264 streams with CABAC, the 8x8 transform and scaling matrices.
if command -v x264 >/dev/null && command -v ffmpeg >/dev/null; then
    ffmpeg -v error -y -f lavfi -i testsrc2=size=48x32:rate=5 -frames:v 6 -pix_fmt yuv420p "$corpus/seed.y4m" || true
    index=0
    for options in "--profile main" "--profile main --slices 2 --ref 2 --partitions all" "--profile high" \
                   "--profile high --cqm jvt" "--profile high --no-cabac" "--profile high --no-8x8dct --qp 40"; do
        x264 --quiet --threads 1 --bframes 0 --weightp 0 $options -o "$corpus/x264-$index.264" "$corpus/seed.y4m" 2>/dev/null || true
        index=$((index + 1))
    done
    rm -f "$corpus/seed.y4m"
fi
# Decoder seeds with B slices (CAVLC): tiny x264 streams, direct spatial and temporal, weighted, several slices.
if command -v x264 >/dev/null && command -v ffmpeg >/dev/null; then
    ffmpeg -v error -y -f lavfi -i testsrc2=size=48x32:rate=25 -vf fade=in:0:5 -frames:v 8 -pix_fmt yuv420p "$corpus/b.y4m" || true
    for options in "--direct temporal --weightb --weightp 2" "--direct spatial --slices 2 --no-weightb --partitions all"; do
        x264 --quiet --profile main --no-cabac --no-8x8dct --threads 1 --bframes 3 --b-pyramid normal --ref 3 $options \
            -o "$corpus/seed-b-${options// /}.264" "$corpus/b.y4m" 2>/dev/null || true
    done
    # B slices with CABAC and the 8x8 transform (CABAC and CAVLC), B-pyramid, weighted, scaling matrices.
    for options in "--direct temporal --weightb --weightp 2 --8x8dct" "--direct spatial --slices 2 --partitions all --cqm jvt" \
                   "--no-cabac --direct auto --8x8dct --partitions all"; do
        x264 --quiet --profile high --threads 1 --bframes 3 --b-pyramid normal --ref 3 $options \
            -o "$corpus/seed-high-b-${options// /}.264" "$corpus/b.y4m" 2>/dev/null || true
    done
    rm -f "$corpus/b.y4m"
fi
# MBAFF seeds: x264 --tff/--bff intra frames (CAVLC and CABAC) of a woven source (two moments in each frame), so that
# field and frame macroblock pairs mix.
if command -v x264 >/dev/null && command -v ffmpeg >/dev/null; then
    ffmpeg -v error -y -f lavfi -i testsrc2=size=48x64:rate=25 -vf scroll=h=0.03:v=0.02,tinterlace=mode=interleave_top \
        -frames:v 2 -pix_fmt yuv420p "$corpus/mbaff.y4m" || true
    for options in "--tff --no-cabac" "--bff --slices 2" "--tff --no-deblock --cqm jvt"; do
        x264 --quiet --profile high --threads 1 --keyint 1 $options -o "$corpus/seed-mbaff-${options// /}.264" "$corpus/mbaff.y4m" 2>/dev/null || true
    done
    # P and B slices (without deblocking, which MBAFF P/B slices still refuse): skipped pairs, field references, direct prediction.
    ffmpeg -v error -y -f lavfi -i testsrc2=size=48x64:rate=25 -vf scroll=h=0.03:v=0.02,tinterlace=mode=interleave_top \
        -frames:v 6 -pix_fmt yuv420p "$corpus/mbaff.y4m" || true
    for options in "--tff --no-cabac --bframes 2 --direct temporal --weightp 2" "--bff --bframes 2 --direct spatial --ref 2 --partitions all"; do
        x264 --quiet --profile high --threads 1 --no-deblock $options -o "$corpus/seed-mbaff-inter-${options// /}.264" "$corpus/mbaff.y4m" 2>/dev/null || true
    done
    rm -f "$corpus/mbaff.y4m"
fi

mkdir -p fuzz-artifacts
export SWIFT_BACKTRACE=enable=no
"$bin" "$corpus" -max_total_time="$seconds" -max_len=8192 -artifact_prefix=fuzz-artifacts/ -print_final_stats=1 "$@"
