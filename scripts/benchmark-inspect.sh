#!/usr/bin/env bash
# Benchmarks for the bitstream layer, each against its peer on the same input in one run:
#  1. `streamkit inspect --json` vs `ffprobe -show_frames` on a ~100 MB H.264 stream (concatenated copies);
#  2. Annex B → AVCC conversion vs a plain memory copy of the same bytes (streamkit-benchmark).
# Prints times and ratios. Usage: scripts/benchmark-inspect.sh [STREAM] [MEGABYTES]
set -euo pipefail
cd "$(dirname "$0")/.."
stream="${1:-../shared/media/encoded/VID_1280x720_cabac_temporal_direct.264}"
megabytes="${2:-100}"

scripts/install-dependencies.sh
swift build -c release --product streamkit >/dev/null
swift build -c release --product streamkit-benchmark >/dev/null
bin="$(swift build -c release --show-bin-path)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
big="$work/big.h264"
size=$(stat -c %s "$stream")
copies=$(( (megabytes * 1048576 + size - 1) / size ))
for _ in $(seq "$copies"); do cat "$stream"; done > "$big"
echo "input: $(du -m "$big" | cut -f1) MB ($copies copies of $stream)"

python3 - "$bin/streamkit" "$big" <<'PY'
import subprocess, sys, time
streamkit, big = sys.argv[1], sys.argv[2]
def best(command, rounds=3):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return min(times)
ours = best([streamkit, "inspect", "--json", big])
peer = best(["ffprobe", "-v", "error", "-show_frames", "-of", "json", big])
print(f"streamkit inspect --json: {ours:8.3f} s")
print(f"ffprobe -show_frames:     {peer:8.3f} s")
print(f"ratio ffprobe / streamkit: {peer / ours:.1f}x (higher is better for us)")
PY
echo
"$bin/streamkit-benchmark" annexb-to-avcc "$stream" --megabytes "$megabytes"
