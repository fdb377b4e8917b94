"""Lighting, cast shadows and the thumb: everything added to the scene on top
of the table and the documents. Masks are float32 in [0, 1] at photo size."""

import cv2
import numpy as np

import scene
from noise import value_noise

SKIN = [(226, 188, 170), (214, 168, 145), (190, 142, 118), (150, 108, 84), (105, 76, 60)]


def _upscale(field, size):
    return cv2.resize(field.astype(np.float32), size, interpolation=cv2.INTER_CUBIC)


def _lowres_grid(size, factor=8):
    w, h = size
    lw, lh = w // factor + 1, h // factor + 1
    m = float(max(w, h))
    ys, xs = np.mgrid[0:lh, 0:lw].astype(np.float32)
    xs = (xs * factor - w / 2) / (m / 2)
    ys = (ys * factor - h / 2) / (m / 2)
    return xs, ys


def illumination(rng, size):
    """Smooth light over the frame: a gradient, a broad bright area and lens
    vignetting, normalised to a maximum of 1."""
    xs, ys = _lowres_grid(size)
    beta = rng.uniform(0, 2 * np.pi)
    field = 1.0 + rng.uniform(0.08, 0.3) * (xs * np.cos(beta) + ys * np.sin(beta))
    cx, cy = rng.uniform(-0.8, 0.8, 2)
    sigma = rng.uniform(0.5, 1.2)
    field *= 1.0 + rng.uniform(0.05, 0.2) * np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * sigma ** 2))
    r2 = (xs ** 2 + ys ** 2) / (xs ** 2 + ys ** 2).max()
    field *= 1.0 - rng.uniform(0.12, 0.32) * r2 ** 1.3
    return _upscale(field / field.max(), size)


def _edge_point(rng, quads):
    """A random point on a random edge of a random quad, away from the corners,
    with the edge's outward normal."""
    q = quads[int(rng.integers(len(quads)))]
    i = int(rng.integers(4))
    a, b = q[i], q[(i + 1) % 4]
    p = a + (b - a) * rng.uniform(0.2, 0.8)
    centre = q.mean(axis=0)
    normal = np.array([b[1] - a[1], a[0] - b[0]], np.float64)
    normal /= np.linalg.norm(normal)
    if np.dot(normal, p - centre) < 0:
        normal = -normal
    return p, normal


def soft_shadow(rng, size, quads):
    """A blurred shadow (of the photographer's head and shoulders, a lamp arm...)
    lying partly over a page edge. Returns the mask."""
    factor = 8
    w, h = size
    lw, lh = w // factor + 1, h // factor + 1
    p, normal = _edge_point(rng, quads)
    radius = rng.uniform(0.12, 0.3) * min(w, h)
    centre = p + normal * radius * rng.uniform(-0.4, 0.4)
    mask = np.zeros((lh, lw), np.float32)
    angle = rng.uniform(0, 180)
    for k in range(int(rng.integers(1, 4))):         # one to three overlapping blobs
        c = centre + rng.normal(0, 0.5, 2) * radius * (k > 0)
        axes = (int(radius * rng.uniform(0.6, 1.0) / factor), int(radius * rng.uniform(0.35, 0.7) / factor))
        cv2.ellipse(mask, (int(c[0] / factor), int(c[1] / factor)), axes, angle + rng.normal(0, 20),
                    0, 360, 1.0, -1, cv2.LINE_AA)
    mask = blur(mask, rng.uniform(0.1, 0.25) * radius / factor)
    return np.clip(_upscale(mask, size), 0, 1)


def _hand(mask, k, rho):
    """Draw a flat hand silhouette (palm, four fingers, thumb) into `mask` at
    k pixels per mm, its origin inside the middle finger."""
    c = np.array(mask.shape[::-1], np.float64) / 2
    rot = scene.rotate(rho)[:2, :2]

    def pt(x, y):
        return tuple(int(v) for v in ((rot @ [x, y]) * k + c) * 16)

    palm_c = (rot @ [0, 75]) * k + c
    cv2.ellipse(mask, tuple(int(v * 16) for v in palm_c), (int(44 * k * 16), int(52 * k * 16)), rho,
                0, 360, 1.0, -1, cv2.LINE_AA, 4)
    for x0, x1, top in ((-28, -38, -22), (-6, -4, -45), (14, 18, -38), (32, 42, -12)):
        cv2.line(mask, pt(x0, 40), pt(x1, top), 1.0, int(17 * k), cv2.LINE_AA, 4)
    cv2.line(mask, pt(38, 85), pt(78, 40), 1.0, int(20 * k), cv2.LINE_AA, 4)


def hard_shadow(rng, camera, placements):
    """A sharp-edged shadow (a phone, a hand or a straight edge such as a box)
    crossing the edge of a page. Returns (mask, caster name)."""
    placement = placements[int(rng.integers(len(placements)))]
    page = placement.doc.pages[int(rng.integers(len(placement.doc.pages)))]
    table_quad = scene.apply(placement.to_table, scene.rect_corners(page.rect))
    p, _ = _edge_point(rng, [table_quad])
    caster = str(rng.choice(["phone", "hand", "edge"]))
    k = 2.0                                  # raster pixels per mm
    half = 320.0
    n = int(2 * half * k)
    mask = np.zeros((n, n), np.float32)
    rho = rng.uniform(0, 360)
    c = np.array([n / 2, n / 2])
    if caster == "phone":
        local = rng.uniform([-28, -60], [28, 60])
        rot = scene.rotate(rho)[:2, :2]
        centre = c - (rot @ local) * k
        box = ((float(centre[0]), float(centre[1])), (72 * k, 150 * k), rho)
        pts = cv2.boxPoints(box)
        cv2.fillConvexPoly(mask, (pts * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    elif caster == "hand":
        _hand(mask, k, rho)
    else:
        rot = scene.rotate(rho)[:2, :2]
        pts = np.array([rot @ v for v in ([0, -half], [half, -half], [half, half], [0, half])]) * k + c
        cv2.fillConvexPoly(mask, (pts * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    to_table = scene.translate(p[0] - half, p[1] - half) @ scene.scale(1.0 / k)
    H = camera.plane_to_photo(placement.height_mm) @ to_table
    mask = warp(mask, H, camera.size)
    px_per_mm = scene.local_scale(camera.plane_to_photo(placement.height_mm), p)
    mask = blur(mask, max(0.6, rng.uniform(0.5, 1.5) * px_per_mm))
    return mask, caster


def blur(mask, sigma):
    """Gaussian blur; large kernels run on a reduced copy (same result to the eye, much faster)."""
    if sigma <= 6:
        return cv2.GaussianBlur(mask, (0, 0), sigma)
    f = sigma / 3.0
    h, w = mask.shape[:2]
    small = cv2.resize(mask, (max(1, int(w / f)), max(1, int(h / f))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), 3.0)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def warp(img, H, size, border=cv2.BORDER_CONSTANT):
    """warpPerspective for our pixel-edge convention ([0, w] spans the image)."""
    centre_conv = scene.translate(-0.5, -0.5) @ H @ scene.translate(0.5, 0.5)
    return cv2.warpPerspective(img, centre_conv, size, flags=cv2.INTER_LINEAR, borderMode=border)


def contact_shadow(rng, camera, placement, light_deg):
    """The soft shadow a document (or a thick book) casts on the table next to
    its edges, offset away from the light."""
    doc = placement.doc
    offset_mm = 0.4 + 0.45 * doc.thickness_mm
    off = scene.translate(offset_mm * np.cos(np.radians(light_deg)), offset_mm * np.sin(np.radians(light_deg)))
    small, factor = _shrunk(doc.alpha, 1200)
    H = camera.plane_to_photo(0.0) @ off @ placement.to_table @ scene.scale(factor)
    mask = warp(small, H, camera.size)
    centre = scene.apply(placement.to_table, [(doc.alpha.shape[1] / 2, doc.alpha.shape[0] / 2)])[0]
    px_per_mm = scene.local_scale(camera.plane_to_photo(0.0), centre)
    sigma = (0.8 + 0.35 * doc.thickness_mm) * px_per_mm * rng.uniform(0.8, 1.3)
    strength = 0.35 if doc.thickness_mm < 1 else 0.55
    return strength * blur(mask, max(0.8, sigma))


def _shrunk(img, longest):
    """Downscale `img` so its long side is at most `longest`; returns (image, factor)."""
    h, w = img.shape[:2]
    f = max(1.0, max(h, w) / longest)
    if f == 1.0:
        return img, 1.0
    return cv2.resize(img, (int(round(w / f)), int(round(h / f))), interpolation=cv2.INTER_AREA), f


def thumb(rng, size, quad, side, px_per_mm, overlap_mm):
    """A thumb coming in from `side` of the frame and pressing on the page edge
    facing that side, its tip `overlap_mm` onto the page: rounded tip,
    widening towards the hand, cylindrical shading, reddish rim, a nail with a
    pale free edge, knuckle creases, soft (out of focus) outline and a cast
    shadow.
    Returns [linear rgb, alpha, cast shadow mask], all full frame."""
    w, h = size
    inward = {"left": (1, 0), "right": (-1, 0), "top": (0, 1), "bottom": (0, -1)}[side]
    inward = np.array(inward, np.float64)
    centre = quad.mean(axis=0)
    best, edge = -2.0, None
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        normal = np.array([b[1] - a[1], a[0] - b[0]])
        normal /= np.linalg.norm(normal)
        if np.dot(normal, (a + b) / 2 - centre) < 0:
            normal = -normal
        score = -np.dot(normal, inward)
        if score > best:
            best, edge = score, (a, b)
    q = edge[0] + (edge[1] - edge[0]) * rng.uniform(0.3, 0.7)
    axis = scene.apply(scene.rotate(rng.uniform(-25, 25)), [inward])[0]   # from base to tip
    width = rng.uniform(20, 25) * 1.25 * px_per_mm                        # nearer the lens than the page
    tip = q + axis * overlap_mm * px_per_mm

    # work inside the region the thumb (and its shadow) can reach
    reach = np.vstack([tip + s * axis + o * np.array([-axis[1], axis[0]])
                       for s in (1.6 * width, -2 * np.hypot(w, h)) for o in (-1.6 * width, 1.6 * width)])
    x0, y0 = np.clip(np.floor(reach.min(axis=0)), 0, [w, h]).astype(int)
    x1, y1 = np.clip(np.ceil(reach.max(axis=0)), 0, [w, h]).astype(int)
    ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    xs += 0.5
    ys += 0.5
    dx, dy = xs - tip[0], ys - tip[1]
    t = -(dx * axis[0] + dy * axis[1])                 # distance from the tip towards the base
    d = dx * axis[1] - dy * axis[0]                    # signed distance across the thumb
    joint = np.exp(-((t - 1.5 * width) / (0.35 * width)) ** 2)     # slightly narrower at the knuckle
    r = width / 2 * (1.0 + 0.16 * np.clip(t / width, 0, 2.5) - 0.05 * joint)
    across = np.abs(d) / r
    along = np.where(t < 0, -t / (0.62 * width), 0.0)
    rad = np.sqrt(across ** 2 + along ** 2)           # 1 on the outline
    edge_px = max(2.0, 0.08 * width)                  # the thumb is out of focus
    alpha = np.clip((1.0 - rad) * r / edge_px + 0.5, 0, 1)

    nz = np.sqrt(np.clip(1.0 - rad ** 2, 0, 1))
    lit_side = rng.choice([-1.0, 1.0])
    shade = 0.45 + 0.47 * nz ** 0.9 + 0.08 * np.clip(d / r, -1, 1) * lit_side
    shade += 0.06 * np.exp(-((d / r - 0.3 * lit_side) / 0.18) ** 2) * (t > 0.2 * width)
    skin = np.array(SKIN[int(rng.integers(len(SKIN)))], np.float32) / 255.0
    skin = skin * rng.uniform(0.96, 1.04, 3).astype(np.float32)
    rim = (1.0 - nz)[..., None] * np.array([0.0, 0.12, 0.15], np.float32)   # redder towards the edges
    blotch = (1.0 + 0.03 * value_noise(rng, xs.shape, 0.3 * width)
              + 0.02 * value_noise(rng, xs.shape, max(1.5, 0.03 * width)))
    rgb = (skin ** 2.2)[None, None, :] * (1.0 - rim) * (shade * blotch)[..., None]

    tn = t - 0.45 * width
    nail_r = np.sqrt((tn / (0.42 * width)) ** 2 + (d / (0.33 * width)) ** 2)
    nail = np.clip((1.0 - nail_r) * 0.3 * width / edge_px, 0, 1)
    nail_col = (np.clip(skin * [1.04, 0.97, 0.98] + 0.05, 0, 1) ** 2.2)[None, None, :]
    free_edge = np.clip(1.0 - (tn + 0.42 * width) / (0.1 * width), 0, 1)[..., None]
    nail_col = nail_col * (1 - 0.6 * free_edge) + 0.6 * free_edge * (np.array([0.9, 0.87, 0.84]) ** 2.2)
    fold = np.exp(-((nail_r - 1.0) / 0.08) ** 2)[..., None]          # skin folds around the nail
    rgb = rgb * (1 - 0.15 * fold)
    rgb = rgb * (1 - nail[..., None]) + nail_col * shade[..., None] * nail[..., None]
    glint = np.exp(-(((tn + 0.05 * width) / (0.2 * width)) ** 2 + ((d - 0.1 * lit_side * width) / (0.08 * width)) ** 2))
    rgb += 0.05 * glint[..., None] * nail[..., None]
    for at in (1.5, 1.62):                              # creases of the knuckle
        crease = np.exp(-((t - at * width) / (0.03 * width)) ** 2) * np.clip(1.2 - across, 0, 1)
        rgb *= 1.0 - 0.1 * crease[..., None]

    light = scene.apply(scene.rotate(rng.uniform(0, 360)), [[1.0, 0.0]])[0] * 0.3 * width
    shifted = warp(alpha, scene.translate(*light), alpha.shape[::-1])
    shadow = 0.45 * blur(shifted, 0.25 * width)
    full = [np.zeros((h, w, 3), np.float32), np.zeros((h, w), np.float32), np.zeros((h, w), np.float32)]
    for dst, src in zip(full, (rgb, alpha, shadow)):
        dst[y0:y1, x0:x1] = src
    return full
