#!/usr/bin/env bash
# Publish throughput on loopback: `streamkit publish FILE.h264 rtmp://…` against `ffmpeg -c copy -f flv` publishing the
# same 720p H.264 file to the same nginx-rtmp (no player: nginx takes and discards).
#   [STREAMKIT=PATH] [FORMAT=h264|flv] scripts/benchmark-rtmp-publish.sh [SECONDS] [MBITS]   (port 22090, loopback only)
# FORMAT=flv: the file is an FLV with B-frames and AAC (`publish x.flv`, sent as it is, against `ffmpeg -i x.flv -c copy`).
# 1. As fast as possible (no --re / -re): MB/s of the file sent, wall clock, best of 3 runs.
# 2. In real time (--re / -re): CPU seconds (utime+stime) per second of stream, per Mbit/s of the stream's rate.
# Prints both for ours and ffmpeg's, and the ratios (> 1: ours is faster / cheaper).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-20}"
mbits="${2:-4}"
STOP_GRACE=0.3
source scripts/processes.sh
port=22090

format="${FORMAT:-h264}"
echo "encoding $seconds s of 720p30 at $mbits Mbit/s ($format)…" >&2
if [ "$format" = flv ]; then
    ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=1280x720:rate=30 -f lavfi -i sine=sample_rate=48000 \
        -t "$seconds" -c:v libx264 -preset veryfast -b:v "${mbits}M" -maxrate "${mbits}M" -bufsize "${mbits}M" -g 60 -bf 2 \
        -pix_fmt yuv420p -c:a aac -f flv "$work/in.flv"
    input="$work/in.flv"; demux=(-i "$input")
else
    ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=1280x720:rate=30 -t "$seconds" -c:v libx264 -preset veryfast \
        -b:v "${mbits}M" -maxrate "${mbits}M" -bufsize "${mbits}M" -g 60 -bf 0 -pix_fmt yuv420p -f h264 "$work/in.h264"
    input="$work/in.h264"; demux=(-f h264 -framerate 30 -i "$input")
fi
bytes="$(stat -c %s "$input")"
# STREAMKIT=PATH measures another build of ours (a debug one, for a quick check of the script).
if [ -n "${STREAMKIT:-}" ]; then ours="$STREAMKIT"; else swift build -c release --product streamkit >/dev/null; ours=".build/release/streamkit"; fi

mkdir -p "$work/nginx"
cat > "$work/nginx/nginx.conf" <<CONF
load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;
daemon off; pid $work/nginx/nginx.pid; error_log $work/nginx/error.log;
events { worker_connections 64; }
rtmp { server { listen 127.0.0.1:$port; chunk_size 4096; application live { live on; } } }
CONF
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" &
pids+=("$!")
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done

# run NAME COMMAND…: prints "wall cpu" (seconds) of the command.
run() {
    local start end before
    start="$(date +%s.%N)"
    /usr/bin/time -f "%U %S" -o "$work/time" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    end="$(date +%s.%N)"
    awk -v s="$start" -v e="$end" '{ printf "%.3f %.3f\n", e - s, $1 + $2 }' "$work/time"
}
peer_fast_command=(ffmpeg -hide_banner -loglevel error "${demux[@]}" -c copy -f flv "rtmp://127.0.0.1:$port/live/peer")
peer_re_command=(ffmpeg -hide_banner -loglevel error -re "${demux[@]}" -c copy -f flv "rtmp://127.0.0.1:$port/live/peer")
ours_command=("$ours" publish "$input" "rtmp://127.0.0.1:$port/live/ours")

best() { sort -n | head -1; }
echo "as fast as possible (best of 3)…" >&2
ours_fast="$(for _ in 1 2 3; do run "${ours_command[@]}"; done | best)"
peer_fast="$(for _ in 1 2 3; do run "${peer_fast_command[@]}"; done | best)"
echo "in real time…" >&2
ours_re="$(run "${ours_command[@]}" --re)"
peer_re="$(run "${peer_re_command[@]}")"

awk -v bytes="$bytes" -v seconds="$seconds" -v of="$ours_fast" -v pf="$peer_fast" -v orr="$ours_re" -v pr="$peer_re" 'BEGIN {
    split(of, o, " "); split(pf, p, " "); split(orr, oq, " "); split(pr, pq, " ")
    mbps = bytes * 8 / seconds / 1e6
    printf "input: %.1f MB, %d s, %.2f Mbit/s\n", bytes / 1e6, seconds, mbps
    printf "%-34s %12s %12s %10s\n", "", "streamkit", "ffmpeg", "ratio"
    printf "%-34s %12.1f %12.1f %9.2fx\n", "throughput, MB/s (no -re)", bytes / 1e6 / o[1], bytes / 1e6 / p[1], p[1] / o[1]
    printf "%-34s %12.4f %12.4f %9.2fx\n", "CPU s per stream s per Mbit/s (-re)", oq[2] / seconds / mbps, pq[2] / seconds / mbps, pq[2] / oq[2]
    printf "(ratio > 1: streamkit is faster / uses less CPU)\n"
}'
