#!/usr/bin/env bash
# Benchmarks the native H.264 encoder's pixel kernels (NativeH264Kernels): each kernel's plain reference
# version against its fast version, on the same random planes in one process (streamkit-benchmark kernels).
# Prints ns per call of each and the ratio; then the all-intra NativeH264Encoder against x264 at equal QP
# (fps, bytes, PSNR-Y). Usage: scripts/benchmark-kernels.sh [OPERATIONS] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
operations="${1:-20000}"
rounds="${2:-7}"

swift build -c release --product streamkit-benchmark >/dev/null
bin="$(swift build -c release --show-bin-path)"
"$bin/streamkit-benchmark" kernels --operations "$operations" --rounds "$rounds"

# The all-intra encoder on top of them against x264 (same QP, every frame IDR, one thread).
sequence="../shared/media/sequences/foreman_cif8.y4m"
if [ -f "$sequence" ] && command -v x264 >/dev/null; then
    for qp in 22 26 34; do
        "$bin/streamkit-benchmark" native-intra "$sequence" --qp "$qp" --frames 100 --rounds "$rounds"
    done
fi
