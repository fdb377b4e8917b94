#!/usr/bin/python3
"""Generate synthetic phone photos of documents with exact ground truth.

    /usr/bin/python3 generate.py --seed N --count K --out DIR [--kinds ...] [--sizes ...]
    /usr/bin/python3 generate.py --sample --seed N --out DIR

Kinds and sizes take optional weights (`prose:3 receipt:1`); photos are
shared out in proportion, so the defaults with --count 44 give the corpus mix.
Conditions (background, shadow, thumb, blur, rotation, tilt, colour cast, EXIF
orientation) are dealt from balanced shuffled decks so that every value shows
up about equally often even in a small run. Photo i draws everything else from
numpy's default_rng(seed + i): the same arguments give the same bytes.
"""

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import photo  # noqa: E402
import truth  # noqa: E402

KIND_MIX = {"prose": 10, "receipt": 7, "card": 6, "form": 6, "spread": 7, "multi": 8}
SIZES = {"12MP": (4032, 3024), "3MP": (2016, 1512), "2.8MP": (1920, 1440), "2MP": (1600, 1200)}
SIZE_MIX = {"12MP": 2, "3MP": 3, "2.8MP": 3, "2MP": 3}
PORTRAIT_KINDS = {"prose", "receipt", "form"}

# decks: each value appears in proportion to how often it is listed
DECKS = {
    "background": ["wood", "fabric", "dark", "light", "carpet", "granite"],
    "shadow": ["none", "soft", "hard"],
    "thumb": [True, False, False, False, False],
    "blur": ["none", "none", "defocus", "motion"],
    "rotation": ["upright", "upright", "right", "down", "left", "any"],
    "tilt": ["mild", "moderate", "strong"],
    "cast": ["none", "warm", "cool"],
    "exif_orientation": [1] * 7 + [2, 3, 4, 5, 6, 7, 8],
}


def weighted(items, known, default):
    """Parse ['name', 'name:weight', ...] into {name: weight}."""
    if not items:
        return dict(default)
    out = {}
    for item in items:
        name, _, weight = item.partition(":")
        if name not in known:
            raise SystemExit("unknown value %r (choose from %s)" % (name, ", ".join(known)))
        out[name] = float(weight) if weight else 1.0
    return out


def apportion(weights, count):
    """Share `count` out in proportion to `weights` (largest remainder), in key order."""
    total = sum(weights.values())
    exact = {k: count * w / total for k, w in weights.items()}
    share = {k: int(v) for k, v in exact.items()}
    for k in sorted(exact, key=lambda k: share[k] - exact[k])[:count - sum(share.values())]:
        share[k] += 1
    return [k for k in weights for _ in range(share[k])]


def deal(rng, deck, count):
    """`count` values from `deck` repeated, in shuffled order."""
    cards = (deck * (count // len(deck) + 1))[:count]
    return [cards[i] for i in rng.permutation(count)]


def plan(seed, count, kinds, sizes, max_jpeg_quality=95):
    """The photo specs of one run. Each photo's JPEG quality is drawn from
    60-95 and then capped at `max_jpeg_quality`; the cap leaves every random
    draw, and so every other byte of the plan, as it was."""
    rng = np.random.default_rng(seed)
    kind_list = apportion(kinds, count)
    size_list = deal(rng, apportion(sizes, count), count)
    hands = {name: deal(rng, deck, count) for name, deck in DECKS.items()}
    specs, numbers = [], {}
    for i, kind in enumerate(kind_list):
        numbers[kind] = numbers.get(kind, 0) + 1
        d = {name: hand[i] for name, hand in hands.items()}
        w, h = SIZES[size_list[i]]
        tall = kind in PORTRAIT_KINDS
        if d["rotation"] in ("right", "left"):
            tall = not tall
        if rng.random() < 0.25 or d["rotation"] == "any":
            tall = rng.random() < 0.5
        size = (min(w, h), max(w, h)) if tall else (max(w, h), min(w, h))
        specs.append(photo.Spec(name="%s-%02d" % (kind, numbers[kind]), kind=kind, seed=seed + i,
                                size=size, size_label=size_list[i],
                                jpeg_quality=min(int(rng.integers(60, 96)), max_jpeg_quality), **d))
    return specs


def sample_spec(seed):
    """The README's sample: a 12 MP photo of prose on a wooden table, moderate
    perspective and a soft shadow."""
    return photo.Spec(name="sample", kind="prose", seed=seed, size=(3024, 4032), size_label="12MP",
                      background="wood", shadow="soft", thumb=False, blur="none", rotation="upright",
                      tilt="moderate", cast="warm", exif_orientation=1, jpeg_quality=82)


def run(specs, out):
    os.makedirs(out, exist_ok=True)
    started = time.time()
    for spec in specs:
        t = time.time()
        shot = photo.synthesize(spec, np.random.default_rng(spec.seed))
        truth.save(shot, truth.build(spec, shot), out)
        print("%-12s %-5s %9s exif %d  %.1fs" % (spec.name, spec.size_label, "%dx%d" % spec.size,
                                                  spec.exif_orientation, time.time() - t), flush=True)
    print("%d photos in %.0fs -> %s" % (len(specs), time.time() - started, out))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=sum(KIND_MIX.values()))
    ap.add_argument("--out", required=True)
    ap.add_argument("--kinds", nargs="+", help="kinds with optional weights, e.g. prose:2 receipt")
    ap.add_argument("--sizes", nargs="+", help="sizes (%s) with optional weights" % ", ".join(SIZES))
    ap.add_argument("--max-jpeg-quality", type=int, default=95,
                    help="cap on the JPEG quality drawn from 60-95 (the committed corpus uses 85 to stay small)")
    ap.add_argument("--sample", action="store_true", help="write only the README sample photo")
    args = ap.parse_args()
    if args.sample:
        specs = [sample_spec(args.seed)]
    else:
        specs = plan(args.seed, args.count, weighted(args.kinds, KIND_MIX, KIND_MIX),
                     weighted(args.sizes, SIZES, SIZE_MIX), args.max_jpeg_quality)
    run(specs, args.out)


if __name__ == "__main__":
    main()
