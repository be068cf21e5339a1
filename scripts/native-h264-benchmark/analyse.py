"""The analysis of benchmark-native-h264: reads results.json (measure.py) and prints the table of every
point, the ratios ours/peer, the BD-rate of ours against each peer (PSNR-Y, and VMAF where measured), the
openh264 cross-check, peak RSS at 1080p and the profile; saves the RD-curve plot.

  python analyse.py results.json [more results.json ...] [--plot rd-curves.png]

Several files are merged: their points are joined (a later file's point of the same sequence, encoder,
mode and value replaces an earlier one) and the extras (cross-check, RSS, profile) come from the last
file that has them.
"""
import argparse
import json
import math
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bdrate import bd_rate  # noqa: E402

OURS = "ours"
PEERS = ["x264-veryfast", "x264-ultrafast", "openh264"]


def setting(point):
    return f"QP {point['value']}" if point["mode"] == "qp" else f"{point['value'] // 1000}k"


def format_or_dash(value, pattern):
    return pattern.format(value) if value is not None else "-"


def print_points(results):
    points = results["points"]
    print(f"\n## Points ({results['frames']} frames 1280x720 per sequence, IDR every {results['keyint']}, one thread; "
          "fps = frames / encoder process CPU time)")
    has_vmaf = any(p.get("vmaf") is not None for p in points)
    header = f"{'sequence':11} {'setting':8} {'encoder':15} {'fps':>7} {'kbit/s':>8} {'PSNR-Y':>7}"
    print(header + ("  VMAF" if has_vmaf else ""))
    for point in points:
        line = (f"{point['sequence']:11} {setting(point):8} {point['encoder']:15} {point['fps']:7.1f} "
                f"{point['kbps']:8.0f} {point['psnr_y']:7.2f}")
        print(line + (f" {format_or_dash(point.get('vmaf'), '{:5.1f}')}" if has_vmaf else ""))


def index(points):
    return {(p["sequence"], p["encoder"], p["mode"], p["value"]): p for p in points}


def print_ratios(results):
    points = results["points"]
    by_key = index(points)
    ours = [p for p in points if p["encoder"] == OURS]
    print("\n## Ours / peer at the same ladder point (fps ratio, size ratio, PSNR-Y difference)")
    print(f"{'sequence':11} {'setting':8} " + "  ".join(f"{peer:>26}" for peer in PEERS))
    for point in ours:
        cells = []
        for peer in PEERS:
            other = by_key.get((point["sequence"], peer, point["mode"], point["value"]))
            if other is None:
                cells.append(f"{'-':>26}")
                continue
            cells.append(f"{point['fps'] / other['fps']:6.3f}x {point['bytes'] / other['bytes']:5.2f}x "
                         f"{point['psnr_y'] - other['psnr_y']:+6.2f} dB".rjust(26))
        print(f"{point['sequence']:11} {setting(point):8} " + "  ".join(cells))
    print("\n## Speed over the whole ladder (total frames / total CPU time), ours / peer")
    sequences = list(dict.fromkeys(p["sequence"] for p in points))
    for sequence in sequences:
        speeds = {}
        for encoder in [OURS] + PEERS:
            chosen = [p for p in points if p["sequence"] == sequence and p["encoder"] == encoder]
            if chosen:
                speeds[encoder] = sum(p["frames"] for p in chosen) / sum(p["cpu_seconds"] for p in chosen)
        if OURS not in speeds:
            continue
        cells = [f"{encoder} {fps:.1f} fps" for encoder, fps in speeds.items()]
        ratios = [f"/{peer} {speeds[OURS] / speeds[peer]:.3f}x" for peer in PEERS if peer in speeds]
        print(f"{sequence:11} " + ", ".join(cells) + "   ours" + " ".join(ratios))


def curve(points, sequence, encoder, modes, metric):
    chosen = [p for p in points if p["sequence"] == sequence and p["encoder"] == encoder and p["mode"] in modes
              and p.get(metric) is not None and not math.isinf(p[metric])]
    return [p["kbps"] for p in chosen], [p[metric] for p in chosen]


def print_bd_rates(results):
    points = results["points"]
    sequences = list(dict.fromkeys(p["sequence"] for p in points))
    metrics = ["psnr_y"] + (["vmaf"] if any(p.get("vmaf") is not None for p in points) else [])
    # like for like only: fixed QP against fixed QP, rate control against rate control (a peer's ABR
    # curve against our fixed-QP curve would credit us with the cost of its rate control)
    ladders = [("qp", ("qp",), ("qp",))]
    if any(p["encoder"] == OURS and p["mode"] == "bitrate" for p in points):
        ladders.append(("bitrate", ("bitrate",), ("bitrate",)))
    print("\n## BD-rate of ours against each peer (negative: ours needs fewer bits for the same quality; "
          "pchip, cubic in brackets)")
    summary = {}
    for metric in metrics:
        for label, our_modes, peer_modes in ladders:
            print(f"{metric.upper().replace('_', '-')}, {label} ladder:")
            for sequence in sequences:
                rates, scores = curve(points, sequence, OURS, our_modes, metric)
                cells = []
                for peer in PEERS:
                    peer_rates, peer_scores = curve(points, sequence, peer, peer_modes, metric)
                    try:
                        pchip = bd_rate(peer_rates, peer_scores, rates, scores, "pchip")
                        cubic = bd_rate(peer_rates, peer_scores, rates, scores, "cubic")
                    except ValueError:
                        pchip = cubic = None
                    summary.setdefault((metric, label, peer), []).append(pchip)
                    cells.append(f"{peer} " + (f"{pchip:+6.1f}% ({cubic:+6.1f}%)" if pchip is not None else "no overlap"))
                print(f"  {sequence:11} " + "   ".join(cells))
            means = []
            for peer in PEERS:
                values = [v for v in summary.get((metric, label, peer), []) if v is not None]
                means.append(f"{peer} {sum(values) / len(values):+6.1f}%" if values else f"{peer} -")
            print(f"  {'mean':11} " + "   ".join(means))


def print_presets(results):
    """One row per preset of ours (encoders "ours-NAME", and "ours" for the default): fps over the whole QP
    ladder of every sequence, the speed ratio and the mean BD-rate (PSNR-Y, pchip) against each peer."""
    points = [p for p in results["points"] if p["mode"] == "qp"]
    variants = list(dict.fromkeys(p["encoder"] for p in points if p["encoder"].startswith(OURS)))
    if len(variants) < 2 and OURS in variants:
        return
    sequences = list(dict.fromkeys(p["sequence"] for p in points))

    def fps(encoder):
        chosen = [p for p in points if p["encoder"] == encoder]
        return sum(p["frames"] for p in chosen) / sum(p["cpu_seconds"] for p in chosen) if chosen else None

    print("\n## Presets of ours, QP ladder, one thread: fps (whole ladder), speed ratio ours/peer, "
          "mean BD-rate over the sequences (PSNR-Y, pchip; negative: ours needs fewer bits)")
    print(f"{'preset':16} {'fps':>7}  " + "  ".join(f"{peer:>28}" for peer in PEERS))
    for variant in variants:
        own = fps(variant)
        cells = []
        for peer in PEERS:
            other = fps(peer)
            values = []
            for sequence in sequences:
                rates, scores = curve(points, sequence, variant, ("qp",), "psnr_y")
                peer_rates, peer_scores = curve(points, sequence, peer, ("qp",), "psnr_y")
                try:
                    values.append(bd_rate(peer_rates, peer_scores, rates, scores, "pchip"))
                except ValueError:
                    pass
            speed = f"{own / other:6.2f}x" if own and other else "     -"
            bd = f"{sum(values) / len(values):+6.1f}%" if values else "      -"
            cells.append(f"{speed} {bd}".rjust(28))
        print(f"{variant:16} {own or 0:7.1f}  " + "  ".join(cells))


def print_extras(results):
    check = results.get("openh264_cross_check")
    if check:
        print(f"\n## openh264 cross-check ({check['sequence']}, target {check['bitrate'] // 1000} kbit/s)")
        for point in check["points"]:
            print(f"  {point['label']:16} {point['kbps']:7.0f} kbit/s  PSNR-Y {point['psnr_y']:.2f}  "
                  f"{point['frames']} frames  {point['fps']:.1f} fps")
    rss = results.get("rss_1080p")
    if rss:
        print(f"\n## Peak RSS at 1920x1080 ({rss[0]['frames']} frames, QP 27)")
        ours = next((r for r in rss if r["encoder"] == OURS), None)
        for row in rss:
            ratio = f"  ours/this {ours['maxrss_mib'] / row['maxrss_mib']:.2f}x" if ours and row is not ours else ""
            print(f"  {row['encoder']:15} {row['maxrss_mib']:7.1f} MiB  {row['fps']:6.1f} fps{ratio}")
    profile = results.get("profile")
    if profile:
        print(f"\n## Callgrind of ours ({profile['frames']} frames of {profile.get('sequence', '?')} 1280x720, QP 27; "
              f"{profile['total_ir'] or 0:,} instructions; self cost)")
        for rank, row in enumerate(profile["top"][:10], 1):
            percent = f"{row['percent']:5.1f}%" if row.get("percent") is not None else "  -  "
            print(f"  {rank:2}. {percent}  {row['function'][:140]}")


def merged(paths):
    """The results of several measure.py runs as one."""
    results, points = None, {}
    for path in paths:
        with open(path) as handle:
            part = json.load(handle)
        if results is None:
            results = part
        elif part.get("points") and (part["frames"], part["keyint"]) != (results["frames"], results["keyint"]):
            sys.exit(f"{path}: other --frames/--keyint than {paths[0]}")
        for point in part.get("points", []):
            points[(point["sequence"], point["encoder"], point["mode"], point["value"])] = point
        for extra in ("openh264_cross_check", "rss_1080p", "profile"):
            if extra in part:
                results[extra] = part[extra]
    results["points"] = list(points.values())
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", nargs="+")
    parser.add_argument("--plot", help="where to save the RD-curve PNG")
    arguments = parser.parse_args()
    results = merged(arguments.results)
    print_points(results)
    print_ratios(results)
    print_bd_rates(results)
    print_presets(results)
    print_extras(results)
    if arguments.plot:
        from rdplot import plot_rd_curves
        plot_rd_curves(results["points"], arguments.plot,
                       f"native H.264 vs peers, 1280x720, {results['frames']} frames, one thread")
        print(f"\nRD curves: {arguments.plot}")


if __name__ == "__main__":
    main()
