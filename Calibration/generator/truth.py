"""Ground truth files and the stored JPEG (with its EXIF orientation).

All photo coordinates are in the UPRIGHT photo (after applying the EXIF
orientation), in pixels, with the image spanning [0, W] x [0, H].
"""

import json

import numpy as np
from PIL import Image

import scene

# PIL transpose that turns the upright photo into the stored pixels for each
# EXIF orientation; a viewer applying the tag undoes it (ImageOps.exif_transpose).
STORE_TRANSPOSE = {
    1: None,
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_90,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_270,
}


def reading_angle(quad):
    """Direction of the page's 'up' in the photo, degrees clockwise from the
    photo's up, in [0, 360)."""
    q = np.asarray(quad, np.float64)
    up = (q[0] + q[1]) / 2 - (q[3] + q[2]) / 2
    return float(np.degrees(np.arctan2(up[0], -up[1])) % 360.0)


def reading_rotation(quad):
    """`reading_angle` rounded to the nearest multiple of 90 (0, 90, 180, 270)."""
    return int(round(reading_angle(quad) / 90.0)) % 4 * 90


def reading_order(groups):
    """Order groups of quads top-to-bottom, then left-to-right.

    Groups whose centres differ vertically by less than half the smaller
    group's height form a row (taken from the top); rows are read from the
    top and each row from the left. Returns the group indices in order.
    """
    info = []
    for i, quads in enumerate(groups):
        pts = np.vstack(quads)
        info.append((i, pts.mean(axis=0), pts[:, 1].max() - pts[:, 1].min()))
    rest = sorted(info, key=lambda g: g[1][1])
    order = []
    while rest:
        first = rest[0]
        row = [g for g in rest if abs(g[1][1] - first[1][1]) < 0.5 * min(g[2], first[2])]
        order += [g[0] for g in sorted(row, key=lambda g: g[1][0])]
        rest = [g for g in rest if g not in row]
    return order


def _round_pts(pts, digits=3):
    return [[round(float(x), digits), round(float(y), digits)] for x, y in pts]


def _page_entry(page, quad, index):
    x0, y0, x1, y1 = page.rect
    pw, ph = x1 - x0, y1 - y0
    lines = []
    for s, (bx0, by0, bx1, by1) in page.lines:
        fx0, fy0 = max(0.0, (bx0 - x0) / pw), max(0.0, (by0 - y0) / ph)
        fx1, fy1 = min(1.0, (bx1 - x0) / pw), min(1.0, (by1 - y0) / ph)
        lines.append({"text": s, "box": [round(fx0, 5), round(fy0, 5), round(fx1 - fx0, 5), round(fy1 - fy0, 5)]})
    return {"quad": _round_pts(quad), "rotation": reading_rotation(quad),
            "width_mm": round(float(page.width_mm), 2), "height_mm": round(float(page.height_mm), 2),
            "text": "\n".join(l["text"] for l in lines), "lines": lines, "document_index": index}


def build(spec, shot):
    """The truth dictionary for a synthesized photo."""
    camera = shot.camera
    quads = [scene.page_quads(camera, p) for p in shot.placements]
    pages = []
    for rank, i in enumerate(reading_order(quads)):
        for page, quad in zip(shot.placements[i].doc.pages, quads[i]):
            pages.append(_page_entry(page, quad, rank))
    spread = None
    doc = shot.placements[0].doc
    if doc.gutter is not None:
        H = camera.doc_to_photo(shot.placements[0])
        left, right = quads[0]
        spread = {"quad": _round_pts([left[0], right[1], right[2], left[3]]),
                  "gutter": _round_pts(scene.apply(H, doc.gutter))}
    conditions = dict(shot.conditions)
    conditions["rotation_degrees"] = round(reading_angle(pages[0]["quad"]), 2)
    conditions.update({k: v for d in (p.doc for p in shot.placements) for k, v in d.extras.items()})
    w, h = spec.size
    return {"source": spec.name + ".jpg", "kind": spec.kind, "width": w, "height": h,
            "exif_orientation": spec.exif_orientation, "seed": spec.seed, "pages": pages,
            "page_count": len(pages), "spread": spread, "conditions": conditions}


def save(shot, truth, directory):
    """Write NAME.jpg (pixels stored for the EXIF orientation) and NAME.truth.json."""
    img = Image.fromarray(shot.image)
    op = STORE_TRANSPOSE[truth["exif_orientation"]]
    if op is not None:
        img = img.transpose(op)
    exif = Image.Exif()
    exif[0x0112] = truth["exif_orientation"]
    exif[0x0131] = "DocScan calibration generator"
    path = "%s/%s" % (directory, truth["source"])
    img.save(path, "JPEG", quality=truth["conditions"]["jpeg_quality"], subsampling=2, optimize=True,
             exif=exif.tobytes())
    with open(path[:-4] + ".truth.json", "w") as f:
        f.write(formatted(truth))


def formatted(truth):
    """The truth as JSON, one key to a line, except that a list of numbers (a point, a line's box), a list of points
    (a quad) and an object of such values in a list (a line: its text and box) each take one line."""
    def flat(value):
        """Whether `value` holds no object or list that needs lines of its own (it may then take one line)."""
        if isinstance(value, dict):
            return all(flat(v) for v in value.values())
        if isinstance(value, list):
            return all(isinstance(v, (int, float)) or (isinstance(v, list) and flat(v)) for v in value)
        return True

    def write(value, depth, listed=False):
        """`value` as JSON indented for `depth`; `listed` when it is an item of a list."""
        if not isinstance(value, (dict, list)) or not value or (flat(value) and (listed or isinstance(value, list))):
            return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
        inner = " " * (depth + 1)
        if isinstance(value, dict):
            items = ["%s%s: %s" % (inner, json.dumps(k, ensure_ascii=False), write(v, depth + 1))
                     for k, v in value.items()]
            return "{\n" + ",\n".join(items) + "\n" + " " * depth + "}"
        return "[\n" + ",\n".join(inner + write(v, depth + 1, listed=True) for v in value) + "\n" + " " * depth + "]"

    plain = json.dumps(truth, indent=1, ensure_ascii=False)
    try:
        text = write(truth, 0)
        return (text if json.loads(text) == truth else plain) + "\n"
    except (TypeError, ValueError):  # a value that this layout cannot write faithfully: the plain layout
        return plain + "\n"
