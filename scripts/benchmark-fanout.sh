#!/usr/bin/env bash
# One encode to 1, 2 and 4 destinations: `streamkit publish in.y4m DEST…` (one x264 encoder fanned out by the live
# pipeline) against `ffmpeg -i in.y4m -c:v libx264 … -f tee "DEST|…"` (one encoder, the tee muxer) on the same input,
# with the same x264 settings (High, tune zerolatency, VBV max rate = average, one second of buffer, no B-frames: what
# the live pipeline asks x264 for). The destinations are files (fragmented MP4, FLV, Annex B, fMP4 HLS), written as fast as
# the encoder goes, so the numbers are CPU, not waiting.
#   [STREAMKIT=PATH] scripts/benchmark-fanout.sh [FRAMES] [SIZE]        (defaults: 300 frames, 1280x720)
# Prints CPU seconds (user + system, best of 3) for each, and the ratio ffmpeg / ours (> 1: ours is cheaper).
set -euo pipefail
cd "$(dirname "$0")/.."
frames="${1:-300}"
size="${2:-1280x720}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "making $frames frames of $size (testsrc2)…" >&2
ffmpeg -hide_banner -loglevel error -y -f lavfi -i "testsrc2=size=$size:rate=30" -frames:v "$frames" -pix_fmt yuv420p "$work/in.y4m"
if [ -n "${STREAMKIT:-}" ]; then ours="$STREAMKIT"; else
    swift build -c release --traits FFmpeg --product streamkit >/dev/null
    ours="$(swift build -c release --traits FFmpeg --show-bin-path)/streamkit"
fi

# CPU seconds (user + system) of a command, best of three runs.
cpu() {
    local best=""
    for _ in 1 2 3; do
        rm -rf out && mkdir -p out
        /usr/bin/time -f "%U %S" -o time.txt "$@" >/dev/null 2>log.txt || { cat log.txt >&2; exit 1; }
        local seconds
        seconds="$(awk '{ printf "%.3f", $1 + $2 }' time.txt)"
        if [ -z "$best" ] || awk -v a="$seconds" -v b="$best" 'BEGIN { exit !(a < b) }'; then best="$seconds"; fi
    done
    echo "$best"
}

destinations=("out/a.mp4" "out/b.flv" "out/c.h264" "out/d.m3u8")
teeNames=("[f=mp4:movflags=frag_keyframe+empty_moov]out/a.mp4" "[f=flv]out/b.flv" "[f=h264]out/c.h264" "[f=hls:hls_segment_type=fmp4:hls_time=2]out/d.m3u8")
cd "$work"
printf "%-14s %10s %10s %8s\n" "destinations" "ours (s)" "ffmpeg (s)" "ratio"
for count in 1 2 4; do
    ourArgs=(publish in.y4m "${destinations[@]:0:$count}" --bitrate 2000k --gop 60 --profile high --engine x264)
    oursSeconds="$(cpu "$ours" "${ourArgs[@]}")"
    tee="$(IFS='|'; echo "${teeNames[*]:0:$count}")"
    ffmpegSeconds="$(cpu ffmpeg -hide_banner -loglevel error -y -i in.y4m -map 0:v -c:v libx264 -profile:v high -tune zerolatency \
        -b:v 2000k -maxrate 2000k -bufsize 2000k -g 60 -bf 0 -f tee "$tee")"
    ratio="$(awk -v a="$ffmpegSeconds" -v b="$oursSeconds" 'BEGIN { printf "%.2f", a / b }')"
    printf "%-14s %10s %10s %8s\n" "$count" "$oursSeconds" "$ffmpegSeconds" "$ratio"
done
