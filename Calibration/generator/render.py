"""Flat renderings of the document kinds (before any photography).

Each renderer returns a `Doc`: an sRGB image with an alpha mask, its scale in
pixels per millimetre and one `Page` per readable page, carrying the page's
rectangle inside the image and every text line with its box.
"""

from dataclasses import dataclass, field

import cv2
import numpy as np

import fonts
import text
from canvas import Canvas
from noise import value_noise

A4 = (210.0, 297.0)
LETTER = (215.9, 279.4)


@dataclass
class Page:
    """A readable page inside a Doc image; coordinates are Doc image pixels
    with the image spanning [0, w] x [0, h]."""
    rect: tuple          # (x0, y0, x1, y1)
    width_mm: float
    height_mm: float
    lines: list          # [(text, (x0, y0, x1, y1))] in reading order


@dataclass
class Doc:
    """A flat physical object to be photographed."""
    kind: str
    rgb: np.ndarray      # h x w x 3 uint8, sRGB
    alpha: np.ndarray    # h x w float32 in [0, 1]
    ppmm: float          # image pixels per millimetre
    pages: list
    thickness_mm: float = 0.1
    side_rgb: tuple = (200, 195, 185)   # colour of the object's edges when it is thick
    gutter: tuple = None                # ((x, y), (x, y)) top and bottom of a book's gutter
    extras: dict = field(default_factory=dict)


# ---------------------------------------------------------------- helpers

def _paper(rng, cream=False):
    if cream:
        return tuple(int(v) for v in (np.array([242, 235, 218]) + rng.integers(-6, 5, 3)))
    base = int(rng.integers(240, 251))
    return (base, base - int(rng.integers(0, 3)), base - int(rng.integers(0, 7)))


def _ink(rng):
    v = int(rng.integers(18, 48))
    return (v, v, v + int(rng.integers(0, 8)))


def _family(rng, weights=(0.55, 0.35, 0.10)):
    style = ["serif", "sans", "mono"][int(rng.choice(3, p=weights))]
    return fonts.choose(rng, style)


def _finish(canvas, rng, grain=0.012, fade=0.0):
    """Paper texture and uneven ink density on a rendered canvas -> uint8 array."""
    img = np.asarray(canvas.image, np.float32)
    h, w = img.shape[:2]
    paper = img.max(axis=(0, 1))
    if fade > 0:
        # thermal and cheap prints: ink darkness varies smoothly over the page
        strength = 1.0 - fade * np.clip(0.5 + 0.5 * value_noise(rng, (h, w), canvas.px(25)), 0, 1)
        img = paper - (paper - img) * strength[..., None]
    # a sheet is never perfectly flat or even: broad shading, faint blotches, fibres
    sheet = 1.0 + 0.015 * value_noise(rng, (h, w), canvas.px(70))
    blotch = 1.0 + 0.25 * grain * value_noise(rng, (h, w), canvas.px(12))
    fibre = 1.0 + grain * cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 0.8)
    img *= (sheet * blotch * fibre)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def _single_page_doc(kind, canvas, rng, grain=0.012, fade=0.0, thickness=0.1, side=(200, 195, 185)):
    rgb = _finish(canvas, rng, grain, fade)
    h, w = rgb.shape[:2]
    page = Page((0.0, 0.0, float(w), float(h)), canvas.width_mm, canvas.height_mm, list(canvas.lines))
    return Doc(kind, rgb, np.ones((h, w), np.float32), canvas.ppmm, [page], thickness, side)


# ---------------------------------------------------------------- prose

def render_prose(rng):
    """An A4 or Letter page of paragraphs, optionally with a heading."""
    w_mm, h_mm = A4 if rng.random() < 0.6 else LETTER
    cv = Canvas(w_mm, h_mm, rng.uniform(200, 300) / 25.4, _paper(rng))
    ink = _ink(rng)
    fam = _family(rng)
    body_pt = rng.uniform(10, 11) if fam.style == "mono" else rng.uniform(10, 12)
    body = fam.font(cv.pt(body_pt))
    leading = cv.pt(body_pt) * rng.uniform(1.2, 1.45)
    left, right = cv.px(rng.uniform(20, 30)), cv.px(rng.uniform(20, 30))
    width = cv.size[0] - left - right
    y = cv.px(rng.uniform(18, 28))
    if rng.random() < 0.75:
        head_fam = fam if rng.random() < 0.6 else fonts.choose(rng, "sans")
        head = head_fam.font(cv.pt(rng.uniform(15, 20)), "bold")
        title = text.pick(rng, text.HEADINGS)
        if rng.random() < 0.5:
            cv.text(cv.size[0] / 2, y, title, head, ink, anchor="ma")
        else:
            cv.text(left, y, title, head, ink)
        y += cv.pt(20) * 1.5
        if rng.random() < 0.5:
            sub = fam.font(cv.pt(body_pt - 1), "italic")
            first, last = text.person(rng)
            cv.text(left, y, "%s, prepared by %s %s" % (text.date(rng), first, last), sub, ink)
            y += leading * 1.6
    justify = rng.random() < 0.5
    indent = cv.px(rng.uniform(5, 8)) if rng.random() < 0.5 else 0.0
    gap = 0.0 if indent else leading * rng.uniform(0.4, 0.8)
    bottom = cv.size[1] - cv.px(rng.uniform(22, 30))
    stop = y + (bottom - y) * rng.uniform(0.75, 1.0)
    while y + leading <= stop:
        y = cv.paragraph(left, y, width, text.paragraph(rng), body, ink, leading, justify, indent, stop)
        y += gap
    if rng.random() < 0.6:
        foot = fam.font(cv.pt(body_pt - 1.5))
        label = "- %d -" % rng.integers(1, 20) if rng.random() < 0.5 else "Page %d of %d" % (
            rng.integers(1, 3), rng.integers(3, 6))
        cv.text(cv.size[0] / 2, cv.size[1] - cv.px(14), label, foot, ink, anchor="ms")
    return _single_page_doc("prose", cv, rng)


# ---------------------------------------------------------------- receipt

def render_receipt(rng):
    """An 80 mm wide thermal till receipt, 150-300 mm long, in a monospace font."""
    length = rng.uniform(150, 300)
    cv = Canvas(80.0, length, rng.uniform(200, 280) / 25.4, (247, 247, 244))
    ink = (int(rng.integers(35, 70)),) * 3
    fam = fonts.choose(rng, "mono")
    cols = int(rng.integers(32, 43))
    print_w = cv.px(rng.uniform(68, 72))
    probe = fam.font(40)
    size = 40 * print_w / probe.getlength("0" * cols)
    font, bold = fam.font(size), fam.font(size, "bold")
    big = fam.font(min(size * 1.6, 40 * print_w / probe.getlength("0" * 18)), "bold")
    lead = size * rng.uniform(1.2, 1.4)
    x0 = (cv.size[0] - print_w) / 2
    dashes = "-" * cols if rng.random() < 0.5 else "=" * cols

    def row(left, right=""):
        return left[:cols - len(right) - 1].ljust(cols - len(right)) + right

    street, city, code = text.address(rng)
    header = [("big", text.pick(rng, text.SHOPS)), ("c", street), ("c", city + " " + code),
              ("c", "Tel " + text.phone(rng)), ("gap", ""),
              ("l", "%02d/%02d/%d  %02d:%02d" % (rng.integers(1, 29), rng.integers(1, 13),
                                                rng.integers(2020, 2025), rng.integers(7, 22),
                                                rng.integers(0, 60))),
              ("l", row("Till %d" % rng.integers(1, 9), "No. %05d" % rng.integers(100, 99999))),
              ("l", dashes)]
    footer_height = lead * 13 + cv.px(22)
    room = cv.size[1] - cv.px(8) - footer_height - lead * (len(header) + 1)
    n_items = int(np.clip(room // (lead * 1.25), 2, 30))
    lines, total = list(header), 0.0
    for _ in range(n_items):
        name, price = text.pick(rng, text.ITEMS)
        qty = int(rng.integers(2, 4)) if rng.random() < 0.2 else 1
        price = round(price * rng.uniform(0.9, 1.15), 2)
        total += qty * price
        lines.append(("l", row(name.upper() if rng.random() < 0.5 else name, "%.2f" % (qty * price))))
        if qty > 1:
            lines.append(("l", "  %d x %.2f" % (qty, price)))
    tax = round(total * 0.2 / 1.2, 2)
    lines += [("l", dashes), ("l", row("SUBTOTAL", "%.2f" % total)),
              ("l", row("VAT 20% incl.", "%.2f" % tax)), ("b", row("TOTAL", "%.2f" % total)),
              ("gap", "")]
    if rng.random() < 0.6:
        lines += [("l", row("VISA", "%.2f" % total)),
                  ("l", "CARD ************%04d" % rng.integers(0, 10000))]
    else:
        paid = float(np.ceil(total / 10.0) * 10)
        lines += [("l", row("CASH", "%.2f" % paid)), ("l", row("CHANGE", "%.2f" % (paid - total)))]
    lines += [("gap", ""), ("c", "Thank you for shopping with us!"), ("c", "Please keep your receipt")]

    y = cv.px(rng.uniform(6, 10))
    for style, s in lines:
        if style == "gap":
            y += lead * 0.6
        elif style == "big":
            cv.text(cv.size[0] / 2, y, s, big, ink, anchor="ma")
            y += lead * 1.7
        elif style == "c":
            cv.text(cv.size[0] / 2, y, s, font, ink, anchor="ma")
            y += lead
        else:
            cv.text(x0, y, s, bold if style == "b" else font, ink)
            y += lead
    if y + cv.px(18) < cv.size[1] and rng.random() < 0.7:
        _barcode(cv, rng, y + cv.px(4), ink)
    return _single_page_doc("receipt", cv, rng, grain=0.008, fade=rng.uniform(0.1, 0.45),
                            thickness=0.06, side=(235, 235, 232))


def _barcode(cv, rng, y, ink):
    x = cv.size[0] * 0.2
    end = cv.size[0] * 0.8
    unit = cv.px(0.3)
    while x < end:
        w = unit * int(rng.integers(1, 4))
        if rng.random() < 0.55:
            cv.draw.rectangle([x, y, x + w, y + cv.px(10)], fill=ink)
        x += w


# ---------------------------------------------------------------- business card

def render_card(rng):
    """An 85 x 55 mm business card: name, title, company, phone, email, address."""
    dark = rng.random() < 0.15
    if dark:
        paper = tuple(int(v) for v in rng.integers(25, 60, 3))
        ink = (238, 236, 230)
    else:
        paper = _paper(rng, cream=rng.random() < 0.3)
        ink = _ink(rng)
    accent = tuple(int(v) for v in rng.choice([[180, 40, 40], [30, 80, 150], [20, 120, 90],
                                                [200, 120, 20], [90, 50, 130]]))
    cv = Canvas(85.0, 55.0, rng.uniform(260, 320) / 25.4, paper)
    fam = fonts.choose(rng, "sans" if rng.random() < 0.6 else "serif")
    first, last = text.person(rng)
    word, trade = text.pick(rng, text.COMPANY_WORDS)
    domain = (word + trade).lower() + (".com" if rng.random() < 0.5 else ".co.uk")
    street, city, code = text.address(rng)
    name_f = fam.font(cv.pt(rng.uniform(10, 13)), "bold")
    title_f = fam.font(cv.pt(rng.uniform(7, 8.5)), "italic" if rng.random() < 0.5 else "regular")
    comp_f = fam.font(cv.pt(rng.uniform(8, 9.5)), "bold")
    small = fam.font(cv.pt(rng.uniform(6.5, 7.5)))
    contact = ["Tel " + text.phone(rng), "%s.%s@%s" % (first.lower(), last.lower(), domain),
               street, city + " " + code]
    if rng.random() < 0.5:
        contact.append("www." + domain)
    step = cv.pt(8.5)
    layout = int(rng.integers(3))
    if layout == 0:      # accent bar on the left, everything left-aligned
        cv.draw.rectangle([0, 0, cv.px(rng.uniform(3, 6)), cv.size[1]], fill=accent)
        x, y = cv.px(12), cv.px(7)
        cv.text(x, y, "%s %s" % (first, last), name_f, ink)
        cv.text(x, y + cv.pt(14), text.pick(rng, text.JOB_TITLES), title_f, ink)
        cv.text(x, y + cv.pt(25), "%s %s" % (word, trade), comp_f, accent if not dark else ink)
        y = cv.size[1] - cv.px(5) - step * len(contact)
        for s in contact:
            cv.text(x, y, s, small, ink)
            y += step
    elif layout == 1:    # logo block top-left, name to its right, contacts bottom-right
        s = cv.px(14)
        cv.draw.rectangle([cv.px(6), cv.px(6), cv.px(6) + s, cv.px(6) + s], fill=accent)
        logo = fam.font(s * 0.45, "bold")
        cv.draw.text((cv.px(6) + s / 2, cv.px(6) + s / 2), word[0] + trade[0], font=logo,
                     fill=(255, 255, 255), anchor="mm")
        x = cv.px(24)
        cv.text(x, cv.px(7), "%s %s" % (word, trade), comp_f, ink)
        cv.text(x, cv.px(7) + cv.pt(11), "%s %s" % (first, last), name_f, ink)
        cv.text(x, cv.px(7) + cv.pt(25), text.pick(rng, text.JOB_TITLES), title_f, ink)
        y = cv.size[1] - cv.px(4) - step * len(contact)
        for s in contact:
            cv.text(x, y, s, small, ink)
            y += step
    else:                # centred
        mid = cv.size[0] / 2
        y = cv.px(7)
        cv.text(mid, y, "%s %s" % (first, last), name_f, ink, anchor="ma")
        cv.text(mid, y + cv.pt(14), text.pick(rng, text.JOB_TITLES), title_f, ink, anchor="ma")
        cv.text(mid, y + cv.pt(24), "%s %s" % (word, trade), comp_f, accent if not dark else ink,
                anchor="ma")
        rule = y + cv.pt(36)
        cv.hline(mid - cv.px(20), mid + cv.px(20), rule, accent, cv.px(0.4))
        y = rule + cv.px(2.5)
        for s in contact:
            cv.text(mid, y, s, small, ink, anchor="ma")
            y += step
    side = tuple(int(v * 0.9) for v in paper)
    return _single_page_doc("card", cv, rng, grain=0.01, thickness=0.35, side=side)


# ---------------------------------------------------------------- form

def render_form(rng):
    """An A4 form: labels, ruled boxes, check boxes and some hand-filled values."""
    cv = Canvas(*A4, rng.uniform(200, 260) / 25.4, _paper(rng))
    ink = _ink(rng)
    pen = (25, 45, 140) if rng.random() < 0.6 else (30, 30, 35)
    fam = fonts.choose(rng, "sans" if rng.random() < 0.7 else "serif")
    hand = fonts.choose(rng, ["sans", "serif"][int(rng.integers(2))])
    caps = rng.random() < 0.5
    label_f, label_b = fam.font(cv.pt(9.5)), fam.font(cv.pt(11), "bold")
    fill_f = hand.font(cv.pt(rng.uniform(11, 13)), "italic")
    left, right = cv.px(18), cv.size[0] - cv.px(18)
    line_w = cv.px(0.3)

    def filled(x, y, s):
        cv.text(x, y, s.upper() if caps else s, fill_f, pen)

    y = cv.px(16)
    cv.text(cv.size[0] / 2, y, text.pick(rng, text.FORM_TITLES), fam.font(cv.pt(17), "bold"), ink,
            anchor="ma")
    y += cv.pt(30)
    cv.text(left, y, "Please complete all sections%s." % (" in BLOCK CAPITALS" if caps else ""),
            label_f, ink)
    y += cv.pt(22)

    first, last = text.person(rng)
    street, city, code = text.address(rng)
    values = {
        "Full name": "%s %s" % (first, last), "Date of birth": "%02d/%02d/%d" % (
            rng.integers(1, 29), rng.integers(1, 13), rng.integers(1950, 2005)),
        "Street address": street, "City": city, "Postcode": code,
        "Telephone": text.phone(rng), "Email address": "%s.%s@example.com" % (first.lower(), last.lower()),
        "Occupation": text.pick(rng, text.JOB_TITLES),
        "Emergency contact": "%s %s" % text.person(rng), "Membership number": "M-%06d" % rng.integers(0, 10 ** 6),
    }
    box_h = cv.px(rng.uniform(8, 10))
    label_above = rng.random() < 0.5
    for section, fields in (("1. Personal details", ["Full name", "Date of birth", "Telephone",
                                                      "Email address"]),
                            ("2. Address", ["Street address", "City", "Postcode"]),
                            ("3. Other information", ["Occupation", "Emergency contact",
                                                      "Membership number"])):
        cv.text(left, y, section, label_b, ink)
        y += cv.pt(15)
        cv.hline(left, right, y, ink, line_w * 2)
        y += cv.px(3)
        for name in fields:
            if label_above:
                cv.text(left, y, name, label_f, ink)
                y += cv.pt(12)
                box = (left, y, right, y + box_h)
            else:
                cv.text(left, y + box_h * 0.25, name, label_f, ink)
                box = (left + cv.px(45), y, right, y + box_h)
            cv.rect(box, ink, line_w)
            if rng.random() < 0.85:
                filled(box[0] + cv.px(2.5), box[1] + box_h * 0.12, values[name])
            y = box[3] + cv.px(rng.uniform(3, 5))
        y += cv.px(4)

    cv.text(left, y, "Preferred contact:", label_f, ink)
    x = left + cv.px(45)
    chosen = int(rng.integers(3))
    for i, option in enumerate(("Email", "Telephone", "Post")):
        s = cv.px(4)
        cv.rect((x, y, x + s, y + s), ink, line_w)
        if i == chosen:
            cv.draw.line([(x, y), (x + s, y + s)], fill=pen, width=int(cv.px(0.5)))
            cv.draw.line([(x + s, y), (x, y + s)], fill=pen, width=int(cv.px(0.5)))
        cv.text(x + s + cv.px(2), y, option, label_f, ink)
        x += cv.px(35)
    y += cv.px(12)
    cv.text(left, y, "4. Declaration", label_b, ink)
    y += cv.pt(17)
    y = cv.paragraph(left, y, right - left, "I confirm that the information given on this form is "
                     "correct and complete. " + text.sentence(rng), label_f, ink, cv.pt(13))
    y += cv.px(12)
    cv.text(left, y, "Signature", label_f, ink)
    cv.hline(left + cv.px(22), left + cv.px(95), y + cv.pt(11), ink, line_w)
    _signature(cv, rng, left + cv.px(28), y + cv.pt(6), cv.px(55), cv.pt(7), pen)
    cv.text(left + cv.px(110), y, "Date", label_f, ink)
    cv.hline(left + cv.px(122), right, y + cv.pt(11), ink, line_w)
    filled(left + cv.px(125), y - cv.pt(3), text.date(rng))
    office = (left, cv.size[1] - cv.px(38), right, cv.size[1] - cv.px(16))
    if office[1] > y + cv.px(20):
        cv.rect(office, ink, line_w)
        cv.text(office[0] + cv.px(3), office[1] + cv.px(2.5), "For office use only", label_b, ink)
        cv.text(office[0] + cv.px(3), office[1] + cv.px(11), "Reference no.", label_f, ink)
        cv.text(office[0] + cv.px(90), office[1] + cv.px(11), "Received by", label_f, ink)
    return _single_page_doc("form", cv, rng)


def _signature(cv, rng, x, y, length, height, pen):
    """A handwritten-looking scribble: a looping stroke drifting to the right."""
    t = np.linspace(0, 1, 240)
    loops = rng.uniform(5, 9)
    xs = x + length * t + height * 0.35 * np.sin(2 * np.pi * loops * t + rng.uniform(0, 6))
    ys = y + height * (0.5 * np.sin(2 * np.pi * loops * t * rng.uniform(0.9, 1.1))
                       + 0.25 * np.sin(2 * np.pi * rng.uniform(1, 2) * t) - 0.3 * t)
    cv.draw.line(list(zip(xs.tolist(), ys.tolist())), fill=pen, width=max(1, int(cv.px(0.35))), joint="curve")


# ---------------------------------------------------------------- open book

def _book_page(rng, w_mm, h_mm, ppmm, paper, fam, body_pt, number, head, left_side):
    cv = Canvas(w_mm, h_mm, ppmm, paper)
    ink = (32, 30, 30)
    body = fam.font(cv.pt(body_pt))
    leading = cv.pt(body_pt) * rng.uniform(1.3, 1.45)
    inner, outer = cv.px(rng.uniform(16, 20)), cv.px(rng.uniform(13, 17))
    left = outer if left_side else inner
    width = cv.size[0] - inner - outer
    top = cv.px(rng.uniform(16, 19))
    cv.text(left + width / 2, top - cv.pt(14), head, fam.font(cv.pt(body_pt - 1.5), "italic"), ink,
            anchor="ma")
    y = top + cv.pt(6)
    if not left_side and rng.random() < 0.35:
        y += cv.px(35)
        cv.text(left + width / 2, y, "Chapter %d" % rng.integers(2, 15), fam.font(cv.pt(body_pt + 5)),
                ink, anchor="ma")
        y += cv.pt(body_pt + 5) * 2.2
    bottom = cv.size[1] - cv.px(rng.uniform(20, 24))
    indent = cv.px(5)
    while y + leading <= bottom:
        y = cv.paragraph(left, y, width, text.paragraph(rng, (3, 7)), body, ink, leading, True, indent,
                         bottom)
    foot = fam.font(cv.pt(body_pt - 1))
    nx = left if left_side else left + width
    cv.text(nx, cv.size[1] - cv.px(12), str(number), foot, ink, anchor="ls" if left_side else "rs")
    return cv


def render_spread(rng):
    """An open book: two pages side by side on a cover, a shaded gutter and,
    optionally, a mild bowing of the lines (< 1% of the page height)."""
    w_mm, h_mm = rng.uniform(120, 145), rng.uniform(185, 215)
    ppmm = rng.uniform(200, 260) / 25.4
    paper = _paper(rng, cream=rng.random() < 0.7)
    fam = fonts.choose(rng, "serif")
    body_pt = rng.uniform(10, 11.5)
    number = 2 * int(rng.integers(10, 150))
    title = text.pick(rng, text.BOOK_TITLES)
    pages = [_book_page(rng, w_mm, h_mm, ppmm, paper, fam, body_pt, number, title, True),
             _book_page(rng, w_mm, h_mm, ppmm, paper, fam, body_pt, number + 1,
                        text.pick(rng, text.HEADINGS), False)]
    images = [_finish(p, rng, grain=0.01) for p in pages]
    pw, ph = images[0].shape[1], images[0].shape[0]

    hard = rng.random() < 0.6
    cover_mm = rng.uniform(2.5, 4) if hard else 0.0
    block_mm = rng.uniform(1.0, 2.5)
    cover = tuple(int(v) for v in rng.choice([[120, 30, 35], [30, 45, 90], [35, 70, 50], [40, 38, 36]]))
    cm, bm = int(round(cover_mm * ppmm)), int(round(block_mm * ppmm))
    pad = int(round(0.012 * ph)) + 2      # transparent room for the bowing
    W = 2 * (cm + bm + pw)
    H = 2 * (cm + pad) + ph
    rgb = np.zeros((H, W, 3), np.float32)
    alpha = np.zeros((H, W), np.float32)
    y0 = pad + cm
    rgb[pad:H - pad] = cover
    alpha[pad:H - pad] = 1.0
    # the edges of the stacked pages show beside the outer edge of each page
    stripes = 1.0 - 0.08 * np.abs(rng.standard_normal(bm * 2 + 2)).astype(np.float32)
    block = (np.array(paper, np.float32) * 0.86)[None, None, :] * np.ones((ph, 1, 3), np.float32)
    rgb[y0:y0 + ph, cm:cm + bm] = block * stripes[None, :bm, None]
    rgb[y0:y0 + ph, W - cm - bm:W - cm] = block * stripes[None, bm:2 * bm, None]
    xl, xg = cm + bm, cm + bm + pw
    rgb[y0:y0 + ph, xl:xg] = images[0]
    rgb[y0:y0 + ph, xg:xg + pw] = images[1]
    # gutter shadow: pages curve down into the spine
    xs = np.arange(W, dtype=np.float32) + 0.5
    depth = rng.uniform(0.3, 0.55)
    width = ppmm * rng.uniform(5, 11)
    shade = 1.0 - depth * np.exp(-np.abs(xs - xg) / width) - 0.06 * np.exp(-np.abs(xs - xg) / (4 * width))
    rgb[y0:y0 + ph, xl:xg + pw] *= shade[None, xl:xg + pw, None]

    bow = rng.uniform(0.003, 0.008) * ph if rng.random() < 0.6 else 0.0
    if bow:
        s = np.clip(np.abs(xs - xg) / pw, 0, 1)
        lift = bow * np.sin(np.pi * s)          # zero at the gutter and at the outer edges
        ys = np.arange(H, dtype=np.float32) + 0.5
        t = (ys - (y0 + ph / 2)) / (ph / 2)
        map_x = np.broadcast_to(xs[None, :] - 0.5, (H, W)).astype(np.float32)
        map_y = (ys[:, None] - lift[None, :] * t[:, None] - 0.5).astype(np.float32)
        rgb = cv2.remap(rgb, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        alpha = cv2.remap(alpha, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)

    out_pages = []
    for i, cv in enumerate(pages):
        ox = xl if i == 0 else xg
        lines = [(s, (b[0] + ox, b[1] + y0, b[2] + ox, b[3] + y0)) for s, b in cv.lines]
        out_pages.append(Page((float(ox), float(y0), float(ox + pw), float(y0 + ph)), w_mm, h_mm, lines))
    doc = Doc("spread", np.clip(rgb, 0, 255).astype(np.uint8), alpha, ppmm, out_pages,
              thickness_mm=rng.uniform(8, 20), side_rgb=tuple(int(v * 0.8) for v in paper),
              gutter=((float(xg), float(y0)), (float(xg), float(y0 + ph))))
    doc.extras = {"curvature": round(float(bow / ph), 4), "cover": "hard" if hard else "soft"}
    return doc


RENDERERS = {
    "prose": render_prose,
    "receipt": render_receipt,
    "card": render_card,
    "form": render_form,
    "spread": render_spread,
}
