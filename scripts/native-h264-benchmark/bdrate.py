"""Bjøntegaard delta rate (BD-rate): the average bitrate difference of a test encoder against an anchor at
equal quality, over the quality range both RD curves cover.

After G. Bjøntegaard, "Calculation of average PSNR differences between RD-curves", VCEG-M33 (2001), and
the piecewise cubic variant of JCTVC-L0242 / VCEG-AL22: log10(rate) is modelled as a function of PSNR,
both curves are integrated over the common PSNR interval, and the mean difference of log-rates d gives
BD-rate = 10^d - 1. Negative means the test encoder needs fewer bits for the same quality.

Two fits, written here from their definitions:
  * "pchip": a monotone piecewise cubic Hermite interpolant (Fritsch & Carlson 1980, with the
    three-point end slopes of Moler's pchip), integrated exactly segment by segment;
  * "cubic": the least-squares cubic polynomial of VCEG-M33 (degree n-1 with fewer than 4 points).

python3 bdrate.py --self-test checks both on curves whose answer is known.
"""
import math
import sys

import numpy as np


def _prepared(rates, qualities):
    """Sorted by quality, duplicates of quality dropped; returns (quality, log10 rate) arrays."""
    pairs = sorted((float(q), math.log10(float(r))) for r, q in zip(rates, qualities) if r > 0)
    xs, ys = [], []
    for x, y in pairs:
        if xs and x <= xs[-1] + 1e-9:
            continue
        xs.append(x)
        ys.append(y)
    if len(xs) < 2:
        raise ValueError("a curve needs at least two points of distinct quality")
    return np.array(xs), np.array(ys)


def _end_slope(h0, h1, d0, d1):
    """Moler's shape-preserving three-point end slope."""
    slope = ((2 * h0 + h1) * d0 - h0 * d1) / (h0 + h1)
    if np.sign(slope) != np.sign(d0):
        return 0.0
    if np.sign(d0) != np.sign(d1) and abs(slope) > abs(3 * d0):
        return 3 * d0
    return slope


def pchip_slopes(xs, ys):
    """The Fritsch–Carlson slopes of the monotone piecewise cubic Hermite interpolant through (xs, ys)."""
    h = np.diff(xs)
    delta = np.diff(ys) / h
    n = len(xs)
    if n == 2:
        return np.array([delta[0], delta[0]])
    slopes = np.zeros(n)
    for k in range(1, n - 1):
        if delta[k - 1] * delta[k] <= 0:
            slopes[k] = 0.0
        else:
            w1 = 2 * h[k] + h[k - 1]
            w2 = h[k] + 2 * h[k - 1]
            slopes[k] = (w1 + w2) / (w1 / delta[k - 1] + w2 / delta[k])
    slopes[0] = _end_slope(h[0], h[1], delta[0], delta[1])
    slopes[-1] = _end_slope(h[-1], h[-2], delta[-1], delta[-2])
    return slopes


def pchip_integral(xs, ys, low, high):
    """The exact integral over [low, high] (inside [xs[0], xs[-1]]) of the pchip interpolant."""
    slopes = pchip_slopes(xs, ys)
    total = 0.0
    for k in range(len(xs) - 1):
        a, b = max(low, xs[k]), min(high, xs[k + 1])
        if b <= a:
            continue
        h = xs[k + 1] - xs[k]
        delta = (ys[k + 1] - ys[k]) / h
        # y(s) = y0 + d0 s + c2 s^2 + c3 s^3 with s = x - xs[k]
        c2 = (3 * delta - 2 * slopes[k] - slopes[k + 1]) / h
        c3 = (slopes[k] + slopes[k + 1] - 2 * delta) / (h * h)

        def primitive(s):
            return ys[k] * s + slopes[k] * s ** 2 / 2 + c2 * s ** 3 / 3 + c3 * s ** 4 / 4

        total += primitive(b - xs[k]) - primitive(a - xs[k])
    return total


def cubic_integral(xs, ys, low, high):
    """The integral over [low, high] of the least-squares polynomial of degree min(3, n-1)."""
    coefficients = np.polyfit(xs, ys, min(3, len(xs) - 1))
    primitive = np.polyint(coefficients)
    return np.polyval(primitive, high) - np.polyval(primitive, low)


def bd_rate(anchor_rates, anchor_qualities, test_rates, test_qualities, method="pchip"):
    """BD-rate of the test curve against the anchor, in percent (None when the quality ranges do not
    overlap). Rates in any common unit; qualities in dB (or any quality score, e.g. VMAF)."""
    ax, ay = _prepared(anchor_rates, anchor_qualities)
    tx, ty = _prepared(test_rates, test_qualities)
    low, high = max(ax[0], tx[0]), min(ax[-1], tx[-1])
    if high - low <= 1e-6:
        return None
    integral = pchip_integral if method == "pchip" else cubic_integral
    mean_difference = (integral(tx, ty, low, high) - integral(ax, ay, low, high)) / (high - low)
    return (10 ** mean_difference - 1) * 100


def _self_test():
    anchor_rates = [500, 1000, 2000, 4000]
    anchor_psnr = [30.0, 33.0, 36.0, 39.0]
    for method in ("pchip", "cubic"):
        same = bd_rate(anchor_rates, anchor_psnr, anchor_rates, anchor_psnr, method)
        assert abs(same) < 1e-9, (method, same)
        # the same curve needing 10 % more bits everywhere: +10 %
        more = bd_rate(anchor_rates, anchor_psnr, [r * 1.1 for r in anchor_rates], anchor_psnr, method)
        assert abs(more - 10.0) < 1e-6, (method, more)
        # 1 dB better at every rate on a 3 dB/octave line: 2^(-1/3) - 1 = -20.6 %
        better = bd_rate(anchor_rates, anchor_psnr, anchor_rates, [q + 1 for q in anchor_psnr], method)
        assert abs(better - (2 ** (-1 / 3) - 1) * 100) < 1e-6, (method, better)
    # a curved test: the pchip integral of a monotone cubic through its own samples is close to exact
    xs = np.linspace(30, 40, 6)
    ys = 0.01 * (xs - 30) ** 2 + 0.1 * xs
    exact = (0.01 * 1000 / 3) + 0.05 * (40 ** 2 - 30 ** 2)
    assert abs(pchip_integral(xs, ys, 30, 40) - exact) < 1e-2, pchip_integral(xs, ys, 30, 40)
    assert abs(cubic_integral(xs, ys, 30, 40) - exact) < 1e-9
    assert bd_rate([1, 2], [30, 31], [1, 2], [40, 41]) is None
    print("bdrate self-test: ok")


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        _self_test()
    else:
        print(__doc__)
