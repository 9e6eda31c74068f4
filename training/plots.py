"""Small PNG charts drawn with Pillow (a core dependency), so plots need no extra package:
line charts with one or two y axes, horizontal bars and a score matrix."""
from __future__ import annotations

import math

from PIL import Image, ImageDraw, ImageFont

W, H = 800, 450
L, R, T, B = 80, 80, 40, 60
COLORS = [(31, 119, 180), (214, 39, 40), (44, 160, 44), (148, 103, 189), (255, 127, 14)]


def _font(size=13):
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1
        return ImageFont.load_default()


def _ticks(lo, hi, n=5):
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw))
    step = min((m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw), default=mag * 10)
    start = math.floor(lo / step) * step
    out = []
    v = start
    while v <= hi + 1e-9 * step:
        if v >= lo - 1e-9 * step:
            out.append(v)
        v += step
    return out, step


def _fmt(v):
    return f"{v:.0f}" if abs(v) >= 100 or v == int(v) else f"{v:.2f}".rstrip("0").rstrip(".")


def line_chart(path, series, title="", xlabel="", ylabel="", right=None, ylabel_right="", ylim_right=None):
    """series / right: lists of (label, xs, ys, style) with style "line" or "dots"; ``right`` uses a second axis."""
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    f = _font()
    allx = [x for _, xs, _, _ in (series + (right or [])) for x in xs] or [0, 1]
    x0, x1 = min(allx), max(allx)
    if x1 == x0:
        x1 = x0 + 1

    def yr(ss, lim=None):
        ys = [y for _, _, yy, _ in ss for y in yy if y == y]
        if lim:
            return lim
        if not ys:
            return 0.0, 1.0
        lo, hi = min(ys), max(ys)
        pad = (hi - lo) * 0.05 or 0.5
        return lo - pad, hi + pad

    ly = yr(series)
    ry = yr(right, ylim_right) if right else None
    px = lambda x: L + (x - x0) / (x1 - x0) * (W - L - R)  # noqa: E731
    py = lambda y, r: H - B - (y - r[0]) / (r[1] - r[0]) * (H - T - B)  # noqa: E731
    d.rectangle([L, T, W - R, H - B], outline="black")
    xt, _ = _ticks(x0, x1)
    for v in xt:
        d.line([px(v), H - B, px(v), H - B + 5], fill="black")
        d.text((px(v), H - B + 8), _fmt(v), fill="black", font=f, anchor="mt")
    for v in _ticks(*ly)[0]:
        d.line([L - 5, py(v, ly), L, py(v, ly)], fill="black")
        d.line([L, py(v, ly), W - R, py(v, ly)], fill=(230, 230, 230))
        d.text((L - 8, py(v, ly)), _fmt(v), fill="black", font=f, anchor="rm")
    if ry:
        for v in _ticks(*ry)[0]:
            d.line([W - R, py(v, ry), W - R + 5, py(v, ry)], fill="black")
            d.text((W - R + 8, py(v, ry)), _fmt(v), fill="black", font=f, anchor="lm")
    legend = []
    for k, (label, xs, ys, style) in enumerate(series + (right or [])):
        rng = ly if k < len(series) else ry
        col = COLORS[k % len(COLORS)]
        pts = [(px(x), py(y, rng)) for x, y in zip(xs, ys) if y == y]
        if len(pts) > 1 and style != "dots":
            d.line(pts, fill=col, width=2)
        if style != "line":
            for x, y in pts:
                d.ellipse([x - 3, y - 3, x + 3, y + 3], fill=col)
        legend.append((label, col))
    for i, (label, col) in enumerate(legend):
        y = T + 10 + 16 * i
        d.line([L + 10, y, L + 30, y], fill=col, width=3)
        d.text((L + 36, y), label, fill="black", font=f, anchor="lm")
    d.text((W / 2, 12), title, fill="black", font=_font(15), anchor="mt")
    d.text((W / 2, H - 20), xlabel, fill="black", font=f, anchor="mt")
    if ylabel:  # turned upright in the left margin, beside the tick labels rather than over them
        lab = Image.new("RGBA", (int(d.textlength(ylabel, font=f)) + 4, 18), (255, 255, 255, 0))
        ImageDraw.Draw(lab).text((2, 1), ylabel, fill=COLORS[0] if right else "black", font=f)
        lab = lab.rotate(90, expand=True)
        img.paste(lab, (8, int(T + (H - T - B - lab.height) / 2)), lab)
    if right:
        d.text((W - 12, T - 14), ylabel_right, fill=COLORS[len(series) % len(COLORS)], font=f, anchor="rm")
    img.save(path)
    return path


def bars_and_matrix(path, names, matrix, ratings, title=""):
    """Left: the score matrix (row vs column, 0..1, None where not played); right: ratings as bars."""
    k = len(names)
    cell = 56
    lw = 150
    img = Image.new("RGB", (lw + k * cell + 380, max(lw + k * cell + 20, 60 + 26 * k)), "white")
    d = ImageDraw.Draw(img)
    f = _font(12)
    for j, n in enumerate(names):
        d.text((lw + j * cell + cell / 2, lw - 6), n[:14], fill="black", font=f, anchor="md")
    for i, n in enumerate(names):
        d.text((lw - 6, lw + i * cell + cell / 2), n[:20], fill="black", font=f, anchor="rm")
        for j in range(k):
            v = matrix[i][j]
            x, y = lw + j * cell, lw + i * cell
            if v is None:
                d.rectangle([x, y, x + cell, y + cell], fill=(240, 240, 240), outline="white")
                continue
            col = (int(255 * min(1, 2 * (1 - v))), int(200 * min(1, 2 * v)), 60)
            d.rectangle([x, y, x + cell, y + cell], fill=col, outline="white")
            d.text((x + cell / 2, y + cell / 2), f"{v:.2f}", fill="black", font=f, anchor="mm")
    d.text((lw, 12), title or "score of row agent vs column agent", fill="black", font=_font(14), anchor="lt")
    bx = lw + k * cell + 150
    order = sorted(names, key=lambda n: ratings[n])
    vals = [ratings[n] for n in order]
    lo, hi = min(vals + [0]), max(vals + [0])
    span = (hi - lo) or 1
    scale = 200 / span
    zero = bx + (0 - lo) * scale
    for i, n in enumerate(order):
        y = 60 + 26 * i
        v = ratings[n]
        d.rectangle([min(zero, zero + v * scale), y, max(zero, zero + v * scale), y + 18], fill=COLORS[0])
        d.text((bx - 8, y + 9), n[:20], fill="black", font=f, anchor="rm")
        d.text((bx + 205, y + 9), f"{v:+.0f}", fill="black", font=f, anchor="lm")
    d.line([zero, 50, zero, 60 + 26 * k], fill="black")
    d.text((bx, 30), "Bradley-Terry rating (Elo scale)", fill="black", font=f, anchor="lt")
    img.save(path)
    return path
