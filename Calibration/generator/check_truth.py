#!/usr/bin/python3
"""Check every NAME.truth.json in a folder against its photo and draw overlays.

    /usr/bin/python3 check_truth.py DIR [--overlays OUT] [--width 1000]

Checks: the upright photo size and EXIF orientation match the truth; each
page has 4 corners, convex and clockwise (TL, TR, BR, BL in reading order),
inside the frame unless a thumb is in the photo; `rotation` agrees with the
quad; page_count == len(pages); multi-document pages follow the reading
order rule; a spread's pages share the gutter edge; text == joined lines.
Overlays (the upright photo with each quad: top edge green, TL corner dot,
gutter blue) go to OUT (default /tmp/docscan-overlays/<name of DIR>). Prints a summary of the
conditions covered. Exit status 1 if any check fails.
"""

import argparse
import collections
import glob
import json
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageOps

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from truth import reading_order, reading_rotation  # noqa: E402

TOLERANCE = 0.5


def check(t, img):
    """A list of problems with truth `t` for the upright PIL image `img`."""
    problems = []
    w, h = t["width"], t["height"]
    if img.size != (w, h):
        problems.append("upright size %s != truth %s" % (img.size, (w, h)))
    if t["page_count"] != len(t["pages"]):
        problems.append("page_count %d != %d pages" % (t["page_count"], len(t["pages"])))
    quads = []
    for i, page in enumerate(t["pages"]):
        q = np.array(page["quad"], np.float64)
        quads.append(q)
        if q.shape != (4, 2):
            problems.append("page %d: quad is not 4 corners" % i)
            continue
        inside = (q[:, 0] >= -TOLERANCE).all() and (q[:, 0] <= w + TOLERANCE).all() and \
                 (q[:, 1] >= -TOLERANCE).all() and (q[:, 1] <= h + TOLERANCE).all()
        if not inside and not t["conditions"].get("thumb"):
            problems.append("page %d: quad outside the frame" % i)
        edges = np.roll(q, -1, axis=0) - q
        turns = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
        if not (turns > 0).all():
            problems.append("page %d: quad not convex and clockwise" % i)
        if reading_rotation(q) != page["rotation"]:
            problems.append("page %d: rotation %d, quad says %d" % (i, page["rotation"], reading_rotation(q)))
        if page["text"] != "\n".join(line["text"] for line in page["lines"]):
            problems.append("page %d: text differs from its lines" % i)
        for line in page["lines"]:
            x, y, bw, bh = line["box"]
            if min(x, y, bw, bh) < 0 or x + bw > 1 + 1e-6 or y + bh > 1 + 1e-6:
                problems.append("page %d: line box outside the page: %r" % (i, line["text"]))
                break
    docs = collections.OrderedDict()
    for page, q in zip(t["pages"], quads):
        docs.setdefault(page["document_index"], []).append(q)
    if list(docs) != list(range(len(docs))):
        problems.append("document_index not 0..n-1 in page order")
    elif reading_order(list(docs.values())) != list(range(len(docs))):
        problems.append("documents not in reading order")
    if t["kind"] == "spread":
        if t["page_count"] != 2 or not t["spread"]:
            problems.append("spread without 2 pages and spread info")
        else:
            left, right = quads
            gutter = np.array(t["spread"]["gutter"])
            if np.abs(left[1] - right[0]).max() > 0.01 or np.abs(left[2] - right[3]).max() > 0.01 or \
                    np.abs(gutter - [left[1], left[2]]).max() > 0.01:
                problems.append("spread pages do not share the gutter edge")
    return problems


def overlay(t, img, path, width):
    """Save a downscaled copy of `img` with the truth drawn on it."""
    s = width / max(img.size)
    small = img.convert("RGB").resize((int(img.size[0] * s), int(img.size[1] * s)), Image.LANCZOS)
    draw = ImageDraw.Draw(small)
    for i, page in enumerate(t["pages"]):
        q = [(x * s, y * s) for x, y in page["quad"]]
        draw.line(q[1:] + [q[0]], fill=(255, 40, 40), width=2)
        draw.line(q[:2], fill=(40, 220, 40), width=3)
        draw.ellipse([q[0][0] - 5, q[0][1] - 5, q[0][0] + 5, q[0][1] + 5], fill=(40, 220, 40))
        c = np.mean(q, axis=0)
        draw.text((c[0], c[1]), "%d r%d" % (i, page["rotation"]), fill=(255, 0, 255))
    if t.get("spread"):
        g = [(x * s, y * s) for x, y in t["spread"]["gutter"]]
        draw.line(g, fill=(40, 80, 255), width=2)
    small.save(path)


def summary(truths):
    """Count the conditions the corpus covers."""
    c = collections.Counter()
    for t in truths:
        k = t["conditions"]
        c["kind " + t["kind"]] += 1
        c["background " + k["background"]] += 1
        c["shadow " + k["shadow"]] += 1
        c["thumb"] += bool(k["thumb"])
        c["defocus"] += k["defocus"] > 0
        c["motion"] += k["motion"] > 0
        c["strong tilt (>=30)"] += k["tilt_degrees"] >= 30
        c["size " + k["size"]] += 1
        c["exif %d" % t["exif_orientation"]] += 1
        c["rotation %d" % t["pages"][0]["rotation"]] += 1
    return c


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--overlays")
    ap.add_argument("--width", type=int, default=1000)
    args = ap.parse_args()
    out = args.overlays or os.path.join("/tmp/docscan-overlays", os.path.basename(os.path.abspath(args.dir)))
    os.makedirs(out, exist_ok=True)
    failed, truths = 0, []
    for path in sorted(glob.glob(os.path.join(args.dir, "*.truth.json"))):
        with open(path) as f:
            t = json.load(f)
        truths.append(t)
        raw = Image.open(os.path.join(args.dir, t["source"]))
        problems = []
        if raw.getexif().get(0x0112, 1) != t["exif_orientation"]:
            problems.append("EXIF orientation tag differs from the truth")
        img = ImageOps.exif_transpose(raw)
        problems += check(t, img)
        overlay(t, img, os.path.join(out, t["source"][:-4] + ".png"), args.width)
        failed += bool(problems)
        print("%-28s %s" % (t["source"], "; ".join(problems) or "ok"))
    for key, n in sorted(summary(truths).items()):
        print("  %-22s %d" % (key, n))
    print("%d files, %d failed; overlays in %s" % (len(truths), failed, out))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
