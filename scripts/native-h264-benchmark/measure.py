"""Measures the native H.264 encoder beside its peers on the same inputs, in one run, one thread each, and
writes every point to results.json (analyse.py turns it into the table, the BD-rates and the RD plot).

Encoders: ours (`streamkit-benchmark native-encode`, its default preset; `ours-NAME` for the preset NAME,
for example --encoders ours-ultrafast,ours-veryfast,ours-medium,openh264,x264-veryfast), x264 `--profile baseline --preset veryfast --tune
zerolatency`, x264 `--preset ultrafast` (both `--threads 1`), openh264 through `openh264-encode` (our C
driver of libopenh264, one thread). All share the GOP (an IDR every --keyint frames, no scene cuts).
Ladders: fixed QP for every encoder; a bitrate ladder for the peers (and ours once it has rate control).
Per point: CPU fps of the encoder process (user+sys from wait4: steady on a shared machine), wall fps,
kbit/s, PSNR-Y (ffmpeg's psnr filter, decoded stream vs source) and VMAF (the modern FFmpeg's libvmaf).
Also: peak RSS at 1080p, a callgrind profile of ours, and openh264 through the modern FFmpeg's
`-c:v libopenh264` as a cross-check of the C driver.
"""
import argparse
import json
import os
import re
import selectors
import shutil
import subprocess
import sys
import time

SEQUENCES = {
    # name: (ffmpeg input arguments, frames in the file (None: endless))
    "foreman": (["-i", "{media}/foreman_cif8.y4m"], 8),
    "cars": (["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "320x240", "-r", "30", "-i", "{media}/cars_320x240.i420"], 30),
    "mandelbrot": (["-f", "lavfi", "-i", "mandelbrot=s={size}:rate=30"], None),
}


def log(message):
    print(message, file=sys.stderr, flush=True)


def prepare_input(name, media, size, frames, path):
    """Writes `frames` frames of a sequence at `size` (WxH) as Y4M. Short natural sequences play forwards
    then backwards, again and again (no cut), so any frame count works."""
    if os.path.exists(path):
        return
    arguments, length = SEQUENCES[name]
    arguments = [a.format(media=media, size=size) for a in arguments]
    width, height = size.split("x")
    chain = f"scale={width}:{height}:flags=bicubic,setsar=1,format=yuv420p"
    if length is None:
        graph = f"[0:v]{chain}[out]"
    else:
        graph = (f"[0:v]split[a][b];[b]reverse[r];[a][r]concat=n=2:v=1,loop=loop=-1:size={2 * length},"
                 f"setpts=N/(30*TB),{chain}[out]")
    subprocess.run(["ffmpeg", "-v", "error", "-y", *arguments, "-filter_complex", graph, "-map", "[out]",
                    "-frames:v", str(frames), "-r", "30", "-f", "yuv4mpegpipe", path], check=True)


def run_measured(command):
    """Runs a command; returns dict(cpu, wall, maxrss_kib, stdout). Raises on failure."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # read both pipes to the end, then reap with wait4 for the child's own rusage
    out_chunks, err_chunks = [], []
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ, out_chunks)
    selector.register(process.stderr, selectors.EVENT_READ, err_chunks)
    open_pipes = 2
    while open_pipes:
        for key, _ in selector.select():
            chunk = os.read(key.fileobj.fileno(), 65536)
            if chunk:
                key.data.append(chunk)
            else:
                selector.unregister(key.fileobj)
                open_pipes -= 1
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    out, err = b"".join(out_chunks).decode(), b"".join(err_chunks).decode()
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({process.returncode}):\n{err[-2000:]}")
    return {"cpu": usage.ru_utime + usage.ru_stime, "wall": wall, "maxrss_kib": usage.ru_maxrss,
            "stdout": out, "stderr": err}


def encoder_command(encoder, tools, source, output, mode, value, frames, keyint):
    """The command line of one encoder at one ladder point (mode 'qp' or 'bitrate', value QP or bit/s)."""
    if encoder == "ours" or encoder.startswith("ours-"):
        # "ours" is the encoder's default preset, "ours-NAME" the preset NAME (ultrafast ... medium)
        preset = ["--preset", encoder[len("ours-"):]] if encoder.startswith("ours-") else []
        if mode != "qp":
            return [tools["native"], "native-encode", source, output, "--bitrate", str(value),
                    "--frames", str(frames), "--keyint", str(keyint), *preset]
        return [tools["native"], "native-encode", source, output, "--qp", str(value),
                "--frames", str(frames), "--keyint", str(keyint), *preset]
    if encoder in ("x264-veryfast", "x264-ultrafast"):
        preset = (["--profile", "baseline", "--preset", "veryfast", "--tune", "zerolatency"]
                  if encoder == "x264-veryfast" else ["--preset", "ultrafast"])
        rate = ["--qp", str(value)] if mode == "qp" else ["--bitrate", str(value // 1000)]
        return ["x264", *preset, "--threads", "1", "--keyint", str(keyint), "--min-keyint", str(keyint),
                "--no-scenecut", *rate, "--frames", str(frames), "--quiet", "-o", output, source]
    if encoder == "openh264":
        rate = ["--qp", str(value)] if mode == "qp" else ["--bitrate", str(value)]
        return [tools["openh264"], source, output, *rate, "--keyint", str(keyint), "--frames", str(frames)]
    raise ValueError(encoder)


VMAF_SUBSAMPLE = 1


def quality(tools, stream, source, with_vmaf):
    """PSNR-Y (dB, from the total MSE of all frames, ffmpeg's psnr filter), VMAF (mean) or None, and the
    number of decoded frames, of `stream` against `source`."""
    ffmpeg = tools["modern"] if with_vmaf else "ffmpeg"
    stats = stream + ".psnr.log"
    graph = "[0:v]settb=1/30,setpts=N[d];[1:v]settb=1/30,setpts=N[s];"
    if with_vmaf:
        graph += (f"[d]split[d1][d2];[s]split[s1][s2];[d1][s1]psnr=stats_file={stats};"
                  f"[d2][s2]libvmaf=n_threads=1:n_subsample={VMAF_SUBSAMPLE}")
    else:
        graph += f"[d][s]psnr=stats_file={stats}"
    result = subprocess.run([ffmpeg, "-hide_banner", "-nostats", "-threads", "1", "-f", "h264", "-i", stream,
                             "-i", source, "-lavfi", graph, "-f", "null", "-"],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"quality of {stream} failed:\n{result.stderr[-2000:]}")
    psnr = re.search(r"PSNR y:([0-9.]+|inf)", result.stderr)
    vmaf = re.search(r"VMAF score: ([0-9.]+)", result.stderr)
    with open(stats) as handle:
        decoded = sum(1 for line in handle if line.startswith("n:"))
    os.remove(stats)
    return (float(psnr.group(1)) if psnr else None), (float(vmaf.group(1)) if vmaf else None), decoded


def encode_point(tools, encoder, sequence, source, work, mode, value, frames, keyint, with_vmaf):
    output = os.path.join(work, f"{sequence}-{encoder}-{mode}{value}.264")
    measured = run_measured(encoder_command(encoder, tools, source, output, mode, value, frames, keyint))
    size = os.path.getsize(output)
    psnr, vmaf, decoded = quality(tools, output, source, with_vmaf)
    if decoded != frames:
        raise RuntimeError(f"{output}: ffmpeg decoded {decoded} frames, expected {frames}")
    inner = re.search(r"seconds ([0-9.]+)", measured["stdout"])
    point = {"sequence": sequence, "encoder": encoder, "mode": mode, "value": value, "frames": frames,
             "bytes": size, "kbps": size * 8 * 30 / frames / 1000, "psnr_y": psnr, "vmaf": vmaf,
             "cpu_seconds": measured["cpu"], "wall_seconds": measured["wall"],
             "fps": frames / measured["cpu"], "wall_fps": frames / measured["wall"],
             "encode_seconds": float(inner.group(1)) if inner else None}
    os.remove(output)
    log(f"  {sequence:10} {encoder:15} {mode}={value:<8} {point['fps']:7.1f} fps  {point['kbps']:8.0f} kbit/s  "
        f"PSNR-Y {psnr:6.2f}" + (f"  VMAF {vmaf:5.1f}" if vmaf is not None else ""))
    return point


def cross_check_openh264(tools, source, work, bitrate, frames, keyint):
    """openh264 at `bitrate` through our C driver and through the modern FFmpeg's libopenh264."""
    points = []
    for label in ("openh264-driver", "openh264-ffmpeg"):
        output = os.path.join(work, f"crosscheck-{label}.264")
        if label == "openh264-driver":
            command = encoder_command("openh264", tools, source, output, "bitrate", bitrate, frames, keyint)
        else:
            command = [tools["modern"], "-v", "error", "-y", "-threads", "1", "-i", source, "-frames:v", str(frames),
                       "-c:v", "libopenh264", "-threads", "1", "-profile:v", "constrained_baseline",
                       "-rc_mode", "bitrate", "-b:v", str(bitrate), "-g", str(keyint), "-allow_skip_frames", "0",
                       "-f", "h264", output]
        measured = run_measured(command)
        psnr, _, decoded = quality(tools, output, source, False)
        size = os.path.getsize(output)
        points.append({"label": label, "kbps": size * 8 * 30 / decoded / 1000, "psnr_y": psnr, "frames": decoded,
                       "fps": frames / measured["cpu"]})
        os.remove(output)
    return points


def peak_rss(tools, source, work, frames, keyint, qp):
    rows = []
    for encoder in ("ours", "x264-veryfast", "x264-ultrafast", "openh264"):
        output = os.path.join(work, f"rss-{encoder}.264")
        measured = run_measured(encoder_command(encoder, tools, source, output, "qp", qp, frames, keyint))
        rows.append({"encoder": encoder, "maxrss_mib": measured["maxrss_kib"] / 1024, "frames": frames,
                     "fps": frames / measured["cpu"]})
        os.remove(output)
    return rows


def demangle(names):
    tool = shutil.which("swift-demangle") or "/opt/swift/usr/bin/swift-demangle"
    if not os.path.exists(tool):
        return names
    result = subprocess.run([tool, "--simplified", "--compact"], input="\n".join(names), capture_output=True, text=True)
    lines = result.stdout.splitlines()
    return lines if len(lines) == len(names) else names


def profile(tools, source, work, frames, keyint, qp, top):
    """Callgrind of ours on `frames` frames; the top functions by their own instruction count."""
    out_file = os.path.join(work, "callgrind.out")
    output = os.path.join(work, "profile.264")
    # valgrind 3.19 cannot read the DWARF 5 that Swift's clang writes: profile a copy without debug
    # sections (the symbol table, which names the functions, stays)
    stripped = os.path.join(work, "streamkit-benchmark-nodebug")
    subprocess.run(["objcopy", "--strip-debug", tools["native"], stripped], check=True)
    command = encoder_command("ours", dict(tools, native=stripped), source, output, "qp", qp, frames, keyint)
    run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", *command],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"callgrind failed:\n{run.stderr[-2000:]}")
    annotated = subprocess.run(["callgrind_annotate", "--inclusive=no", f"--threshold=100", out_file],
                               check=True, capture_output=True, text=True).stdout
    total = re.search(r"^\s*([0-9,]+)\s.*PROGRAM TOTALS", annotated, re.M)
    total_ir = int(total.group(1).replace(",", "")) if total else None
    rows = []
    for line in annotated.splitlines():
        match = re.match(r"^\s*([0-9,]+)\s+(?:\([ 0-9.]+%\)\s+)?(\S.*?):(\S+)(?: \[.*\])?$", line)
        if not match or "PROGRAM TOTALS" in line:
            continue
        ir = int(match.group(1).replace(",", ""))
        rows.append({"ir": ir, "file": match.group(2), "function": match.group(3)})
        if len(rows) == top:
            break
    for row, name in zip(rows, demangle([r["function"] for r in rows])):
        row["function"] = name
        row["percent"] = 100 * row["ir"] / total_ir if total_ir else None
    os.remove(output)
    return {"frames": frames, "total_ir": total_ir, "top": rows, "callgrind_out": out_file}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--native", required=True, help="streamkit-benchmark (release)")
    parser.add_argument("--openh264", required=True, help="the openh264-encode driver")
    parser.add_argument("--modern-ffmpeg", required=True, help="the modern FFmpeg (libvmaf, libopenh264)")
    parser.add_argument("--media", required=True, help="the natural sequences' folder")
    parser.add_argument("--work", required=True, help="output folder (inputs, results.json, callgrind.out)")
    parser.add_argument("--frames", type=int, default=60, help="frames per sequence (default 60)")
    parser.add_argument("--keyint", type=int, default=30, help="an IDR every this many frames (default 30)")
    parser.add_argument("--sequences", default="foreman,cars,mandelbrot")
    parser.add_argument("--qps", default="22,27,32,37", help="the QP ladder (every encoder)")
    parser.add_argument("--bitrates", default="500000,1000000,2000000,4000000", help="the bitrate ladder, bit/s")
    parser.add_argument("--no-native-bitrate", dest="native_bitrate", action="store_false",
                        help="ours only on the QP ladder (an encoder without rate control)")
    parser.add_argument("--no-vmaf", action="store_true")
    parser.add_argument("--vmaf-subsample", type=int, default=1, help="VMAF of every Nth frame (default 1)")
    parser.add_argument("--encoders", default="ours,x264-veryfast,x264-ultrafast,openh264")
    parser.add_argument("--ladders", default="qp,bitrate", help="qp, bitrate or both (default both)")
    parser.add_argument("--append", action="store_true",
                        help="add to an existing results.json (its points of the same encoder, mode and value are replaced)")
    parser.add_argument("--no-cross-check", action="store_true")
    parser.add_argument("--rss-frames", type=int, default=10, help="frames of the 1080p peak-RSS encode (0: skip)")
    parser.add_argument("--profile-frames", type=int, default=5, help="frames of the callgrind profile (0: skip)")
    arguments = parser.parse_args()
    tools = {"native": arguments.native, "openh264": arguments.openh264, "modern": arguments.modern_ffmpeg}
    os.makedirs(arguments.work, exist_ok=True)
    with_vmaf = not arguments.no_vmaf
    qps = [int(v) for v in arguments.qps.split(",") if v]
    bitrates = [int(v) for v in arguments.bitrates.split(",") if v]
    global VMAF_SUBSAMPLE
    VMAF_SUBSAMPLE = max(arguments.vmaf_subsample, 1)
    encoders = [e for e in arguments.encoders.split(",") if e]
    ladders = [l for l in arguments.ladders.split(",") if l]
    results = {"frames": arguments.frames, "keyint": arguments.keyint, "size": "1280x720", "fps_basis": "cpu",
               "vmaf": with_vmaf, "vmaf_subsample": VMAF_SUBSAMPLE, "points": []}
    existing = os.path.join(arguments.work, "results.json")
    if arguments.append and os.path.exists(existing):
        with open(existing) as handle:
            results = json.load(handle)
        if results["frames"] != arguments.frames or results["keyint"] != arguments.keyint:
            sys.exit("--append: results.json has other --frames/--keyint")
    sources = {}
    for sequence in arguments.sequences.split(","):
        source = os.path.join(arguments.work, f"{sequence}-1280x720-{arguments.frames}.y4m")
        log(f"preparing {sequence} 1280x720 x{arguments.frames}")
        prepare_input(sequence, arguments.media, "1280x720", arguments.frames, source)
        sources[sequence] = source
        # one encoder after the other at each ladder point, so load changes hit them alike
        ladder = ([("qp", v) for v in qps] if "qp" in ladders else []) + \
                 ([("bitrate", v) for v in bitrates] if "bitrate" in ladders else [])
        for mode, value in ladder:
            for encoder in encoders:
                if encoder.startswith("ours") and mode == "bitrate" and not arguments.native_bitrate:
                    continue
                point = encode_point(tools, encoder, sequence, source, arguments.work, mode, value,
                                     arguments.frames, arguments.keyint, with_vmaf)
                results["points"] = [p for p in results["points"] if (p["sequence"], p["encoder"], p["mode"], p["value"])
                                     != (sequence, encoder, mode, value)] + [point]
                write(arguments.work, results)  # after every point: an interrupted run keeps what it measured
    first = sources[next(iter(sources))]
    if not arguments.no_cross_check:
        log("cross-check: openh264 driver vs the modern FFmpeg's libopenh264 at 2 Mbit/s")
        results["openh264_cross_check"] = {"sequence": next(iter(sources)), "bitrate": 2000000,
                                           "points": cross_check_openh264(tools, first, arguments.work, 2000000,
                                                                          arguments.frames, arguments.keyint)}
        write(arguments.work, results)
    if arguments.rss_frames > 0:
        log(f"peak RSS at 1920x1080 ({arguments.rss_frames} frames of mandelbrot, QP 27)")
        big = os.path.join(arguments.work, f"mandelbrot-1920x1080-{arguments.rss_frames}.y4m")
        prepare_input("mandelbrot", arguments.media, "1920x1080", arguments.rss_frames, big)
        results["rss_1080p"] = peak_rss(tools, big, arguments.work, arguments.rss_frames, arguments.keyint, 27)
        write(arguments.work, results)
    if arguments.profile_frames > 0:
        sequence = "foreman" if "foreman" in sources else next(iter(sources))
        log(f"callgrind of ours: {arguments.profile_frames} frames of {sequence} 1280x720, QP 27")
        results["profile"] = profile(tools, sources[sequence], arguments.work, arguments.profile_frames,
                                     arguments.keyint, 27, 15)
        results["profile"]["sequence"] = sequence
        write(arguments.work, results)


def write(work, results):
    with open(os.path.join(work, "results.json"), "w") as handle:
        json.dump(results, handle, indent=1)


if __name__ == "__main__":
    main()
