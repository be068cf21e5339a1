#!/usr/bin/env bash
# Heap allocation counts, against the peer on the same input in one run, of a release build:
#  1. `streamkit inspect --json` vs `ffprobe -show_packets` (neither decodes) on an x264 stream
#     (testsrc2 720p, libx264, 4 slices a frame, made here with ffmpeg into .build — never committed): allocations per
#     NAL unit and per frame.
#  2. a 1 000-frame encode, `streamkit encode testsrc -o x.h264 --frames 1000 --size 320x240` (FFmpeg
#     engine, built with --traits FFmpeg) vs `ffmpeg -c:v libx264` of 1 000 testsrc frames of that
#     size: allocations per frame.
# Counted by scripts/benchmark-allocations/count-allocations.c, loaded with LD_PRELOAD into each tool
# (every malloc, calloc, realloc and aligned allocation of the process, all threads). valgrind's
# "total heap usage" agrees within 4 % on inspect, but valgrind 3.19 crashes on Swift's threads (the
# encoder) and cannot read the toolchain's DWARF 5, so it is not used.
# Each tool runs on two lengths of the same input (N and N/2 frames); "per unit" is the difference
# divided by the difference in units, so start-up (runtime, libraries, codec set-up) cancels out; the
# whole-run average is printed too.
# Set BASELINE=/path/to/an/older/streamkit to measure it as well (before/after in one run), and
# STREAMKIT=/path/to/streamkit to measure a release build made elsewhere instead of building one.
# Usage: scripts/benchmark-allocations.sh [INSPECT_FRAMES] [ENCODE_FRAMES]   (default 300 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
inspect_frames="${1:-300}"
encode_frames="${2:-1000}"

command -v cc >/dev/null || { echo "a C compiler (cc) is needed for the allocation counter" >&2; exit 1; }
command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null || { echo "ffmpeg and ffprobe are needed" >&2; exit 1; }
if [ -n "${STREAMKIT:-}" ]; then
    bin="$STREAMKIT"  # an already built release binary (with the FFmpeg trait)
else
    swift build -c release --product streamkit --traits FFmpeg >/dev/null
    bin="$(swift build -c release --traits FFmpeg --show-bin-path)/streamkit"
fi

work=".build/benchmark-allocations"
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
cc -O2 -shared -fPIC -o "$work/count-allocations.so" scripts/benchmark-allocations/count-allocations.c
# One thread, so the shorter stream is exactly the start of the longer one.
for frames in "$inspect_frames" $((inspect_frames / 2)); do
    ffmpeg -v error -f lavfi -i testsrc2=size=1280x720:rate=25 -frames:v "$frames" -pix_fmt yuv420p \
        -c:v libx264 -threads 1 -slices 4 -preset veryfast -b:v 4M -g 50 -bf 3 -f h264 "$work/inspect-$frames.h264"
done

python3 - "$bin" "$work" "${BASELINE:-}" "$inspect_frames" "$encode_frames" <<'PY'
import json, os, re, subprocess, sys
streamkit, work, baseline, inspect_frames, encode_frames = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
counter = os.path.abspath(os.path.join(work, "count-allocations.so"))

def allocations(command):
    """The heap blocks a command allocates (all its threads), from the LD_PRELOAD counter."""
    result = os.path.join(work, "allocations.txt")
    if os.path.exists(result):
        os.remove(result)
    environment = dict(os.environ, LD_PRELOAD=counter, STREAMKIT_ALLOCATION_COUNT_FILE=result)
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=environment)
    if done.returncode != 0:
        sys.exit(f"{command[0]} failed ({done.returncode}): {done.stderr[-800:]}")
    lines = open(result).read().split()
    if len(lines) != 1:
        sys.exit(f"expected one count from {command[0]}, got {lines}")
    return int(lines[0]), None

def counts(stream):
    """NAL units and frames of a stream, from ffprobe (the oracle, independent of the tool measured)."""
    packets = json.loads(subprocess.run(["ffprobe", "-v", "error", "-f", "h264", "-show_packets", "-of", "json", stream],
                                        stdout=subprocess.PIPE, check=True).stdout)["packets"]
    nal_units = len(re.findall(rb"\x00\x00\x01", open(stream, "rb").read()))
    return nal_units, len(packets)

def report(label, long_allocs, short_allocs, long_units, short_units, unit_name):
    marginal = (long_allocs - short_allocs) / (long_units - short_units)
    print(f"  {label:30} {long_allocs:10,} allocs   {marginal:8.2f} per {unit_name} (marginal)"
          f"   {long_allocs / long_units:8.2f} per {unit_name} (whole run)")
    return marginal

print(f"1. inspect --json: testsrc2 1280x720 x264 stream, {inspect_frames} and {inspect_frames // 2} frames")
long_stream, short_stream = (os.path.join(work, f"inspect-{n}.h264") for n in (inspect_frames, inspect_frames // 2))
(long_nals, long_frames), (short_nals, short_frames) = counts(long_stream), counts(short_stream)
print(f"  {long_nals} NAL units / {long_frames} frames (and {short_nals} / {short_frames})")
tools = [("ffprobe -show_packets", lambda s: ["ffprobe", "-v", "error", "-f", "h264", "-show_packets", "-of", "json", s]),
         ("streamkit inspect --json", lambda s: [streamkit, "inspect", "--json", s])]
if baseline:
    tools.append(("baseline inspect --json", lambda s: [baseline, "inspect", "--json", s]))
results = {}
for label, command in tools:
    long_allocs, _ = allocations(command(long_stream))
    short_allocs, _ = allocations(command(short_stream))
    per_nal = report(label, long_allocs, short_allocs, long_nals, short_nals, "NAL unit")
    per_frame = (long_allocs - short_allocs) / (long_frames - short_frames)
    print(f"  {'':30} {'':10}          {per_frame:8.2f} per frame (marginal)")
    results[label] = (per_nal, per_frame)
peer = results["ffprobe -show_packets"]
for label in results:
    if label.startswith("ffprobe"):
        continue
    ours = results[label]
    ratio = lambda a, b: f"{a / b:.2f}x" if b > 0 else "n/a (ours: none)"
    print(f"  {label}: ffprobe/ours per NAL unit {ratio(peer[0], ours[0])}, per frame {ratio(peer[1], ours[1])} (higher is better for us)")

print(f"\n2. encode: 320x240 test pattern, libx264, {encode_frames} and {encode_frames // 2} frames")
def ffmpeg_encode(frames):
    return ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-frames:v", str(frames),
            "-c:v", "libx264", "-g", "30", "-bf", "0", "-f", "h264", os.path.join(work, "peer.h264")]
def streamkit_encode(binary):
    return lambda frames: [binary, "encode", "testsrc", "-o", os.path.join(work, "ours.h264"), "--frames", str(frames), "--size", "320x240"]
tools = [("ffmpeg -c:v libx264", ffmpeg_encode), ("streamkit encode", streamkit_encode(streamkit))]
if baseline:
    tools.append(("baseline encode", streamkit_encode(baseline)))
results = {}
for label, command in tools:
    long_allocs, _ = allocations(command(encode_frames))
    short_allocs, _ = allocations(command(encode_frames // 2))
    results[label] = report(label, long_allocs, short_allocs, encode_frames, encode_frames // 2, "frame")
for label, ours in results.items():
    if label.startswith("ffmpeg"):
        continue
    peer = results["ffmpeg -c:v libx264"]
    print(f"  {label}: ffmpeg/ours per frame {peer / ours:.2f}x (higher is better for us)")
PY
