#!/usr/bin/env bash
# Installs, with apt, what StreamKit's tests and demo need beyond the Swift toolchain:
# ffmpeg/ffprobe (the oracles), x264 and x265 (the peers and stream makers).
# Safe to run again: it installs only what is missing.
set -euo pipefail

need=()
command -v ffmpeg  >/dev/null 2>&1 || need+=(ffmpeg)
command -v ffprobe >/dev/null 2>&1 || need+=(ffmpeg)
command -v x264    >/dev/null 2>&1 || need+=(x264)
command -v x265    >/dev/null 2>&1 || need+=(x265)

if [ "${#need[@]}" -gt 0 ]; then
    echo "installing: ${need[*]}" >&2
    sudo_cmd=""
    if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo_cmd apt-get update -qq
    $sudo_cmd apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
