"""Scene geometry: documents lying on a table plane, seen by a pinhole camera.

Coordinates:
- Doc image pixels: the image spans [0, w] x [0, h] (pixel (i, j) covers [i, i+1]).
- Table plane: millimetres, x right and y "down" as seen by an untilted camera.
- Photo: pixels of the upright photo, spanning [0, W] x [0, H] like Doc images.
A point of a document whose top face is `h` mm above the table maps to the
photo by `Camera.plane_to_photo(h) @ Placement.to_table`.
"""

from dataclasses import dataclass

import numpy as np

PHONE_FOCAL = 0.72  # focal length / long side of the frame: a 26 mm-equivalent phone lens


def translate(tx, ty):
    return np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]], np.float64)


def rotate(deg):
    """Rotation by `deg` clockwise as seen in y-down coordinates."""
    c, s = np.cos(np.radians(deg)), np.sin(np.radians(deg))
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], np.float64)


def scale(sx, sy=None):
    return np.diag([sx, sx if sy is None else sy, 1.0])


def apply(H, pts):
    """Apply a 3x3 homography to an (n, 2) array of points."""
    pts = np.asarray(pts, np.float64).reshape(-1, 2)
    p = np.hstack([pts, np.ones((len(pts), 1))]) @ H.T
    return p[:, :2] / p[:, 2:3]


def local_scale(H, pt):
    """Output units per input unit of homography H around input point `pt`
    (square root of the local area ratio)."""
    p = apply(H, [pt, (pt[0] + 1, pt[1]), (pt[0], pt[1] + 1)])
    return np.sqrt(abs(np.cross(p[1] - p[0], p[2] - p[0])))


def polygon_area(pts):
    x, y = np.asarray(pts, np.float64).T
    return 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def rect_corners(rect):
    x0, y0, x1, y1 = rect
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)


@dataclass
class Placement:
    """A Doc lying on the table."""
    doc: object
    to_table: np.ndarray    # doc image pixels -> table mm
    height_mm: float        # height of the doc's top face above the table


def place(doc, angle_deg, centre_mm):
    """Put `doc` on the table, turned `angle_deg` clockwise, centred at `centre_mm`."""
    h, w = doc.alpha.shape
    m = (translate(*centre_mm) @ rotate(angle_deg) @ translate(-w / doc.ppmm / 2, -h / doc.ppmm / 2)
         @ scale(1.0 / doc.ppmm))
    return Placement(doc, m, doc.thickness_mm)


def extent_mm(doc, angle_deg):
    """Half width and half height of a doc's bounding box when turned by `angle_deg`."""
    h, w = doc.alpha.shape
    c, s = abs(np.cos(np.radians(angle_deg))), abs(np.sin(np.radians(angle_deg)))
    wm, hm = w / doc.ppmm, h / doc.ppmm
    return (wm * c + hm * s) / 2, (wm * s + hm * c) / 2


def layout_row(docs, rng, angle_deg, jitter_deg=8.0, gap_mm=(12, 45)):
    """Lay docs side by side along a row (no overlap), then turn the whole row.

    In the row's own frame each doc's bounding box lies strictly right of the
    previous one, so the documents can never overlap.
    """
    turns = [rng.uniform(-jitter_deg, jitter_deg) for _ in docs]
    extents = [extent_mm(d, t) for d, t in zip(docs, turns)]
    tallest = max(e[1] for e in extents)
    centres, x = [], 0.0
    for i, (hw, hh) in enumerate(extents):
        if i:
            x += rng.uniform(*gap_mm)
        x += hw
        centres.append((x, rng.uniform(-0.25, 0.25) * (tallest - hh) + rng.uniform(-8, 8)))
        x += hw
    centres = np.array(centres) - [x / 2, 0.0]
    turned = apply(rotate(angle_deg), centres)
    return [place(d, angle_deg + t, c) for d, t, c in zip(docs, turns, turned)]


def _axis_rotation(axis, deg):
    a = np.asarray(axis, np.float64) / np.linalg.norm(axis)
    t = np.radians(deg)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + np.sin(t) * k + (1 - np.cos(t)) * (k @ k)


class Camera:
    """A phone camera at `distance` mm from the table point (0, 0), its optical
    axis tilted `tilt` degrees from the table normal towards `azimuth`, and
    rolled `roll` degrees about the axis. `adjust` is the turn about the
    camera's centre that aims it at the documents (K R K^-1, see `frame`): the
    principal point stays at the photo's centre."""

    def __init__(self, size, tilt, azimuth, roll, distance):
        self.size = size
        self.tilt = tilt
        w, h = size
        self.focal = PHONE_FOCAL * max(w, h)
        axis = (np.cos(np.radians(azimuth)), np.sin(np.radians(azimuth)), 0.0)
        roll_m = rotate(roll)
        self.R = roll_m @ _axis_rotation(axis, tilt)
        self.t = np.array([0.0, 0.0, distance])
        self.K = np.array([[self.focal, 0, w / 2], [0, self.focal, h / 2], [0, 0, 1]], np.float64)
        self.adjust = np.eye(3)

    def viewing_tilt(self):
        """Degrees between the optical axis, once aimed, and the table normal."""
        turn = np.linalg.inv(self.K) @ self.adjust @ self.K
        axis_in_table = (turn @ self.R)[2]
        return float(np.degrees(np.arccos(min(1.0, abs(axis_in_table[2]) / np.linalg.norm(axis_in_table)))))

    def plane_to_photo(self, height_mm=0.0):
        """Homography from table mm on the plane `height_mm` above the table to photo pixels."""
        m = np.column_stack([self.R[:, 0], self.R[:, 1], -height_mm * self.R[:, 2] + self.t])
        return self.adjust @ self.K @ m

    def doc_to_photo(self, placement):
        """Homography from a placed doc's image pixels to photo pixels."""
        return self.plane_to_photo(placement.height_mm) @ placement.to_table

    def ray_angles(self, pts):
        """Angle (degrees) between the table normal and the viewing ray through
        each photo point; 90 or more means the ray never meets the table."""
        k_inv = np.linalg.inv(self.adjust @ self.K)
        rays = np.hstack([np.asarray(pts, np.float64), np.ones((len(pts), 1))]) @ k_inv.T
        normal = self.R[:, 2]
        cos = rays @ normal / np.linalg.norm(rays, axis=1)
        return np.degrees(np.arccos(np.clip(cos, -1, 1)))


def outline_points(camera, placement):
    """Photo points that must stay in frame for a placed doc: its top face and,
    for thick objects, its footprint on the table."""
    doc = placement.doc
    h, w = doc.alpha.shape
    corners = rect_corners((0, 0, w, h))
    pts = [apply(camera.doc_to_photo(placement), corners)]
    if placement.height_mm > 1.0:
        pts.append(apply(camera.plane_to_photo(0.0) @ placement.to_table, corners))
    return np.vstack(pts)


def page_quads(camera, placement):
    """Photo quads (TL, TR, BR, BL in page reading order) of a placed doc's pages."""
    H = camera.doc_to_photo(placement)
    return [apply(H, rect_corners(p.rect)) for p in placement.doc.pages]


def _rotation_between(a, b):
    """The rotation turning direction `a` onto direction `b` about their common normal."""
    a = np.asarray(a, np.float64) / np.linalg.norm(a)
    b = np.asarray(b, np.float64) / np.linalg.norm(b)
    axis = np.cross(a, b)
    sin = np.linalg.norm(axis)
    if sin < 1e-12:
        return np.eye(3)
    k = axis / sin
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + sin * kx + (1 - np.dot(a, b)) * (kx @ kx)


def frame(camera, placements, coverage, margin, rng, side=None):
    """Aim the camera so that the pages cover about `coverage` of the photo
    while everything stays `margin` pixels inside it, as a person framing a
    shot does: the phone moves along its axis to size the documents, then turns
    about its own centre (`camera.adjust` = K R K^-1) to place them. The photo
    keeps its principal point at its centre and its focal length, as a phone's
    does, so the pages' perspective is that of a real photo.

    With `side` ('left', 'right', 'top' or 'bottom') the documents are pushed
    against that side of the frame (where a thumb will come in).
    Returns the page coverage actually reached.
    """
    w, h = camera.size
    camera.adjust = np.eye(3)

    def extent():
        pts = np.vstack([outline_points(camera, p) for p in placements])
        area = sum(polygon_area(q) for p in placements for q in page_quads(camera, p))
        return pts.min(axis=0), pts.max(axis=0), area

    # Size: moving along the axis scales a tilted table only roughly, so a few rounds.
    for _ in range(4):
        lo, hi, area = extent()
        s = min(np.sqrt(coverage * w * h / area), (w - 2 * margin) / (hi[0] - lo[0]),
                (h - 2 * margin) / (hi[1] - lo[1]))
        camera.t = camera.t / s
    # Place: where the documents go along each axis, as a share of the free room.
    u, v = rng.random(), rng.random()
    u = {"left": 0.0, "right": 1.0}.get(side, u)
    v = {"top": 0.0, "bottom": 1.0}.get(side, v)
    k_inv = np.linalg.inv(camera.K)
    for _ in range(6):
        lo, hi, area = extent()
        free = np.array([w, h]) - 2 * margin - (hi - lo)
        if (free < 0).any():  # turning made them a little larger: step back
            camera.t = camera.t * (1 + max(-free[0] / w, -free[1] / h) + 0.01)
            continue
        target = np.array([margin, margin]) + free * np.array([u, v])
        centre = (lo + hi) / 2
        goal = centre + (target - lo)
        turn = _rotation_between(k_inv @ np.append(centre, 1.0), k_inv @ np.append(goal, 1.0))
        camera.adjust = camera.K @ turn @ k_inv @ camera.adjust
    lo, hi, area = extent()
    return area / (w * h)
