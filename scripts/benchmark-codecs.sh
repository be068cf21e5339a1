#!/usr/bin/env bash
# Benchmarks of the codec pipeline, each against its peer on the same input in one run:
#  1. `streamkit encode` vs `ffmpeg -c:v libx264` with the same settings on the same Y4M (fps ratio);
#  2. `streamkit decode` vs `ffmpeg -f null` and vs `ffmpeg -f rawvideo` on the same stream;
#  3. resident memory of a long recording: 18000 frames (10 minutes at 30 fps) of the synthetic camera
#     through the encoder, faster than real time, RSS sampled at the start and at the end.
# Usage: scripts/benchmark-codecs.sh [FRAMES_FOR_1_AND_2] [FRAMES_FOR_3]
set -euo pipefail
cd "$(dirname "$0")/.."
frames="${1:-300}"
long="${2:-18000}"

scripts/install-dependencies.sh --engine
swift build -c release --traits FFmpeg --product streamkit >/dev/null
bin="$(swift build -c release --traits FFmpeg --show-bin-path)/streamkit"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

ffmpeg -v error -f lavfi -i "testsrc2=size=1280x720:rate=30" -frames:v "$frames" -pix_fmt yuv420p "$work/source.y4m"

python3 - "$bin" "$work" "$frames" "$long" <<'PY'
import subprocess, sys, time, threading
streamkit, work, frames, long_frames = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
src = f"{work}/source.y4m"

def best(command, rounds=3):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return min(times)

ours = best([streamkit, "encode", src, "-o", f"{work}/ours.h264", "--bitrate", "2M", "--gop", "30", "--profile", "high"])
peer = best(["ffmpeg", "-v", "error", "-y", "-i", src, "-c:v", "libx264", "-profile:v", "high", "-b:v", "2M",
             "-g", "30", "-keyint_min", "30", "-sc_threshold", "0", "-bf", "0", "-f", "h264", f"{work}/peer.h264"])
import os
print(f"encode 720p x{frames}: streamkit {frames / ours:7.1f} fps   ffmpeg libx264 {frames / peer:7.1f} fps   "
      f"ratio {peer / ours:.3f} (1.0 = same speed; below 1 = our overhead); output "
      f"{os.path.getsize(f'{work}/ours.h264')} vs {os.path.getsize(f'{work}/peer.h264')} bytes")

stream = f"{work}/peer.h264"
ours = best([streamkit, "decode", stream, "-o", f"{work}/ours.yuv"])
null = best(["ffmpeg", "-v", "error", "-i", stream, "-f", "null", "-"])
raw = best(["ffmpeg", "-v", "error", "-y", "-i", stream, "-f", "rawvideo", "-pix_fmt", "yuv420p", f"{work}/peer.yuv"])
print(f"decode 720p x{frames}: streamkit {frames / ours:7.1f} fps   ffmpeg -f null {frames / null:7.1f} fps (ratio {null / ours:.3f})"
      f"   ffmpeg -f rawvideo {frames / raw:7.1f} fps (ratio {raw / ours:.3f})")

def rss(pid):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    except FileNotFoundError:
        return None

for label, command in [
    ("video", [streamkit, "encode", "testsrc", "-o", f"{work}/long.h264", "--frames", str(long_frames), "--bitrate", "800k"]),
    ("audio", [streamkit, "encode", "sine", "-o", f"{work}/long.aac", "--duration", str(long_frames // 30)]),
]:
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    samples = []
    start = time.perf_counter()
    while process.poll() is None:
        value = rss(process.pid)
        if value is not None:
            samples.append((time.perf_counter() - start, value))
        time.sleep(0.1)
    if len(samples) >= 10:
        tenth = max(1, len(samples) // 10)
        head = max(v for _, v in samples[:tenth])
        middle = max(v for _, v in samples[len(samples) // 2 - tenth // 2: len(samples) // 2 + tenth // 2 + 1])
        tail = max(v for _, v in samples[-tenth:])
        print(f"long {label} ({long_frames // 30} s of media, {samples[-1][0]:.1f} s wall): peak RSS "
              f"first 10% {head} MB, middle {middle} MB, last 10% {tail} MB")
    else:
        print(f"long {label}: finished too fast to sample ({len(samples)} samples)")
PY
