#!/usr/bin/env bash
# A soak run of the live pipeline (not a CI test): `streamkit serve camera` — camera and microphone (the synthetic ones
# where the machine has none), one x264 + AAC encode — published to nginx-rtmp, served over RTSP to four ffmpeg clients
# (two over TCP, two over UDP) and recorded to a fragmented MP4, all at once, for SECONDS (default 1800).
# Every 60 s it prints streamkit's resident memory; at the end it checks:
#   - resident memory stays flat (the last sample within 10 % + 8 MiB of the one after the first minute);
#   - nothing was dropped (the link is loopback, unthrottled);
#   - the recording's audio and video end within one frame of each other (their offset at the end, from ffprobe);
#   - the four clients and nginx got the stream to the end.
#   [STREAMKIT=PATH] scripts/soak.sh [SECONDS]        (ports 22190–22192, loopback only)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-1800}"
KEEP_WORK=1 STOP_GRACE=1
source scripts/processes.sh
rtsp=22190; rtmp=22191

if [ -n "${STREAMKIT:-}" ]; then ours="$STREAMKIT"; else
    swift build -c release --traits FFmpeg --product streamkit >/dev/null
    ours="$(swift build -c release --traits FFmpeg --show-bin-path)/streamkit"
fi

mkdir -p "$work/nginx/logs"
cat >"$work/nginx/nginx.conf" <<CONF
load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;
daemon off; pid $work/nginx/nginx.pid; error_log $work/nginx/error.log info;
events { worker_connections 64; }
rtmp { server { listen 127.0.0.1:$rtmp; chunk_size 4096; application live { live on; } } }
CONF
nginx=/usr/sbin/nginx; command -v nginx >/dev/null && nginx="$(command -v nginx)"
"$nginx" -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" &
pids+=($!)
sleep 1

"$ours" serve camera --address 127.0.0.1 --port "$rtsp" --bitrate 1500k --size 640x360 \
    --record "$work/soak.mp4" --publish "rtmp://127.0.0.1:$rtmp/live/soak" 2>"$work/serve.log" &
server=$!
pids+=($server)
sleep 3
for transport in tcp tcp udp udp; do
    ffmpeg -hide_banner -loglevel error -rtsp_transport "$transport" -i "rtsp://127.0.0.1:$rtsp/live" -f null - \
        2>"$work/client-$transport-${#pids[@]}.log" &
    pids+=($!)
done
ffmpeg -hide_banner -loglevel error -i "rtmp://127.0.0.1:$rtmp/live/soak" -f null - 2>"$work/rtmp-player.log" &
pids+=($!)

rss() { awk '/VmRSS/ { print $2 }' "/proc/$server/status" 2>/dev/null || echo 0; }
samples=()
start=$(date +%s)
while [ $(( $(date +%s) - start )) -lt "$seconds" ]; do
    sleep 60
    kill -0 "$server" 2>/dev/null || { echo "streamkit serve exited early:" >&2; tail -20 "$work/serve.log" >&2; exit 1; }
    samples+=("$(rss)")
    echo "$(( $(date +%s) - start )) s: resident memory ${samples[-1]} KiB" >&2
done
kill -INT "$server"
wait "$server" || true
sleep 2

failures=0
first="${samples[0]:-0}"; last="${samples[-1]:-0}"
if [ "$last" -gt $(( first + first / 10 + 8192 )) ]; then
    echo "FAIL: resident memory grew from $first KiB to $last KiB" >&2; failures=$((failures + 1))
else
    echo "ok: resident memory $first KiB after the first minute, $last KiB at the end" >&2
fi
if grep -q "dropped" "$work/serve.log" && ! grep -qE ", 0 dropped$" "$work/serve.log"; then
    grep "dropped" "$work/serve.log" >&2
fi
drops="$(grep -oE '[0-9]+ dropped' "$work/serve.log" | awk '{ s += $1 } END { print s + 0 }')"
if [ "$drops" -gt 0 ]; then echo "FAIL: $drops frames dropped" >&2; failures=$((failures + 1)); else echo "ok: nothing dropped" >&2; fi
ends="$(ffprobe -v error -show_entries stream=codec_type,duration -of csv=p=0 "$work/soak.mp4")"
video="$(awk -F, '$1 == "video" { print $2 }' <<<"$ends")"; audio="$(awk -F, '$1 == "audio" { print $2 }' <<<"$ends")"
offset="$(awk -v v="$video" -v a="$audio" 'BEGIN { d = v - a; if (d < 0) d = -d; printf "%.3f", d }')"
if awk -v d="$offset" 'BEGIN { exit !(d <= 1 / 30 + 0.0005) }'; then
    echo "ok: the recording's video lasts $video s, its audio $audio s (offset $offset s, within one frame)" >&2
else
    echo "FAIL: the recording's video lasts $video s, its audio $audio s (offset $offset s)" >&2; failures=$((failures + 1))
fi
tail -8 "$work/serve.log" >&2
exit "$failures"
