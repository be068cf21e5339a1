#!/usr/bin/env bash
# The native H.264 decoder against its peers, side by side in one run, one thread each, on the same streams:
# 300 frames of 1280x720 (cars 320x240 looped and scaled up) coded by x264 --preset veryfast as High CABAC
# (with its B frames) and as Constrained Baseline CAVLC. Decoders: ours (`streamkit decode`, release build,
# pictures written as I420 to /dev/null), `ffmpeg -threads 1 -f null`, and openh264 (Debian's libopenh264
# through our C driver, scripts/native-h264-benchmark/openh264-decode.c).
# Prints per stream: each decoder's fps on CPU time (user + system, best of N runs, so that a loaded machine
# moves the ratios less than the wall clock), the ratios ours/ffmpeg and ours/openh264 (above 1: we are
# faster), each peak RSS, and whether each output's md5 equals ffmpeg's.
#
# Usage: scripts/benchmark-native-h264-decoder.sh [FRAMES (300)] [RUNS (3)]
# Env: STREAMKIT_BENCHMARK_OUT (default .build/native-h264-decoder-benchmark): the streams and the driver;
# STREAMKIT_MEDIA (default ../shared/media): where the cars sequence is.
set -euo pipefail
cd "$(dirname "$0")/.."
frames="${1:-300}"
runs="${2:-3}"
out="${STREAMKIT_BENCHMARK_OUT:-.build/native-h264-decoder-benchmark}"
mkdir -p "$out"

swift build -c release --product streamkit >/dev/null
streamkit="$(swift build -c release --show-bin-path)/streamkit"
gcc -O2 -Wall -Wextra -o "$out/openh264-decode" scripts/native-h264-benchmark/openh264-decode.c -lopenh264

cars="${STREAMKIT_MEDIA:-../shared/media}/sequences/cars_320x240.i420"
for kind in high baseline; do
    stream="$out/720p-$kind-$frames.264"
    [ -s "$stream" ] && continue
    profile=$([ "$kind" = high ] && echo high || echo baseline)
    ffmpeg -v error -f rawvideo -pix_fmt yuv420p -s 320x240 -stream_loop -1 -i "$cars" \
        -vf scale=1280:720:flags=bicubic -frames:v "$frames" -f yuv4mpegpipe - |
        x264 --quiet --no-progress --preset veryfast --profile "$profile" --threads 1 --demuxer y4m -o "$stream" - 2>/dev/null
done
ln -sf /dev/null "$out/null.yuv"

python3 - "$streamkit" "$out" "$frames" "$runs" <<'PY'
import hashlib, os, subprocess, sys
streamkit, out, frames, runs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])

def measure(command):
    """Best CPU time (user + system) of `runs` runs, and the largest peak RSS (MB), from the child's rusage."""
    best, peak = None, 0
    for _ in range(runs):
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"failed: {' '.join(command)}")
        seconds = usage.ru_utime + usage.ru_stime
        best = seconds if best is None else min(best, seconds)
        peak = max(peak, usage.ru_maxrss // 1024)
    return best, peak

def md5(command, path):
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    digest = hashlib.md5()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    os.remove(path)
    return digest.hexdigest()

print(f"{'stream':<28} {'decoder':<18} {'fps':>8} {'ours/peer':>10} {'peak RSS':>9}  md5 = ffmpeg's")
for kind in ["high", "baseline"]:
    stream = f"{out}/720p-{kind}-{frames}.264"
    yuv = f"{out}/check.yuv"
    reference = md5(["ffmpeg", "-v", "error", "-threads", "1", "-i", stream, "-f", "rawvideo", "-pix_fmt", "yuv420p", "-y", yuv], yuv)
    decoders = [
        ("ours (native)", [streamkit, "decode", stream, "-o", f"{out}/null.yuv"], [streamkit, "decode", stream, "-o", yuv]),
        ("ffmpeg -threads 1", ["ffmpeg", "-v", "error", "-threads", "1", "-i", stream, "-f", "null", "-"], None),
        ("openh264", [f"{out}/openh264-decode", stream], [f"{out}/openh264-decode", stream, yuv]),
    ]
    results = {}
    for name, command, check in decoders:
        seconds, rss = measure(command)
        same = "yes" if check is None else ("yes" if md5(check, yuv) == reference else "NO")
        results[name] = (seconds, rss, same)
    ours = results["ours (native)"][0]
    label = f"720p {'High CABAC' if kind == 'high' else 'CB CAVLC'} x{frames}"
    for name, (seconds, rss, same) in results.items():
        ratio = "" if name.startswith("ours") else f"{seconds / ours:10.3f}"
        print(f"{label:<28} {name:<18} {frames / seconds:8.1f} {ratio:>10} {rss:>6} MB  {same}")
    print(f"{label:<28} ours/ffmpeg {results['ffmpeg -threads 1'][0] / ours:.3f} (target 0.5), "
          f"ours/openh264 {results['openh264'][0] / ours:.3f} (target above 1)")
PY
