#!/usr/bin/env bash
# The native AAC-LC encoder against FFmpeg's `aac` encoder on the recordings of the shared media
# (../shared/media/audio/recordings, stereo 48 kHz): Zimtohrli MOS and SNR of each (priming removed),
# our bit rate against the target, encode CPU time as a ratio (streamkit-benchmark aac-encode), and the native
# decoder's CPU time against FFmpeg's `aac` decoder on our stream (streamkit-benchmark aac-decode).
#
#   scripts/benchmark-aac-encoder.sh [BITRATE[m] ...]   (default: 64000 32000m 128000)
#
# A rate ending in `m` is mono: each recording is first mixed down to one channel by ffmpeg (`-ac 1`,
# the mean of left and right), and both encoders and the scores take that mono file.
#
# Zimtohrli comes from PyPI into a venv (ZIMTOHRLI_VENV, default .build/venv-zimtohrli), as PEERS.md says.
set -euo pipefail
cd "$(dirname "$0")/.."
media="${STREAMKIT_MEDIA:-../shared/media}/audio/recordings"
venv="${ZIMTOHRLI_VENV:-.build/venv-zimtohrli}"
rates=("$@"); [ ${#rates[@]} -gt 0 ] || rates=(64000 32000m 128000)
[ -d "$media" ] || { echo "no recordings at $media" >&2; exit 1; }
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv" && "$venv/bin/pip" install -q zimtohrli numpy; fi
swift build -c release --product streamkit-benchmark >&2
bench="$(swift build -c release --show-bin-path)/streamkit-benchmark"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
for spec in "${rates[@]}"; do
    rate="${spec%m}"; layout=stereo; [ "$rate" = "$spec" ] || layout=mono
    echo "== $rate bit/s $layout: recording | native MOS SNR | ffmpeg MOS SNR | native rate vs target | encode time native/ffmpeg | decode time native/ffmpeg"
    sums="0 0 0"
    for source in "$media"/*.wav; do
        name="$(basename "$source" .wav)"
        wav="$source"
        if [ "$layout" = mono ]; then
            wav="$work/$name.mono.wav"
            ffmpeg -v error -y -i "$source" -ac 1 -c:a pcm_s16le "$wav"
        fi
        report="$("$bench" aac-encode "$wav" "$work/native.aac" --bitrate "$rate" --rounds 1)"
        ffmpeg -v error -y -i "$wav" -c:a aac -b:a "$rate" -f adts "$work/ffmpeg.aac"
        scores="$("$venv/bin/python" scripts/aac-mos.py "$wav" "native=$work/native.aac" "ffmpeg=$work/ffmpeg.aac")"
        native=($(grep '^native' <<<"$scores")); theirs=($(grep '^ffmpeg' <<<"$scores"))
        deviation="$(sed -n 's/.*raw (\([-+0-9.]* %\) of.*/\1/p' <<<"$report" | head -1)"
        ratio="$(sed -n 's/^ratio: *native takes \([0-9.]*×\).*/\1/p' <<<"$report")"
        decoding="$("$bench" aac-decode "$work/native.aac" --loops 5 --rounds 1 | sed -n 's/^ratio: *native takes \([0-9.]*×\).*/\1/p')"
        printf '%-40s | %s %6s dB | %s %6s dB | %8s | %s | %s\n' "$name" "${native[1]}" "${native[2]}" "${theirs[1]}" "${theirs[2]}" "$deviation" "$ratio" "$decoding"
        sums="$(awk -v s="$sums" -v a="${native[1]}" -v b="${theirs[1]}" 'BEGIN { split(s, x, " "); print x[1] + a, x[2] + b, x[3] + 1 }')"
    done
    awk -v s="$sums" 'BEGIN { split(s, x, " "); printf "mean MOS: native %.3f, ffmpeg %.3f over %d recordings\n", x[1] / x[3], x[2] / x[3], x[3] }'
done
