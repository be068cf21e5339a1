#!/usr/bin/env bash
# Benchmarks for the bitstream layer, each against its peer on the same input in one run:
#  1. `streamkit inspect --json` vs `ffprobe -show_packets` (the fair peer: neither decodes) on a
#     ~100 MB and a ~1 GB H.264 stream: wall time (best of 3) and peak resident memory
#     (`/usr/bin/time -v`), with the ratios. The streams are copies of one real x264 stream made here
#     with ffmpeg -c:v libx264, written to a temporary folder and removed afterwards (never committed).
#     Set BASELINE=/path/to/an/older/streamkit to measure it too (before/after in one run), and
#     STREAM=FILE to copy an existing stream instead (for example the shared 720p x264 stream, whose
#     small frames make many more NAL units per megabyte).
#  2. Annex B → AVCC conversion vs a plain memory copy of the same bytes (streamkit-benchmark).
# Usage: scripts/benchmark-inspect.sh [SIZES_IN_MB]   (default "100 1000")
set -euo pipefail
cd "$(dirname "$0")/.."
sizes="${1:-100 1000}"

scripts/install-dependencies.sh
if [ ! -x /usr/bin/time ]; then
    sudo_cmd=""
    if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends time >/dev/null
fi
swift build -c release --product streamkit >/dev/null
swift build -c release --product streamkit-benchmark >/dev/null
bin="$(swift build -c release --show-bin-path)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# About 15 MB of real x264 output: 720p at 6 Mbit/s, B-frames, a key frame every 50 frames.
piece="${STREAM:-$work/piece.h264}"
[ -n "${STREAM:-}" ] || ffmpeg -v error -f lavfi -i testsrc2=size=1280x720:rate=25 -frames:v 500 -pix_fmt yuv420p \
    -c:v libx264 -preset veryfast -b:v 6M -g 50 -bf 3 -f h264 "$piece"

python3 - "$bin/streamkit" "$piece" "$work" "${BASELINE:-}" $sizes <<'PY'
import os, re, subprocess, sys, time
streamkit, piece, work, baseline = sys.argv[1:5]
sizes = [int(s) for s in sys.argv[5:]]

def measure(command, rounds=3):
    """Best wall time and the largest peak RSS (MB) over `rounds` runs, from /usr/bin/time -v."""
    times, peaks = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-v"] + command, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            sys.exit(f"{command[0]} failed ({done.returncode}): {done.stderr[-500:]}")
        peaks.append(int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr).group(1)) / 1024)
    return min(times), max(peaks)

piece_bytes = open(piece, "rb").read()
for megabytes in sizes:
    big = os.path.join(work, f"big-{megabytes}.h264")
    copies = -(-megabytes * 1048576 // len(piece_bytes))
    with open(big, "wb") as out:
        for _ in range(copies):
            out.write(piece_bytes)
    print(f"input: {os.path.getsize(big) / 1048576:.0f} MB ({copies} copies of a {len(piece_bytes) / 1048576:.1f} MB x264 stream)")
    peer = measure(["ffprobe", "-v", "error", "-f", "h264", "-show_packets", "-of", "json", big])
    runs = [("streamkit inspect --json", streamkit)]
    if baseline:
        runs.append(("baseline inspect --json", baseline))
    print(f"  {'ffprobe -show_packets':26} {peer[0]:7.3f} s  {peer[1]:7.1f} MB peak RSS")
    for label, binary in runs:
        ours = measure([binary, "inspect", "--json", big])
        print(f"  {label:26} {ours[0]:7.3f} s  {ours[1]:7.1f} MB peak RSS"
              f"   time ffprobe/ours {peer[0] / ours[0]:.2f}x, RSS ffprobe/ours {peer[1] / ours[1]:.2f}x (higher is better for us)")
    os.remove(big)
PY
echo
"$bin/streamkit-benchmark" annexb-to-avcc ../shared/media/encoded/VID_1280x720_cabac_temporal_direct.264 --megabytes 100
