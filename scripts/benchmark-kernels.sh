#!/usr/bin/env bash
# Benchmarks the native H.264 encoder's pixel kernels (NativeH264Kernels): each kernel's plain reference
# version against its fast version, on the same random planes in one process (streamkit-benchmark kernels).
# Prints ns per call of each and the ratio. Usage: scripts/benchmark-kernels.sh [OPERATIONS] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
operations="${1:-20000}"
rounds="${2:-7}"

swift build -c release --product streamkit-benchmark >/dev/null
bin="$(swift build -c release --show-bin-path)"
"$bin/streamkit-benchmark" kernels --operations "$operations" --rounds "$rounds"
