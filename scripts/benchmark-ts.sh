#!/usr/bin/env bash
# MPEG-TS and SRT against their floors and peers, on the same input in one run:
#   1. `streamkit-benchmark ts FILE`: demuxing a 1080p H.264 + AAC recording into frames (TSMediaReader) and muxing
#      them again (TSWriter), each against a memcpy of the same bytes (best CPU time of several rounds);
#   2. the CPU of an SRT publish of a TS file in real time: `streamkit publish FILE --re srt://…` against
#      `ffmpeg -re -i FILE -c copy -f mpegts srt://…`, each to an ffmpeg listener on loopback (user + system seconds and
#      peak RSS from /usr/bin/time, the ratio printed).
#   scripts/benchmark-ts.sh [SIZE_MB] [PUBLISH_SECONDS]      (defaults 200 and 20)
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb="${1:-200}"
publish_seconds="${2:-20}"
work="${STREAMKIT_BENCH_DIR:-/tmp/streamkit-ts-bench}"
mkdir -p "$work"
input="$work/large-${size_mb}MB.ts"
if [ ! -f "$input" ]; then
    seconds=$(( size_mb * 8 / 41 + 1 ))
    ffmpeg -v error -y -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=$seconds" -f lavfi -i "sine=duration=$seconds" \
        -c:v libx264 -preset ultrafast -b:v 40M -maxrate 40M -bufsize 80M -c:a aac "$input"
fi
live="$work/live-${publish_seconds}s.ts"
if [ ! -f "$live" ]; then
    ffmpeg -v error -y -f lavfi -i "testsrc2=size=1280x720:rate=30:duration=$publish_seconds" -f lavfi -i "sine=duration=$publish_seconds" \
        -c:v libx264 -preset veryfast -b:v 4M -maxrate 4M -bufsize 8M -g 60 -c:a aac "$live"
fi
swift build -c release --traits SRT --scratch-path .build-srt --product streamkit >/dev/null
swift build -c release --traits SRT --scratch-path .build-srt --product streamkit-benchmark >/dev/null
bin="$(swift build -c release --traits SRT --scratch-path .build-srt --show-bin-path)"
echo "== TS demux and mux against memcpy"
"$bin/streamkit-benchmark" ts "$input" --rounds 3

echo "== SRT publish of $live ($publish_seconds s, real time) to an ffmpeg listener"
port=$(( 20000 + RANDOM % 20000 ))
publish() {  # $1: label; the rest: the sender's command (its URL ends in :$port). Prints "user+sys peak_kB".
    local label="$1"; shift
    ffmpeg -v error -y -i "srt://127.0.0.1:$port?mode=listener" -c copy -f mpegts "$work/received-$label.ts" &
    local listener=$!
    for _ in $(seq 50); do grep -qi ":$(printf '%04X' "$port") " /proc/net/udp && break; sleep 0.1; done
    /usr/bin/time -f "%U %S %M" -o "$work/time-$label.txt" "$@" >/dev/null 2>"$work/log-$label.txt" || { cat "$work/log-$label.txt"; exit 1; }
    wait "$listener" || true
    awk '{ printf "%.2f %d\n", $1 + $2, $3 }' "$work/time-$label.txt"
}
read -r ours_cpu ours_kb < <(publish streamkit "$bin/streamkit" publish "$live" --re "srt://127.0.0.1:$port?latency=120000")
port=$(( port + 1 ))
read -r ff_cpu ff_kb < <(publish ffmpeg ffmpeg -v error -re -i "$live" -c copy -f mpegts "srt://127.0.0.1:$port?latency=120000&pkt_size=1316")
for label in streamkit ffmpeg; do
    printf '%s: received %s\n' "$label" "$(ffprobe -v error -count_packets -select_streams v:0 -show_entries stream=nb_read_packets \
        -of csv=p=0 "$work/received-$label.ts") pictures"
done
printf 'publish CPU: streamkit %.2f s (%d MB peak RSS); ffmpeg -c copy %.2f s (%d MB peak RSS)\n' \
    "$ours_cpu" $(( ours_kb / 1024 )) "$ff_cpu" $(( ff_kb / 1024 ))
awk -v a="$ours_cpu" -v b="$ff_cpu" 'BEGIN { printf "ratio (ffmpeg / streamkit CPU): %.2fx (above 1: streamkit uses less)\n", b / a }'
