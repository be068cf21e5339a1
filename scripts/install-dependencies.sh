#!/usr/bin/env bash
# Installs, with apt, what StreamKit needs beyond the Swift toolchain. Safe to run again: it installs
# only what is missing.
#   (no argument)  the test oracles and peers: ffmpeg/ffprobe, x264, x265, Chromium (plays our MP4/HLS),
#                  tshark (dissects our RTP/RTSP), GStreamer with its RTSP server (a real RTSP peer),
#                  libopenh264 (the native encoder's benchmark peer), valgrind (its callgrind profile), the openssl
#                  CLI, nginx with its RTMP module (the RTMP server we publish to and play from) and its stream module
#                  (TLS termination, RTMPS), srt-tools (srt-live-transmit: the SRT project's own peer)
#   --engine       also FFmpeg's development libraries for the FFmpeg codec engine (trait FFmpeg),
#                  OpenSSL's for TLS (trait OpenSSL) and libsrt's for SRT (trait SRT)
# Always also: a modern FFmpeg (PyPI's imageio-ffmpeg, a static FFmpeg with libopenh264 and libkvazaar,
# which Debian's lacks) in a virtual environment at .build/peers-venv, for the tests that check our
# parsers on streams from those encoders (they find it there, or at $STREAMKIT_MODERN_FFMPEG); numpy and
# matplotlib in the same environment, for scripts/benchmark-native-h264.sh (BD-rate and the RD plot).
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v ffmpeg  >/dev/null 2>&1 || need+=(ffmpeg)
command -v ffprobe >/dev/null 2>&1 || need+=(ffmpeg)
command -v x264    >/dev/null 2>&1 || need+=(x264)
command -v x265    >/dev/null 2>&1 || need+=(x265)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v tshark  >/dev/null 2>&1 || need+=(tshark)
command -v valgrind >/dev/null 2>&1 || need+=(valgrind)
command -v gst-launch-1.0 >/dev/null 2>&1 || need+=(gstreamer1.0-tools)
command -v ip      >/dev/null 2>&1 || need+=(iproute2)
command -v unshare >/dev/null 2>&1 || need+=(util-linux)
# GStreamer's Python bindings live in Debian's own Python (/usr/bin/python3), not the one on PATH.
if ! /usr/bin/python3 -c 'import gi; gi.require_version("GstRtspServer", "1.0")' >/dev/null 2>&1; then
    need+=(python3-gst-1.0 gir1.2-gst-rtsp-server-1.0)
fi
command -v openssl >/dev/null 2>&1 || need+=(openssl)
for pkg in gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly gstreamer1.0-libav libopenh264-dev \
           nginx libnginx-mod-rtmp libnginx-mod-stream srt-tools; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
if [ "${1:-}" = "--engine" ] || [ "${1:-}" = "--all" ]; then
    command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
    for lib in libavcodec libavutil libswscale; do
        pkg-config --exists "$lib" 2>/dev/null || need+=("$lib-dev")
    done
    pkg-config --exists openssl 2>/dev/null || need+=(libssl-dev)
    pkg-config --exists srt 2>/dev/null || need+=(libsrt-openssl-dev)
fi
venv=.build/peers-venv
if [ ! -x "$venv/bin/python" ]; then
    command -v python3 >/dev/null 2>&1 || need+=(python3)
    python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || need+=(python3-venv)
fi

if [ "${#need[@]}" -gt 0 ]; then
    echo "installing: ${need[*]}" >&2
    sudo_cmd=""
    if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo_cmd apt-get update -qq
    $sudo_cmd apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# The modern FFmpeg, into the package's own build folder (nothing system-wide).
if [ -z "${STREAMKIT_MODERN_FFMPEG:-}" ]; then
    if ! "$venv/bin/python" -c 'import imageio_ffmpeg' >/dev/null 2>&1; then
        echo "installing: imageio-ffmpeg into $venv" >&2
        mkdir -p .build
        python3 -m venv "$venv"
        "$venv/bin/pip" install --quiet imageio-ffmpeg
    fi
    echo "modern ffmpeg: $("$venv/bin/python" -c 'import imageio_ffmpeg as i; print(i.get_ffmpeg_exe())')" >&2
fi
# libsrtp through pylibsrtp: the SRTP peer of Tests/SRTPTests (PyLibSRTP in TestSupport), in the same environment.
if [ -z "${STREAMKIT_PYLIBSRTP_PYTHON:-}" ] && ! "$venv/bin/python" -c 'import pylibsrtp' >/dev/null 2>&1; then
    echo "installing: pylibsrtp into $venv" >&2
    [ -x "$venv/bin/python" ] || { mkdir -p .build; python3 -m venv "$venv"; }
    "$venv/bin/pip" install --quiet pylibsrtp
fi
# The WebRTC, STUN/ICE and HTTP peers of WebNetTests: aiortc (with aioice) and requests, in the same environment.
if [ -x "$venv/bin/python" ] && ! "$venv/bin/python" -c 'import aiortc, aioice, requests' >/dev/null 2>&1; then
    echo "installing: aiortc and requests into $venv" >&2
    "$venv/bin/pip" install --quiet aiortc requests
fi
# The benchmarks' analysis: numpy (BD-rate) and matplotlib (RD-curve plot), in the same environment.
if ! "$venv/bin/python" -c 'import numpy, matplotlib' >/dev/null 2>&1; then
    echo "installing: numpy matplotlib into $venv" >&2
    [ -x "$venv/bin/python" ] || { mkdir -p .build; python3 -m venv "$venv"; }
    "$venv/bin/pip" install --quiet numpy matplotlib
fi
