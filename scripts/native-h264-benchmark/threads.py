"""Threads of the native H.264 encoder at 1080p, in one run: sliced threads (`native-encode --threads N`, one slice
per thread) against one thread and one slice, per preset, on the same input.

Per preset and thread count: wall time and CPU time (user+sys of the process, from wait4) of `--rounds` paired runs
(1 thread, then N threads, then 1 again …: the machine's load drifts, a pair shares it), their ratios (median of the
pairs), the encoder's own wall and CPU inside `encode` and the CPU of its calling thread (which codes one slice and
runs what is serial: on an idle machine with a core per thread the wall time is about that); and that every run
of a thread count gave the same bytes. Then the cost of the slices: size at equal QP and the BD-rate (PSNR-Y, QPs
--qps) of N slices against one.

python3 threads.py --native .build/release/streamkit-benchmark --media ../shared/media/sequences --work DIR
"""
import argparse
import hashlib
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bdrate import bd_rate  # noqa: E402
from measure import log, prepare_input, quality, run_measured  # noqa: E402


def encode(tools, source, output, preset, threads, qp, frames, keyint):
    """One encode; returns wall/cpu of the process, the encoder's own numbers, size and md5."""
    command = [tools["native"], "native-encode", source, output, "--qp", str(qp), "--frames", str(frames),
               "--keyint", str(keyint), "--preset", preset, "--threads", str(threads)]
    measured = run_measured(command)
    inner = re.search(r"seconds ([0-9.]+) wall ([0-9.]+) cpu ([0-9.]+)", measured["stdout"])
    with open(output, "rb") as handle:
        digest = hashlib.md5(handle.read()).hexdigest()
    return {"wall": measured["wall"], "cpu": measured["cpu"], "bytes": os.path.getsize(output), "md5": digest,
            "encode_thread_cpu": float(inner.group(1)), "encode_wall": float(inner.group(2)),
            "encode_cpu": float(inner.group(3))}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--native", required=True, help="streamkit-benchmark (release)")
    parser.add_argument("--media", required=True, help="../shared/media/sequences")
    parser.add_argument("--work", required=True, help="folder for the inputs, streams and threads.json")
    parser.add_argument("--sequences", default="mandelbrot,foreman", help="inputs (measure.py's names), 1920x1080")
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--keyint", type=int, default=30)
    parser.add_argument("--presets", default="veryfast,ultrafast")
    parser.add_argument("--threads", type=int, default=2, help="the thread count compared with one")
    parser.add_argument("--rounds", type=int, default=3, help="pairs of runs per preset")
    parser.add_argument("--qp", type=int, default=27, help="the QP of the timed runs")
    parser.add_argument("--qps", default="22,27,32,37", help="the QP ladder of the BD-rate of the slices (empty: skip)")
    arguments = parser.parse_args()
    os.makedirs(arguments.work, exist_ok=True)
    tools = {"native": arguments.native}
    n = arguments.threads
    results = {"frames": arguments.frames, "threads": n, "timing": [], "slices": []}
    for sequence in arguments.sequences.split(","):
        source = os.path.join(arguments.work, f"{sequence}_1920x1080_{arguments.frames}.y4m")
        prepare_input(sequence, arguments.media, "1920x1080", arguments.frames, source)
        for preset in arguments.presets.split(","):
            runs = {1: [], n: []}
            for round_index in range(arguments.rounds):
                for threads in ((1, n) if round_index % 2 == 0 else (n, 1)):
                    output = os.path.join(arguments.work, f"{sequence}-{preset}-t{threads}.264")
                    runs[threads].append(encode(tools, source, output, preset, threads, arguments.qp,
                                                arguments.frames, arguments.keyint))
            one, many = runs[1], runs[n]
            row = {"sequence": sequence, "preset": preset,
                   "deterministic": len({r["md5"] for r in one}) == 1 and len({r["md5"] for r in many}) == 1,
                   "wall_ratio": statistics.median(b["wall"] / a["wall"] for a, b in zip(one, many)),
                   "cpu_ratio": statistics.median(b["cpu"] / a["cpu"] for a, b in zip(one, many)),
                   "encode_wall_ratio": statistics.median(b["encode_wall"] / a["encode_wall"] for a, b in zip(one, many)),
                   "calling_thread_ratio": statistics.median(b["encode_thread_cpu"] / a["encode_cpu"] for a, b in zip(one, many)),
                   "fps_1": arguments.frames / min(r["encode_wall"] for r in one),
                   "fps_n": arguments.frames / min(r["encode_wall"] for r in many),
                   "size_ratio": many[0]["bytes"] / one[0]["bytes"], "runs": runs}
            results["timing"].append(row)
            log(f"{sequence} {preset}: {n} threads / 1: wall {row['wall_ratio']:.3f}x, CPU {row['cpu_ratio']:.3f}x, "
                f"calling thread {row['calling_thread_ratio']:.3f}x; deterministic {row['deterministic']}")
            if not arguments.qps:
                continue
            curves = {1: ([], []), n: ([], [])}
            for qp in [int(q) for q in arguments.qps.split(",")]:
                for threads in (1, n):
                    output = os.path.join(arguments.work, f"{sequence}-{preset}-t{threads}-qp{qp}.264")
                    point = encode(tools, source, output, preset, threads, qp, arguments.frames, arguments.keyint)
                    psnr, _, decoded = quality(tools, output, source, False)
                    if decoded != arguments.frames:
                        raise RuntimeError(f"{output}: {decoded} of {arguments.frames} frames decoded")
                    curves[threads][0].append(point["bytes"])
                    curves[threads][1].append(psnr)
            bd = bd_rate(curves[1][0], curves[1][1], curves[n][0], curves[n][1])
            results["slices"].append({"sequence": sequence, "preset": preset, "bd_rate": bd, "curves": curves})
            log(f"{sequence} {preset}: {n} slices against 1: BD-rate {bd:+.2f} %")
    with open(os.path.join(arguments.work, "threads.json"), "w") as handle:
        json.dump(results, handle, indent=1)
    print(f"\n1920x1080, {arguments.frames} frames, QP {arguments.qp}; {n} threads ({n} slices) against 1 thread (1 slice), "
          f"median of {arguments.rounds} pairs")
    print(f"{'sequence':<11} {'preset':<10} {'wall':>6} {'CPU':>6} {'in encode':>9} {'calling thread':>14} "
          f"{'fps 1':>6} {'fps N':>6} {'size':>6} {'BD-rate':>8}  same bytes every run")
    for row in results["timing"]:
        bd = next((s["bd_rate"] for s in results["slices"]
                   if s["sequence"] == row["sequence"] and s["preset"] == row["preset"]), None)
        print(f"{row['sequence']:<11} {row['preset']:<10} {row['wall_ratio']:>5.3f}x {row['cpu_ratio']:>5.3f}x "
              f"{row['encode_wall_ratio']:>8.3f}x {row['calling_thread_ratio']:>13.3f}x {row['fps_1']:>6.1f} {row['fps_n']:>6.1f} "
              f"{row['size_ratio']:>5.3f}x {('%+.2f %%' % bd) if bd is not None else '-':>8}  {row['deterministic']}")


if __name__ == "__main__":
    main()
