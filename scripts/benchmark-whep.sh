#!/usr/bin/env bash
# CPU per WebRTC viewer (WHEP) of `streamkit serve whip` with 1, 4 and 8 viewers, against the CPU per RTSP reader of
# the same server serving the same stream: the fan-out alone. Nothing is encoded in the server: FFmpeg 9 (`-f whip`,
# from the peers' venv) publishes 640x360 30 fps H.264 at 2 Mbit/s (and Opus) to it over WHIP and it re-serves what
# arrives. The viewers are aiortc peer connections that receive, depacketize and count frames without decoding them;
# the RTSP readers are ffmpeg copying to nothing (-c copy -f null), over each transport in RTSP_TRANSPORTS.
#   [RTSP_TRANSPORTS="udp tcp"] [REPEATS=3] [SKIP_BUILD=1] scripts/benchmark-whep.sh [SECONDS]
#   (ports 20700-20702 and 20800-20999; runs itself inside `unshare -rn`: loopback alone)
# CPU is the server's utime+stime from /proc/PID/stat over windows of SECONDS (default 12) taken REPEATS times one
# after another with the same clients connected; the median window is kept. The median with no client (receiving the
# publisher, HLS segmenting) is subtracted; per viewer is what remains over the count.
# Needs a release build with --traits FFmpeg,OpenSSL,SRT (DTLS) and the peers' venv (scripts/install-dependencies.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${STREAMKIT_IN_NAMESPACE:-}" ]; then
    # Built before entering the namespace: SwiftPM run inside it rebuilt every module from scratch.
    [ -n "${SKIP_BUILD:-}" ] || swift build -c release --product streamkit --traits FFmpeg,OpenSSL,SRT --scratch-path .build-release-traited >/dev/null
    exec unshare -rn env STREAMKIT_IN_NAMESPACE=1 bash -c 'ip link set lo up && exec "$0" "$@"' "$0" "$@"
fi
seconds="${1:-12}"
repeats="${REPEATS:-3}"
python=".build/peers-venv/bin/python"
modern="$(ls .build/peers-venv/lib/python*/site-packages/imageio_ffmpeg/binaries/ffmpeg-* 2>/dev/null | head -1)"
[ -x "$modern" ] || { echo "FFmpeg 9 (imageio-ffmpeg) is not in .build/peers-venv: run scripts/install-dependencies.sh" >&2; exit 1; }
source scripts/processes.sh

streamkit=".build-release-traited/release/streamkit"

cat > "$work/viewer.py" <<'PY'
# One WHEP viewer that receives frames and counts them; aiortc's decoder is replaced by a counter.
# (Python takes these two lines for an encoding declaration where they hold that word and a colon, so they hold none.)
import asyncio, json, sys, urllib.parse, urllib.request
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
asyncio.run(main(sys.argv[1], float(sys.argv[2])))
PY

port=20700
warm=6
length=$((warm + seconds * repeats + 2))
"$streamkit" serve whip --address 127.0.0.1 --port "$port" --http-port $((port + 1)) --path live >"$work/serve.log" 2>&1 &
server=$!; pids+=("$server")
for _ in $(seq 1 40); do grep -q "taking a WHIP publisher" "$work/serve.log" 2>/dev/null && break; sleep 0.25; done
grep -q "taking a WHIP publisher" "$work/serve.log" || { echo "the server did not start: $(cat "$work/serve.log")" >&2; exit 1; }
# The publisher runs for the whole benchmark: 7 measurements per transport's worth of windows, and some spare.
transports="${RTSP_TRANSPORTS:-udp tcp}"
total=$(( (4 + 3 * $(wc -w <<<"$transports")) * (length + 2) + 30 ))
"$modern" -hide_banner -nostats -loglevel error -re \
    -f lavfi -i "testsrc2=size=640x360:rate=30" -f lavfi -i "sine=frequency=440:sample_rate=48000" -t "$total" \
    -c:v libx264 -preset veryfast -profile:v baseline -bf 0 -g 60 -keyint_min 60 -sc_threshold 0 -b:v 2M -maxrate 2M -bufsize 2M \
    -pix_fmt yuv420p -tune zerolatency -c:a libopus -ac 2 -b:a 64k -whip_flags dtls_active \
    -f whip "http://127.0.0.1:$((port + 1))/live/whip" >"$work/publisher.log" 2>&1 &
publisher=$!; pids+=("$publisher")
for _ in $(seq 1 60); do grep -q "WHIP publisher 1 arrived" "$work/serve.log" 2>/dev/null && break; sleep 0.25; done
grep -q "WHIP publisher 1 arrived" "$work/serve.log" || { echo "no publisher: $(cat "$work/publisher.log" "$work/serve.log")" >&2; exit 1; }
sleep 3

# measure KIND N: the server's median CPU % of one core over REPEATS windows with N WHEP viewers (whep) or RTSP
# readers (udp, tcp) connected, and the frames the clients got.
measure() {
    local kind="$1" count="$2" clients=() index windows=()
    for ((index = 0; index < count; index++)); do
        if [ "$kind" = whep ]; then
            "$python" "$work/viewer.py" "http://127.0.0.1:$((port + 1))/live/whep" "$length" >"$work/viewer-$index.json" 2>"$work/viewer-$index.err" &
        else
            timeout -s INT "$length" ffmpeg -hide_banner -nostdin -loglevel error -stats -rtsp_transport "$kind" -min_port 20800 -max_port 20999 \
                -i "rtsp://127.0.0.1:$port/live" -map 0:v -c copy -f null - >/dev/null 2>"$work/reader-$index.err" &
        fi
        clients+=("$!"); pids+=("$!")
    done
    sleep "$warm"
    local before after repeat
    for ((repeat = 0; repeat < repeats; repeat++)); do
        before="$(cpu "$server")"; sleep "$seconds"; after="$(cpu "$server")"
        windows+=("$((after - before))")
    done
    for pid in "${clients[@]:-}"; do [ -n "$pid" ] && wait "$pid" 2>/dev/null || true; done
    local received=0
    if [ "$kind" = whep ]; then
        received=$(cat "$work"/viewer-*.json 2>/dev/null | awk -F'[:}]' '{n += $2} END {print n + 0}')
        rm -f "$work"/viewer-*.json
    elif [ "$count" -gt 0 ]; then
        received=$(for f in "$work"/reader-*.err; do tr '\r' '\n' <"$f" | grep -o 'frame= *[0-9]*' | tail -1 | grep -o '[0-9]*$'; done | awk '{n += $1} END {print n + 0}')
        rm -f "$work"/reader-*.err
    fi
    printf '%s\n' "${windows[@]}" | sort -n | awk -v hz="$hz" -v s="$seconds" -v r="$received" \
        '{ w[NR] = $1 } END { m = (NR % 2) ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2; printf "%.2f %d\n", m / hz / s * 100, r }'
}
read -r idle _ < <(measure none 0)
printf 'serve whip (FFmpeg 9 publishing 640x360 30 fps 2 Mbit/s H.264 + Opus): %s %% of a core serving no one; windows %d x %d s, median\n' \
    "$idle" "$repeats" "$seconds"
printf '%-6s %-8s %8s %12s %8s %12s %7s   %s\n' rtsp viewers "WHEP %" "per viewer" "RTSP %" "per reader" ratio "frames (WHEP viewers / RTSP readers)"
declare -A whep whepframes
for count in 1 4 8; do read -r "whep[$count]" "whepframes[$count]" < <(measure whep "$count"); done
for transport in $transports; do
    for count in 1 4 8; do
        read -r rtsp rtspframes < <(measure "$transport" "$count")
        awk -v t="$transport" -v n="$count" -v w="${whep[$count]}" -v r="$rtsp" -v i="$idle" -v f="${whepframes[$count]}" -v g="$rtspframes" 'BEGIN {
            pw = (w - i) / n; pr = (r - i) / n
            printf "%-6s %-8d %8.2f %12.2f %8.2f %12.2f %7s   %d / %d\n", t, n, w, pw, r, pr, (pr > 0.02 ? sprintf("%.2fx", pw / pr) : "-"), f, g }'
    done
done
grep -E "publisher .* (arrived|left)|error" "$work/serve.log" >&2 || true
