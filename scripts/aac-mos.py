#!/usr/bin/env python3
"""Zimtohrli MOS and SNR of AAC streams against their WAV source (scripts/benchmark-aac-encoder.sh runs it).

usage: aac-mos.py REFERENCE.wav LABEL=STREAM.aac [LABEL=STREAM.aac ...]
Each stream is decoded by ffmpeg to 48 kHz float, its 1024 samples of priming removed, and scored per
channel with zimtohrli.mos_from_signals (Google's psychoacoustic metric); prints one line per stream:
LABEL MOS SNR_dB.
"""
import subprocess
import sys

import numpy as np
import zimtohrli


def decode(path, channels):
    out = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "f32le", "-ac", str(channels), "-ar", "48000", "-"],
                         capture_output=True, check=True).stdout
    return np.frombuffer(out, dtype=np.float32).reshape(-1, channels)


def main():
    reference_path = sys.argv[1]
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "stream=channels",
                            "-of", "csv=p=0", reference_path], capture_output=True, check=True, text=True).stdout
    channels = int(probe.strip())
    reference = decode(reference_path, channels)
    for argument in sys.argv[2:]:
        label, path = argument.split("=", 1)
        decoded = decode(path, channels)[1024:]
        count = min(len(reference), len(decoded))
        r, d = reference[:count], decoded[:count]
        snr = 10 * np.log10(np.sum(r.astype(np.float64) ** 2) / max(np.sum((r.astype(np.float64) - d) ** 2), 1e-20))
        mos = np.mean([zimtohrli.mos_from_signals(np.ascontiguousarray(r[:, c]), np.ascontiguousarray(d[:, c]))
                       for c in range(channels)])
        print(f"{label} {mos:.3f} {snr:.2f}")


main()
