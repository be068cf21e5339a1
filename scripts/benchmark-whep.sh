#!/usr/bin/env bash
# CPU per WebRTC viewer (WHEP) of `streamkit serve`, with 1, 4 and 8 viewers, against the CPU per RTSP client of the
# same server and the same encode (ffmpeg clients, TCP interleaved): the per-packet cost of SRTP, RTCP and one UDP
# port per viewer against RTSP's. The viewers are aiortc peer connections that receive, depacketize and count frames
# without decoding them (a decoder that only counts), so their own CPU stays small.
#   scripts/benchmark-whep.sh [SECONDS]      (ports 20700-20702; runs itself inside `unshare -rn`: loopback alone)
# CPU is the server's utime+stime from /proc/PID/stat over SECONDS after a warm-up, minus the cost of serving no one
# (the encode itself) measured the same way; per viewer is that difference over the viewer count.
# Needs a build with --traits FFmpeg,OpenSSL (x264 and DTLS) and the peers' venv (scripts/install-dependencies.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${STREAMKIT_IN_NAMESPACE:-}" ]; then
    exec unshare -rn env STREAMKIT_IN_NAMESPACE=1 bash -c 'ip link set lo up && exec "$0" "$@"' "$0" "$@"
fi
seconds="${1:-10}"
python=".build/peers-venv/bin/python"
source scripts/processes.sh

swift build -c release --product streamkit --traits FFmpeg,OpenSSL --scratch-path .build-release-traited >/dev/null
streamkit=".build-release-traited/release/streamkit"

cat > "$work/viewer.py" <<'PY'
# One WHEP viewer that receives frames and counts them; aiortc's decoder is replaced by a counter.
# (Python takes these two lines for an encoding declaration where they hold that word and a colon, so they hold none.)
import asyncio, json, signal, sys, urllib.request
import aioice.ice
aioice.ice.get_host_addresses = lambda use_ipv4, use_ipv6: ["127.0.0.1"]
import aiortc.rtcrtpreceiver as receiver
from aiortc import RTCPeerConnection, RTCSessionDescription
frames = [0]
class Counting:
    def decode(self, encoded):
        frames[0] += 1
        return []
receiver.get_decoder = lambda codec: Counting()
async def main(url, seconds):
    pc = RTCPeerConnection()
    pc.addTransceiver("video", direction="recvonly")
    await pc.setLocalDescription(await pc.createOffer())
    request = urllib.request.Request(url, data=pc.localDescription.sdp.encode(), headers={"Content-Type": "application/sdp"}, method="POST")
    with urllib.request.urlopen(request) as response:
        location = urllib.parse.urljoin(url, response.headers["Location"])
        await pc.setRemoteDescription(RTCSessionDescription(sdp=response.read().decode(), type="answer"))
    await asyncio.sleep(seconds)
    urllib.request.urlopen(urllib.request.Request(location, method="DELETE"))
    await pc.close()
    print(json.dumps({"frames": frames[0]}), flush=True)
import urllib.parse
asyncio.run(main(sys.argv[1], float(sys.argv[2])))
PY

port=20700
"$streamkit" serve testsrc --size 640x360 --fps 30 --bitrate 2M --gop 60 --bframes 0 --profile baseline --address 127.0.0.1 \
    --port "$port" --http-port $((port + 1)) >"$work/serve.log" 2>&1 &
server=$!; pids+=("$server")
sleep 3
# measure KIND N: the server's CPU % of one core with N viewers (whep) or clients (rtsp), and the frames they got.
measure() {
    local kind="$1" count="$2" clients=() index
    local length=$((seconds + 8))
    for ((index = 0; index < count; index++)); do
        if [ "$kind" = whep ]; then
            "$python" "$work/viewer.py" "http://127.0.0.1:$((port + 1))/live/whep" "$length" >"$work/viewer-$index.json" 2>"$work/viewer-$index.err" &
        else
            timeout -s INT "$length" ffmpeg -hide_banner -loglevel error -rtsp_transport tcp -i "rtsp://127.0.0.1:$port/live" -c copy -f null - \
                </dev/null >/dev/null 2>&1 &
        fi
        clients+=("$!"); pids+=("$!")
    done
    sleep 6
    local before after
    before="$(cpu "$server")"; sleep "$seconds"; after="$(cpu "$server")"
    for pid in "${clients[@]:-}"; do [ -n "$pid" ] && wait "$pid" 2>/dev/null || true; done
    local received=0
    if [ "$kind" = whep ]; then
        received=$(cat "$work"/viewer-*.json 2>/dev/null | awk -F'[:}]' '{n += $2} END {print n + 0}')
        rm -f "$work"/viewer-*.json
    fi
    awk -v t="$((after - before))" -v hz="$hz" -v s="$seconds" -v r="$received" 'BEGIN { printf "%.2f %d\n", t / hz / s * 100, r }'
}
read -r idle _ < <(measure none 0)
printf 'serve, 640x360 30 fps 2 Mbit/s, x264: %s %% of a core serving no one (the encode)\n' "$idle"
printf '%-8s %10s %14s %16s %14s %8s\n' viewers "WHEP CPU %" "per viewer %" "RTSP client CPU %" "per client %" ratio
for count in 1 4 8; do
    read -r whep frames < <(measure whep "$count")
    read -r rtsp _ < <(measure rtsp "$count")
    awk -v n="$count" -v w="$whep" -v r="$rtsp" -v i="$idle" -v f="$frames" 'BEGIN {
        pw = (w - i) / n; pr = (r - i) / n
        printf "%-8d %10.2f %14.2f %16.2f %14.2f %8s   (%d frames counted by the viewers)\n", n, w, pw, r, pr,
            (pr > 0.05 ? sprintf("%.2fx", pw / pr) : "-"), f }'
done
