"""Smooth random fields used for textures, paper and lighting."""

import cv2
import numpy as np


def value_noise(rng, shape, cell):
    """A smooth random field of `shape` (h, w) with features about `cell` pixels
    across (a number, or (along y, along x) for streaks), zero mean and unit
    standard deviation (float32)."""
    h, w = shape
    cy, cx = (cell, cell) if np.isscalar(cell) else cell
    cy, cx = max(1.0, float(cy)), max(1.0, float(cx))
    gh, gw = int(h / cy) + 3, int(w / cx) + 3
    grid = rng.standard_normal((gh, gw)).astype(np.float32)
    big = cv2.resize(grid, (int(gw * cx), int(gh * cy)), interpolation=cv2.INTER_CUBIC)
    oy = int(rng.integers(0, max(1, big.shape[0] - h)))
    ox = int(rng.integers(0, max(1, big.shape[1] - w)))
    out = big[oy:oy + h, ox:ox + w]
    out -= out.mean()
    return out / max(1e-6, float(out.std()))


def fractal_noise(rng, shape, cell, octaves=4, persistence=0.5):
    """Sum of `octaves` value-noise layers, each half the feature size of the
    previous and `persistence` times its amplitude; unit standard deviation."""
    total = np.zeros(shape, np.float32)
    amp = 1.0
    for _ in range(octaves):
        total += amp * value_noise(rng, shape, cell)
        cell /= 2.0
        amp *= persistence
    total -= total.mean()
    return total / max(1e-6, float(total.std()))
