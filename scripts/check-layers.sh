#!/usr/bin/env bash
# Checks every `import` in Sources/ against the layers of docs/ARCHITECTURE.md: a module imports only modules of its
# own layer or below, and each protocol's wire syntax (layer 4: RTSPMessages, RTMPWire) and the other layer-4
# modules never import the network layer, sockets or Foundation's networking.
#   scripts/check-layers.sh        — prints each offending import (file:line) and exits 1 if there is one
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - <<'PY'
import pathlib, re, sys
layer = {
    "Bitstream": 1, "MediaCore": 1, "POSIX": 1, "TransportErrors": 1,
    "H264": 2, "HEVC": 2, "AAC": 2, "Opus": 2,
    "CodecInterface": 3, "Codecs": 3, "FFmpegEngine": 3, "NativeH264": 3, "NativeH264Decoder": 3, "NativeAAC": 3,
    "NativeH264Kernels": 3,
    "Containers": 4, "RTP": 4, "RTSPMessages": 4, "RTMPWire": 4, "SRTP": 4, "HTTPMessages": 4, "STUN": 4,
    "Capture": 5, "NetworkIO": 5, "Transport": 5,
    "Live": 6, "StreamKit": 6,
    "streamkit": 7,
}
# Layer 4 is bytes in, bytes out: none of these, even where the layer rule alone would allow them.
not_in_layer_4 = {"POSIX", "FoundationNetworking", "Dispatch"}
bad = []
for path in sorted(pathlib.Path("Sources").rglob("*.swift")):
    module = path.parts[1]
    if module not in layer:
        continue  # the C shims, fuzzers and benchmarks stand beside the layers
    for number, line in enumerate(path.read_text().splitlines(), 1):
        match = re.match(r"\s*(?:@\w+\s+)*import\s+(?:(?:struct|class|enum|func|protocol|typealias)\s+)?(\w+)", line)
        if not match:
            continue
        imported = match.group(1)
        if imported in layer and layer[imported] > layer[module]:
            bad.append(f"{path}:{number}: {module} (layer {layer[module]}) imports {imported} (layer {layer[imported]})")
        if layer[module] == 4 and imported in not_in_layer_4 and module in ("RTSPMessages", "RTMPWire", "RTP", "SRTP", "HTTPMessages", "STUN"):
            bad.append(f"{path}:{number}: {module} is wire syntax on bytes but imports {imported}")
print("\n".join(bad) if bad else f"imports follow the layers ({len(layer)} modules)")
sys.exit(1 if bad else 0)
PY
