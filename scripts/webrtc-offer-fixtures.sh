#!/usr/bin/env bash
# Regenerates the WebRTC offers the SDP answer tests read (Tests/WebNetTests/Fixtures/*.sdp): real offers from
# headless Chromium (a WHEP-player-like recvonly offer, and a WHIP-publisher-like sendonly offer of a canvas
# and an oscillator) and from aiortc, each gathered on loopback only (inside `unshare -n` with only `lo` up).
#   scripts/webrtc-offer-fixtures.sh        — needs chromium, and aiortc in .build/peers-venv (scripts/install-dependencies.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/WebNetTests/Fixtures
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python="${STREAMKIT_PEERS_PYTHON:-.build/peers-venv/bin/python}"

page() {  # $1: recvonly | sendonly
cat > "$work/offer-$1.html" <<HTML
<!doctype html><html><body><pre id="sdp">pending</pre><script>
(async () => {
  const pc = new RTCPeerConnection();
  if ("$1" === "sendonly") {
    // A canvas and a Web Audio oscillator as the camera and microphone (getUserMedia stalls under virtual time).
    const canvas = Object.assign(document.createElement("canvas"), { width: 640, height: 360 });
    canvas.getContext("2d").fillRect(0, 0, 640, 360);
    const audio = new AudioContext(), tone = audio.createOscillator(), sink = audio.createMediaStreamDestination();
    tone.connect(sink);
    const stream = new MediaStream([...canvas.captureStream(30).getVideoTracks(), ...sink.stream.getAudioTracks()]);
    for (const track of stream.getTracks()) pc.addTransceiver(track, { direction: "sendonly", streams: [stream] });
  } else {
    pc.addTransceiver("video", { direction: "recvonly" });
    pc.addTransceiver("audio", { direction: "recvonly" });
  }
  // Each gathered candidate rewrites the offer (the dump is taken when the virtual-time budget runs out).
  pc.onicecandidate = () => { document.getElementById("sdp").textContent = pc.localDescription.sdp; };
  await pc.setLocalDescription(await pc.createOffer());
  document.getElementById("sdp").textContent = pc.localDescription.sdp;
})().catch(e => document.getElementById("sdp").textContent = "error " + e);
</script></body></html>
HTML
}

for direction in recvonly sendonly; do
    page "$direction"
    unshare -n bash -c "ip link set lo up; timeout 60 chromium --headless=new --no-sandbox --disable-gpu \
        --allow-loopback-in-peer-connection --use-fake-device-for-media-stream --use-fake-ui-for-media-stream \
        --user-data-dir=$work/profile-$direction --virtual-time-budget=10000 --dump-dom file://$work/offer-$direction.html 2>/dev/null" \
        > "$work/dom-$direction.html"
    python3 - "$work/dom-$direction.html" "$out/chromium-$direction.sdp" <<'PY'
import html, re, sys
text = open(sys.argv[1]).read()
match = re.search(r'<pre id="sdp">(.*?)</pre>', text, re.S)
sdp = html.unescape(match.group(1)) if match else ""
if not sdp.startswith("v=0"):
    sys.exit(f"chromium gave no offer: {sdp[:200]!r}")
open(sys.argv[2], "w", newline="").write(sdp.replace("\r\n", "\n").replace("\n", "\r\n"))
PY
done

unshare -n bash -c "ip link set lo up; timeout 60 $python - $out/aiortc-recvonly.sdp" <<'PY'
import asyncio, sys
import aioice
aioice.ice.get_host_addresses = lambda use_ipv4, use_ipv6: ["127.0.0.1"]
from aiortc import RTCPeerConnection
async def main():
    pc = RTCPeerConnection()
    pc.addTransceiver("video", direction="recvonly")
    pc.addTransceiver("audio", direction="recvonly")
    await pc.setLocalDescription(await pc.createOffer())
    open(sys.argv[1], "w", newline="").write(pc.localDescription.sdp)
    await pc.close()
asyncio.run(main())
PY
ls -l "$out"
