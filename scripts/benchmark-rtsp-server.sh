#!/usr/bin/env bash
# CPU per RTSP client of our server at 720p 2 Mbit/s H.264, with 1, 8 and 32 clients (ffmpeg, TCP interleaved
# and UDP), against GStreamer's RTSP server (the peer) serving the same file to the same clients.
#   [TRANSPORTS="tcp udp"] scripts/benchmark-rtsp-server.sh [SECONDS]      (ports 20580-20699 and 20800-20999, loopback only)
# CPU is the server process's utime+stime from /proc/PID/stat over SECONDS, after a 2 s warm-up; the cost with
# no client (replaying alone) is measured too. Prints CPU % of one core, per client, and the ratio to the peer.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
source scripts/processes.sh
# How many TCP connections to 127.0.0.1:PORT are established (from /proc/net/tcp: local port in hex, state 01).
established() {
    awk -v port="$(printf '%04X' "$1")" 'NR > 1 { split($2, a, ":"); if (a[2] == port && $4 == "01") n++ } END { print n + 0 }' /proc/net/tcp
}

echo "encoding 60 s of 720p30 at 2 Mbit/s…" >&2
ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=1280x720:rate=30 -t 60 -c:v libx264 -preset veryfast \
    -b:v 2M -maxrate 2M -bufsize 2M -g 60 -bf 0 -x264-params repeat-headers=1 -pix_fmt yuv420p -f h264 "$work/in.h264"
swift build -c release --product streamkit-rtsp-benchmark-server >/dev/null
ours=".build/release/streamkit-rtsp-benchmark-server"

# measure PID PORT TRANSPORT N: the server's CPU % of one core with N clients.
measure() {
    local server="$1" port="$2" transport="$3" count="$4" clients=() index
    for ((index = 0; index < count; index++)); do
        ffmpeg -hide_banner -loglevel error -rtsp_transport "$transport" -min_port 20800 -max_port 20999 \
            -i "rtsp://127.0.0.1:$port/$5" -c copy -f null - </dev/null >/dev/null 2>&1 &
        clients+=("$!"); pids+=("$!")
    done
    # Warm-up: every client connected and past its probing (ffmpeg reads ~5 s before it outputs).
    local waited=0
    while [ "$waited" -lt 60 ] && [ "$(established "$port")" -lt "$count" ]; do sleep 1; waited=$((waited + 1)); done
    sleep 6
    local connected; connected="$(established "$port")"
    [ "$connected" -ge "$count" ] || echo "  warning: only $connected of $count clients connected" >&2
    local before after
    before="$(cpu "$server")"; sleep "$seconds"; after="$(cpu "$server")"
    local alive=0
    for pid in "${clients[@]:-}"; do [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && alive=$((alive + 1)); done
    for pid in "${clients[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done
    for pid in "${clients[@]:-}"; do [ -n "$pid" ] && wait "$pid" 2>/dev/null || true; done
    [ "$alive" -eq "$count" ] || echo "  warning: only $alive of $count clients were still playing" >&2
    awk -v t="$((after - before))" -v hz="$hz" -v s="$seconds" 'BEGIN { printf "%.2f", t / hz / s * 100 }'
}

# The peer: GStreamer's RTSP server, the same file parsed and paced by its timestamps, shared by every client.
cat > "$work/gst.py" <<PY
import gi; gi.require_version("Gst", "1.0"); gi.require_version("GstRtspServer", "1.0")
from gi.repository import Gst, GstRtspServer, GLib
Gst.init(None)
s = GstRtspServer.RTSPServer(); s.set_address("127.0.0.1"); s.set_service("20590")
f = GstRtspServer.RTSPMediaFactory(); f.set_shared(True)
f.set_launch("( filesrc location=$work/in.h264 ! h264parse ! video/x-h264,framerate=30/1 ! rtph264pay name=pay0 pt=96 config-interval=-1 )")
s.get_mount_points().add_factory("/live", f); s.attach(None); print("ready", flush=True); GLib.MainLoop().run()
PY

"$ours" "$work/in.h264" --port 20580 --rtp-port 20660 --capture-port 20670 >"$work/ours.out" 2>&1 &
our_pid=$!; pids+=("$our_pid")
for _ in $(seq 1 150); do grep -q ready "$work/ours.out" 2>/dev/null && break; sleep 0.5; done
grep -q ready "$work/ours.out" || { echo "our server did not start: $(cat "$work/ours.out")" >&2; exit 1; }
# A fresh GStreamer server for each measurement, so its file plays from the start (it does not loop).
gst_pid=""
restart_gst() {
    [ -n "$gst_pid" ] && { kill "$gst_pid" 2>/dev/null || true; wait "$gst_pid" 2>/dev/null || true; }
    : >"$work/gst.out"
    /usr/bin/python3 "$work/gst.py" >"$work/gst.out" 2>&1 &
    gst_pid=$!; pids+=("$gst_pid")
    for _ in $(seq 1 40); do grep -q ready "$work/gst.out" 2>/dev/null && break; sleep 0.25; done
}

printf "%-5s %-8s %10s %12s %10s %12s %8s\n" transport clients "ours %CPU" "ours/client" "gst %CPU" "gst/client" "ratio"
idle="$(measure "$our_pid" 20580 tcp 0 live)"
printf "%-5s %-8s %10s\n" "-" 0 "$idle"
for transport in ${TRANSPORTS:-tcp udp}; do
    for count in 1 8 32; do
        o="$(measure "$our_pid" 20580 "$transport" "$count" live)"
        restart_gst
        g="$(measure "$gst_pid" 20590 "$transport" "$count" live)"
        awk -v t="$transport" -v n="$count" -v o="$o" -v g="$g" -v i="$idle" 'BEGIN {
            op = (o - i) / n; gp = g / n
            printf "%-5s %-8d %10.2f %12.3f %10.2f %12.3f %8.2f\n", t, n, o, op, g, gp, (gp > 0 ? op / gp : 0) }'
    done
done
echo "(%CPU of one core; per client = (total - idle replay cost) / clients for ours, total / clients for GStreamer;"
echo " ratio = ours/client ÷ gst/client, below 1 means we use less)"
