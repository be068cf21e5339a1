"""The RD-curve plot of benchmark-native-h264: PSNR-Y against bitrate (log scale), one panel per sequence,
one curve per encoder and ladder (solid: fixed QP, dashed: target bitrate)."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter, NullFormatter  # noqa: E402

COLOURS = {"ours": "tab:red", "x264-veryfast": "tab:blue", "x264-ultrafast": "tab:cyan", "openh264": "tab:green"}


def plot_rd_curves(points, path, title):
    """Saves the plot of `points` (the dicts of results.json) as a PNG at `path`."""
    sequences = list(dict.fromkeys(p["sequence"] for p in points))
    figure, axes = plt.subplots(1, len(sequences), figsize=(5.5 * len(sequences), 4.6), squeeze=False)
    for axis, sequence in zip(axes[0], sequences):
        curves = {}
        for point in points:
            if point["sequence"] == sequence and point["psnr_y"] is not None:
                curves.setdefault((point["encoder"], point["mode"]), []).append(point)
        for (encoder, mode), curve in sorted(curves.items()):
            curve.sort(key=lambda p: p["kbps"])
            axis.plot([p["kbps"] for p in curve], [p["psnr_y"] for p in curve],
                      marker="o" if mode == "qp" else "s", linestyle="-" if mode == "qp" else "--",
                      color=COLOURS.get(encoder, "black"), label=f"{encoder} ({mode})")
        axis.set_xscale("log")
        axis.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
        axis.xaxis.set_minor_formatter(NullFormatter())
        low, high = axis.get_xlim()
        axis.set_xticks([t for t in (125, 250, 500, 1000, 2000, 4000, 8000, 16000) if low <= t <= high])
        axis.set_xlabel("kbit/s")
        axis.set_ylabel("PSNR-Y (dB)")
        axis.set_title(sequence)
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize=7)
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
