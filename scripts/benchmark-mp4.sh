#!/usr/bin/env bash
# MP4 demux and remux against the peers, on the same file in one run:
#   1. demux throughput: `streamkit-benchmark mp4-demux FILE` walks every sample of the MP4 (views into the
#      memory-mapped file, each byte touched) against a plain memory copy of the same bytes;
#   2. `streamkit remux FILE out.h264` against `ffmpeg -i FILE -c copy -f h264` (wall time and peak RSS, /usr/bin/time -v).
#   scripts/benchmark-mp4.sh [SIZE_MB]        (default 400: a 1080p x264 file of about that size is made once)
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb="${1:-400}"
work="${STREAMKIT_BENCH_DIR:-/tmp/streamkit-mp4-bench}"
mkdir -p "$work"
input="$work/large-${size_mb}MB.mp4"
if [ ! -f "$input" ]; then
    # High bit rate so the file reaches its size quickly: 1080p at 40 Mbit/s, ultrafast x264, AAC audio.
    seconds=$(( size_mb * 8 / 41 + 1 ))
    ffmpeg -v error -y -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=$seconds" -f lavfi -i "sine=duration=$seconds" \
        -c:v libx264 -preset ultrafast -b:v 40M -maxrate 40M -bufsize 80M -c:a aac "$input"
fi
swift build -c release --product streamkit >/dev/null
swift build -c release --product streamkit-benchmark >/dev/null
bin=.build/release
echo "input: $input ($(du -m "$input" | cut -f1) MB)"
"$bin/streamkit-benchmark" mp4-demux "$input"

measure() {  # prints "seconds peak_kB"
    /usr/bin/time -v "$@" 2> "$work/time.txt" >/dev/null || { cat "$work/time.txt"; exit 1; }
    awk -F': ' '/Elapsed \(wall clock\)/ { split($2, t, ":"); s = (length(t) == 3) ? t[1]*3600 + t[2]*60 + t[3] : t[1]*60 + t[2] }
                /Maximum resident set size/ { rss = $2 } END { printf "%.3f %d\n", s, rss }' "$work/time.txt"
}
cat "$input" > /dev/null  # both runs start with the file in the page cache
read -r ours_s ours_kb < <(measure "$bin/streamkit" remux "$input" "$work/ours.h264")
read -r ff_s ff_kb < <(measure ffmpeg -v error -y -i "$input" -map 0:v:0 -c copy -f h264 "$work/ffmpeg.h264")
cmp -s "$work/ours.h264" "$work/ffmpeg.h264" && same="byte-identical" || same="differ in bytes (start-code lengths)"
printf 'remux to .h264: streamkit %.3f s, %d MB peak RSS; ffmpeg -c copy %.3f s, %d MB peak RSS\n' \
    "$ours_s" $(( ours_kb / 1024 )) "$ff_s" $(( ff_kb / 1024 ))
awk -v a="$ours_s" -v b="$ff_s" -v c="$ours_kb" -v d="$ff_kb" \
    'BEGIN { printf "ratio (ffmpeg / streamkit): time %.2fx, peak RSS %.2fx (above 1: streamkit is faster / smaller)\n", b / a, d / c }'
echo "outputs: $same"
rm -f "$work/ours.h264" "$work/ffmpeg.h264"
