#!/usr/bin/env bash
# Benchmarks the SRTP/SRTCP transform (module SRTP, ciphers from OpenSSL's libcrypto): protect and unprotect of RTP
# packets in place, and protect of RTCP, for AES_CM_128_HMAC_SHA1_80 and AEAD_AES_128_GCM, against a memcpy of the same
# bytes in the same process (streamkit-benchmark srtp). Prints MB/s, packets/s and the time ratio to the memcpy for
# 1200-byte (video) and 160-byte (audio) packets.
#   scripts/benchmark-srtp.sh [PACKETS] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
packets="${1:-20000}"
rounds="${2:-5}"

swift build -c release --traits OpenSSL --scratch-path .build-openssl --product streamkit-benchmark >/dev/null
bin="$(swift build -c release --traits OpenSSL --scratch-path .build-openssl --show-bin-path)"
for size in 1200 160; do
    "$bin/streamkit-benchmark" srtp --size "$size" --packets "$packets" --rounds "$rounds"
done
