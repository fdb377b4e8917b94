"""Procedural table surfaces, generated in table-plane coordinates.

Every function takes (rng, shape, ppmm): the texture's pixel shape (h, w) and
its resolution in pixels per millimetre, and returns an h x w x 3 float32
sRGB albedo in [0, 1]. Feature sizes are given in millimetres, so the photo's
perspective warp makes them shrink towards the far side of the table.
"""

import cv2
import numpy as np

from noise import fractal_noise, value_noise


def _mix(base, value):
    return np.clip(np.asarray(base, np.float32)[None, None, :] * value[..., None], 0, 1)


def _coords(shape, ppmm):
    h, w = shape
    ys = (np.arange(h, dtype=np.float32) + 0.5) / ppmm
    xs = (np.arange(w, dtype=np.float32) + 0.5) / ppmm
    return ys[:, None], xs[None, :]


def wood(rng, shape, ppmm):
    """Planks of a varnished wooden table top: growth rings along x with a
    sharp late-wood edge, fine streaks and pores, a seam between boards."""
    palettes = [(0.72, 0.53, 0.34), (0.45, 0.29, 0.18), (0.80, 0.63, 0.43),
                (0.60, 0.35, 0.21), (0.66, 0.60, 0.52)]
    base = np.array(palettes[int(rng.integers(len(palettes)))], np.float32)
    ys, xs = _coords(shape, ppmm)
    board_w = rng.uniform(90, 200)
    offset = rng.uniform(0, board_w)
    board = np.floor((ys + offset) / board_w)
    index = (board - board.min()).astype(int)
    n_boards = int(index.max()) + 1
    shift = rng.normal(0, 0.06, n_boards).astype(np.float32)[index]
    phase = rng.uniform(0, 50, n_boards).astype(np.float32)[index]
    warp = (5.0 * value_noise(rng, shape, (40 * ppmm, 300 * ppmm))
            + 1.0 * value_noise(rng, shape, (5 * ppmm, 60 * ppmm)))
    period = rng.uniform(2.5, 6)
    rings = ((ys + warp) / period + phase) % 1.0
    # slow darkening through the ring, then a sharp (anti-aliased) edge
    late = rings ** 4 * np.clip((1.0 - rings) * period * ppmm / 1.5, 0, 1)
    contrast = 0.16 * np.clip(1.0 + 0.5 * value_noise(rng, shape, (20 * ppmm, 120 * ppmm)), 0.2, 2)
    streaks = value_noise(rng, shape, (0.3 * ppmm, 25 * ppmm))
    pores = np.clip(value_noise(rng, shape, (0.25 * ppmm, 1.5 * ppmm)) - 1.2, 0, None)
    value = (1.0 + shift - contrast * late + 0.04 * streaks - 0.06 * pores
             + 0.05 * value_noise(rng, shape, 80 * ppmm))
    seam = np.abs(((ys + offset) / board_w) - np.round((ys + offset) / board_w)) * board_w
    value *= 1.0 - 0.45 * np.exp(-(seam / 0.5) ** 2)
    rgb = _mix(base, value)
    # late wood is also more saturated
    return np.clip(rgb ** (1.0 + 0.3 * late[..., None]), 0, 1)


def fabric(rng, shape, ppmm):
    """A woven tablecloth or linen: plain weave threads, optional checks, creases."""
    colours = [(0.80, 0.74, 0.64), (0.56, 0.56, 0.58), (0.28, 0.37, 0.55), (0.70, 0.30, 0.28),
               (0.45, 0.55, 0.42)]
    base = np.array(colours[int(rng.integers(len(colours)))], np.float32)
    ys, xs = _coords(shape, ppmm)
    p = max(rng.uniform(0.6, 1.3), 4.0 / ppmm)
    fx, fy = (xs / p) % 1.0, (ys / p) % 1.0
    over = ((np.floor(xs / p) + np.floor(ys / p)) % 2).astype(bool)
    across_x = np.sqrt(np.sin(np.pi * fx))
    across_y = np.sqrt(np.sin(np.pi * fy))
    slub_v = value_noise(rng, shape, (6 * p * ppmm, 0.8 * p * ppmm))
    slub_h = value_noise(rng, shape, (0.8 * p * ppmm, 6 * p * ppmm))
    weave = np.where(over, 0.72 + 0.28 * across_x + 0.06 * slub_v, 0.72 + 0.28 * across_y + 0.06 * slub_h)
    rgb = _mix(base, weave)
    if rng.random() < 0.35:
        # gingham checks: a second colour in crossing bands
        band = rng.uniform(8, 20)
        check = (((xs // band) % 2) + ((ys // band) % 2)).astype(np.float32) / 2.0
        light = np.array([0.93, 0.92, 0.90], np.float32)
        rgb = rgb * (1 - check[..., None]) + _mix(light, weave) * check[..., None]
    creases = 1.0 + 0.05 * value_noise(rng, shape, 50 * ppmm) + 0.04 * np.sin(
        2 * np.pi * (xs * 0.6 + ys * 0.8 + 8 * value_noise(rng, shape, 90 * ppmm)) / rng.uniform(60, 140))
    return np.clip(rgb * creases[..., None], 0, 1)


def dark_desk(rng, shape, ppmm):
    """A dark laminate or painted desk with faint brushing and dust."""
    v = rng.uniform(0.08, 0.2)
    base = np.array([v, v * rng.uniform(0.95, 1.0), v * rng.uniform(0.92, 1.08)], np.float32)
    value = (1.0 + 0.06 * value_noise(rng, shape, 60 * ppmm) + 0.04 * value_noise(rng, shape, (0.3 * ppmm, 40 * ppmm))
             + 0.05 * value_noise(rng, shape, 0.4 * ppmm))
    rgb = _mix(base, value)
    dust = rng.random(shape) < 0.0004 / max(1.0, ppmm / 4)
    dust = cv2.GaussianBlur(dust.astype(np.float32), (0, 0), max(0.6, 0.15 * ppmm)) * 4
    return np.clip(rgb + 0.25 * np.clip(dust, 0, 1)[..., None], 0, 1)


def light_desk(rng, shape, ppmm):
    """A near-white or light grey desk: low contrast against white paper."""
    v = rng.uniform(0.80, 0.90)
    tint = rng.choice([-1.0, 0.0, 1.0]) * 0.015
    base = np.array([v + tint, v, v - tint], np.float32)
    value = 1.0 + 0.02 * value_noise(rng, shape, 70 * ppmm) + 0.012 * value_noise(rng, shape, 0.5 * ppmm)
    return _mix(base, value)


def carpet(rng, shape, ppmm):
    """A noisy looped carpet: fibre clumps and speckles of a second colour."""
    pairs = [((0.45, 0.47, 0.52), (0.30, 0.32, 0.38)), ((0.62, 0.55, 0.45), (0.45, 0.38, 0.30)),
             ((0.45, 0.20, 0.20), (0.28, 0.12, 0.13)), ((0.28, 0.38, 0.28), (0.18, 0.24, 0.18))]
    a, b = (np.array(c, np.float32) for c in pairs[int(rng.integers(len(pairs)))])
    loops = fractal_noise(rng, shape, max(2.5 * ppmm, 2.0), octaves=3, persistence=0.6)
    mix = np.clip(0.5 + 0.35 * value_noise(rng, shape, 15 * ppmm) + 0.3 * loops, 0, 1)[..., None]
    rgb = a * mix + b * (1 - mix)
    fibre = 1.0 + 0.18 * value_noise(rng, shape, max(0.5 * ppmm, 1.0)) + 0.1 * loops
    speck = 0.7 * (value_noise(rng, shape, max(0.6 * ppmm, 1.0)) > 2.6).astype(np.float32)[..., None]
    light = np.array([0.75, 0.72, 0.66], np.float32)
    return np.clip(rgb * fibre[..., None] * (1 - speck) + light * speck, 0, 1)


def granite(rng, shape, ppmm):
    """Polished granite: a dense mosaic of mineral grains (quartz, feldspar,
    mica), each grain the region where its mineral's noise field is highest."""
    stones = [
        [(0.62, 0.60, 0.58), (0.74, 0.72, 0.70), (0.12, 0.12, 0.13), (0.48, 0.47, 0.47)],   # grey
        [(0.68, 0.55, 0.51), (0.78, 0.73, 0.70), (0.14, 0.13, 0.13), (0.55, 0.47, 0.45)],   # pink
        [(0.30, 0.30, 0.31), (0.42, 0.42, 0.42), (0.08, 0.08, 0.09), (0.22, 0.22, 0.24)],   # dark
        [(0.70, 0.65, 0.56), (0.80, 0.77, 0.72), (0.17, 0.15, 0.13), (0.56, 0.52, 0.45)],   # beige
    ]
    minerals = np.array(stones[int(rng.integers(len(stones)))], np.float32)
    weights = np.array([0.0, -0.1, -0.5, 0.1], np.float32)            # mica grains are fewer
    grain = rng.uniform(0.6, 1.4) * ppmm
    fields = np.stack([value_noise(rng, shape, max(grain, 1.5)) + w for w in weights])
    fields += 0.6 * np.stack([value_noise(rng, shape, max(grain / 3, 1.0)) for _ in weights])
    fields += 0.3 * np.stack([value_noise(rng, shape, max(grain / 8, 1.0)) for _ in weights])
    rgb = minerals[np.argmax(fields, axis=0)]
    shade = (1.0 + 0.06 * value_noise(rng, shape, max(grain, 1.5)) + 0.04 * value_noise(rng, shape, 40 * ppmm)
             + 0.06 * value_noise(rng, shape, max(grain / 5, 1.0)))
    return np.clip(rgb * shade[..., None], 0, 1)


BACKGROUNDS = {
    "wood": wood,
    "fabric": fabric,
    "dark": dark_desk,
    "light": light_desk,
    "carpet": carpet,
    "granite": granite,
}
