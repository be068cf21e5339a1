#!/usr/bin/env bash
# Benchmarks the bit I/O of the bitstream layer, before and after, in one process (streamkit-benchmark bits):
#  1. the slice headers of an H.264 stream (repeated up to MEGABYTES) read with LegacyBitReader (the reader
#     before the 64-bit cache, kept in the benchmark target) and with BitReader: from ready RBSPs, from the
#     NAL units (unescape + parse), and from the NAL units as ByteViews;
#  2. a stream of random u(n)/ue/se written and read with the legacy and current BitWriter/BitReader,
#     against a plain memcpy of the written bytes.
# Prints times and ratios. Usage: scripts/benchmark-bits.sh [STREAM] [MEGABYTES] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
stream="${1:-../shared/media/encoded/VID_1280x720_cabac_temporal_direct.264}"
megabytes="${2:-400}"
rounds="${3:-11}"

swift build -c release --product streamkit-benchmark >/dev/null
bin="$(swift build -c release --show-bin-path)"
"$bin/streamkit-benchmark" bits "$stream" --megabytes "$megabytes" --rounds "$rounds" --elements 4000000
