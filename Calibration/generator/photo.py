"""Synthesize one upright phone photo of documents from a photo `Spec`.

Pipeline (linear light until `develop`): table texture warped by the camera
homography -> contact shadows -> documents (and the sides of thick books) ->
cast shadows -> thumb -> illumination and vignetting -> colour cast and auto
exposure -> optics (lens softness, defocus, motion) -> sensor noise, tone
curve and sharpening -> 8-bit sRGB.
"""

from dataclasses import dataclass

import cv2
import numpy as np

import effects
import render
import scene
import textures

TILTS = {"mild": (3, 15), "moderate": (15, 30), "strong": (30, 40)}
ROTATIONS = {"upright": (-12, 12), "right": (80, 100), "down": (170, 190), "left": (260, 280),
             "any": (0, 360)}
CASTS = {"none": (1.0, 1.0, 1.0), "warm": (1.0, 0.9, 0.74), "cool": (0.86, 0.95, 1.0)}
TO_LINEAR = ((np.arange(256, dtype=np.float32) / 255.0) ** 2.2).astype(np.float32)


@dataclass
class Spec:
    """Everything decided before a photo is synthesized (the rest is drawn from its rng)."""
    name: str
    kind: str
    seed: int
    size: tuple            # (W, H) of the upright photo
    size_label: str
    background: str
    shadow: str            # none | soft | hard
    thumb: bool
    blur: str              # none | defocus | motion
    rotation: str          # key of ROTATIONS
    tilt: str              # key of TILTS
    cast: str              # key of CASTS
    exif_orientation: int
    jpeg_quality: int


@dataclass
class Shot:
    """A synthesized upright photo and the geometry that produced it."""
    image: np.ndarray      # H x W x 3 uint8 sRGB
    camera: scene.Camera
    placements: list
    conditions: dict


def make_docs(kind, rng):
    """The flat documents of one photo: one, or 2-3 receipts and cards for 'multi'."""
    if kind != "multi":
        return [render.RENDERERS[kind](rng)]
    n = int(rng.integers(2, 4))
    kinds = [str(k) for k in rng.choice(["receipt", "card"], n)]
    if len(set(kinds)) == 1 and rng.random() < 0.6:
        kinds[-1] = "card" if kinds[0] == "receipt" else "receipt"
    return [render.RENDERERS[k](rng) for k in kinds]


def stage(spec, docs, rng):
    """Lay the documents on the table and point a camera at them so that they
    fill the requested share of the frame. Returns (camera, placements,
    coverage reached, frame side pushed against for a thumb or None)."""
    w, h = spec.size
    tilt = rng.uniform(*TILTS[spec.tilt])
    for _ in range(20):
        roll = rng.uniform(0, 360)
        angle = rng.uniform(*ROTATIONS[spec.rotation]) - roll
        if len(docs) == 1:
            placements = [scene.place(docs[0], angle, (0.0, 0.0))]
            coverage = rng.uniform(0.25, 0.85)
        else:
            placements = scene.layout_row(docs, rng, angle)
            coverage = rng.uniform(0.2, 0.5)
        area = sum(p.width_mm * p.height_mm for d in docs for p in d.pages)
        distance = scene.PHONE_FOCAL * max(w, h) * np.sqrt(area / (coverage * w * h))
        camera = scene.Camera(spec.size, tilt, rng.uniform(0, 360), roll, distance)
        margin = rng.uniform(0.01, 0.03) if spec.thumb else rng.uniform(0.025, 0.07)
        side = str(rng.choice(["left", "right", "bottom", "top"], p=[0.3, 0.3, 0.3, 0.1])) if spec.thumb else None
        reached = scene.frame(camera, placements, coverage, margin * min(w, h), rng, side)
        corners = scene.rect_corners((0, 0, w, h))
        if camera.ray_angles(corners).max() < 78:
            return camera, placements, reached, side
        tilt = max(3.0, tilt - 1.5)
    raise RuntimeError("could not frame %s" % spec.name)


def table_image(rng, background, camera):
    """The table texture as seen through the camera (linear rgb, photo size)."""
    w, h = camera.size
    to_photo = camera.plane_to_photo(0.0)
    to_table = np.linalg.inv(to_photo)
    corners = scene.rect_corners((0, 0, w, h))
    pts = scene.apply(to_table, np.vstack([corners, [[w / 2, h / 2]]]))
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    pad = 0.03 * (hi - lo)
    lo, hi = lo - pad, hi + pad
    ppmm = max(scene.local_scale(to_photo, p) for p in pts)
    budget = 2.2 * w * h
    ppmm = min(ppmm, np.sqrt(budget / np.prod(hi - lo)))
    shape = (int(np.ceil((hi[1] - lo[1]) * ppmm)), int(np.ceil((hi[0] - lo[0]) * ppmm)))
    tex = textures.BACKGROUNDS[background](rng, shape, ppmm)
    H = to_photo @ scene.translate(*lo) @ scene.scale(1.0 / ppmm)
    return effects.warp(tex, H, camera.size, cv2.BORDER_REFLECT) ** 2.2


def add_document(img, page_mask, camera, placement):
    """Composite one placed document (and its sides if thick) into `img`,
    adding its alpha to `page_mask`."""
    doc = placement.doc
    H = camera.doc_to_photo(placement)
    h, w = doc.alpha.shape
    mag = max(scene.local_scale(H, p) for p in scene.rect_corners((0, 0, w, h)))
    rgb, alpha = TO_LINEAR[doc.rgb], doc.alpha
    if mag < 0.8:                     # pre-shrink so that the warp does not alias
        size = (max(2, int(round(w * mag / 0.8))), max(2, int(round(h * mag / 0.8))))
        rgb = cv2.resize(rgb, size, interpolation=cv2.INTER_AREA)
        alpha = cv2.resize(alpha, size, interpolation=cv2.INTER_AREA)
    Hs = H @ scene.scale(w / rgb.shape[1], h / rgb.shape[0])
    if placement.height_mm > 1.0:
        pts = scene.outline_points(camera, placement)
        hull = cv2.convexHull(pts.astype(np.float32))
        side = np.zeros(img.shape[:2], np.float32)
        cv2.fillConvexPoly(side, np.round((hull.reshape(-1, 2) - 0.5) * 16).astype(np.int32), 1.0,
                           cv2.LINE_AA, 4)
        colour = TO_LINEAR[np.array(doc.side_rgb)] * 0.75
        img[:] = img * (1 - side[..., None]) + colour * side[..., None]
    layer = effects.warp(rgb, Hs, camera.size, cv2.BORDER_REPLICATE)
    a = effects.warp(alpha, Hs, camera.size)[..., None]
    img[:] = img * (1 - a) + layer * a
    page_mask += a[..., 0]


def develop(lin, rng, spec, conditions):
    """Camera optics, sensor and image processing: linear rgb -> uint8 sRGB."""
    w, h = spec.size
    k = np.sqrt(w * h / 2.0e6)                 # 1 at 2 MP, about 2.4 at 12 MP
    lens = rng.uniform(0.45, 0.75) * k ** 0.5
    lin = cv2.GaussianBlur(lin, (0, 0), lens)
    conditions["defocus"] = conditions["motion"] = 0.0
    if spec.blur == "defocus":
        r = rng.uniform(1.0, 1.8) * k ** 0.8
        size = int(np.ceil(r)) * 2 + 1
        kernel = np.zeros((size, size), np.float32)
        cv2.circle(kernel, (size // 2 * 16, size // 2 * 16), int(r * 16), 1.0, -1, cv2.LINE_AA, 4)
        lin = cv2.filter2D(lin, -1, kernel / kernel.sum())
        conditions["defocus"] = round(float(r), 2)
    elif spec.blur == "motion":
        length = rng.uniform(2.5, 5) * k ** 0.8
        size = int(np.ceil(length)) | 1
        kernel = np.zeros((size, size), np.float32)
        c, theta = size / 2, rng.uniform(0, np.pi)
        d = np.array([np.cos(theta), np.sin(theta)]) * length / 2
        cv2.line(kernel, tuple(int(v * 16) for v in (c - d - 0.5)), tuple(int(v * 16) for v in (c + d - 0.5)),
                 1.0, 1, cv2.LINE_AA, 4)
        lin = cv2.filter2D(lin, -1, kernel / kernel.sum())
        conditions["motion"] = round(float(length), 2)
        conditions["motion_angle"] = round(float(np.degrees(theta)), 1)

    v = np.clip(lin, 0, 1) ** (1 / 2.2)
    curve = rng.uniform(0.1, 0.3)
    v = (1 - curve) * v + curve * v * v * (3 - 2 * v)
    # luminance noise, slightly correlated by demosaicing, with std `sigma` levels on mid grey
    sigma = rng.uniform(0.6, 2.2)
    lum = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 0.6)
    grain = (lum / lum.std())[..., None] * (1.25 - 0.6 * v) / 0.95
    chroma = np.stack([cv2.resize(rng.standard_normal((h // 3 + 1, w // 3 + 1)).astype(np.float32), (w, h),
                                  interpolation=cv2.INTER_LINEAR) for _ in range(3)], axis=-1)
    v = v + (sigma * grain + 0.5 * sigma * chroma) / 255.0
    amount = rng.uniform(0.25, 0.6)
    v = v + amount * (v - cv2.GaussianBlur(v, (0, 0), 1.2 * k ** 0.5))
    conditions["noise"] = round(float(sigma), 2)
    conditions["lens_blur"] = round(float(lens), 2)
    return np.clip(v * 255 + 0.5, 0, 255).astype(np.uint8)


def synthesize(spec, rng):
    """Render the documents of `spec` and photograph them. Returns a Shot."""
    docs = make_docs(spec.kind, rng)
    camera, placements, coverage, side = stage(spec, docs, rng)
    w, h = spec.size
    img = table_image(rng, spec.background, camera)

    light_deg = rng.uniform(0, 360)
    under = np.zeros((h, w), np.float32)
    for p in placements:
        under = np.maximum(under, effects.contact_shadow(rng, camera, p, light_deg))
    img *= (1 - under)[..., None]
    pages = np.zeros((h, w), np.float32)
    for p in placements:
        add_document(img, pages, camera, p)

    quads = [q for p in placements for q in scene.page_quads(camera, p)]
    shadow_tint = np.array([1.0, 0.96, 0.86], np.float32)
    conditions = {"background": spec.background, "shadow": spec.shadow}
    if spec.shadow == "soft":
        mask = effects.soft_shadow(rng, spec.size, quads) * rng.uniform(0.4, 0.6)
        img *= 1 - mask[..., None] * shadow_tint
    elif spec.shadow == "hard":
        mask, caster = effects.hard_shadow(rng, camera, placements)
        img *= 1 - mask[..., None] * rng.uniform(0.35, 0.6) * shadow_tint
        conditions["shadow_caster"] = caster
    if spec.thumb:
        target = min(range(len(quads)), key=lambda i: _distance_to_side(quads[i], side, spec.size))
        page = [pg for pl in placements for pg in pl.doc.pages][target]
        px_per_mm = np.sqrt(scene.polygon_area(quads[target]) / (page.width_mm * page.height_mm))
        overlap_mm = min(rng.uniform(9, 20), 0.22 * min(page.width_mm, page.height_mm))
        rgb, alpha, shade = effects.thumb(rng, spec.size, quads[target], side, px_per_mm, overlap_mm)
        img *= (1 - shade)[..., None]
        img[:] = img * (1 - alpha[..., None]) + rgb * alpha[..., None]
        conditions["thumb_side"] = side
    conditions["thumb"] = bool(spec.thumb)
    img *= effects.illumination(rng, spec.size)[..., None]

    cast = np.array(CASTS[spec.cast], np.float32) ** rng.uniform(0.5, 1.0)
    img *= cast * rng.uniform(0.98, 1.02, 3).astype(np.float32)
    # auto exposure: the paper's light tone, unless the scene has brighter parts (a dark card)
    lum = img[::4, ::4].mean(axis=-1)
    on_page = lum[pages[::4, ::4] > 0.99]
    white = max(np.percentile(on_page, 90) if on_page.size else 0.0, np.percentile(lum, 97))
    img *= rng.uniform(0.6, 0.8) / max(white, 1e-4)

    conditions.update({"colour_cast": spec.cast, "jpeg_quality": spec.jpeg_quality,
                       "tilt_degrees": round(camera.viewing_tilt(), 2), "size": spec.size_label,
                       "coverage": round(float(coverage), 3)})
    image = develop(img, rng, spec, conditions)
    return Shot(image, camera, placements, conditions)


def _distance_to_side(quad, side, size):
    w, h = size
    return {"left": quad[:, 0].min(), "right": w - quad[:, 0].max(),
            "top": quad[:, 1].min(), "bottom": h - quad[:, 1].max()}[side]

