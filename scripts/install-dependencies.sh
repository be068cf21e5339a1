#!/usr/bin/env bash
# Installs, with apt, what StreamKit needs beyond the Swift toolchain. Safe to run again: it installs
# only what is missing.
#   (no argument)  the test oracles and peers: ffmpeg/ffprobe, x264, x265
#   --engine       also FFmpeg's development libraries for the FFmpeg codec engine (trait FFmpeg)
set -euo pipefail

need=()
command -v ffmpeg  >/dev/null 2>&1 || need+=(ffmpeg)
command -v ffprobe >/dev/null 2>&1 || need+=(ffmpeg)
command -v x264    >/dev/null 2>&1 || need+=(x264)
command -v x265    >/dev/null 2>&1 || need+=(x265)
if [ "${1:-}" = "--engine" ] || [ "${1:-}" = "--all" ]; then
    command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
    for lib in libavcodec libavutil libswscale; do
        pkg-config --exists "$lib" 2>/dev/null || need+=("$lib-dev")
    done
fi

if [ "${#need[@]}" -gt 0 ]; then
    echo "installing: ${need[*]}" >&2
    sudo_cmd=""
    if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo_cmd apt-get update -qq
    $sudo_cmd apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
