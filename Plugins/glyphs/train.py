#!/usr/bin/env python3
"""Renders the training glyphs of the `glyphs` recognizer into model.json.

The recognizer is a k-nearest-neighbour classifier: training it is keeping examples. This script draws every character
of the alphabet in each training font, at several sizes and slight slants, binarizes it the way a scanned page is, crops
it to its ink and writes the crop as bits. The Swift side (Plugins/glyphs/Sources/GlyphRecognizer) turns each crop into
its feature vector when it loads the model, with the same code it uses on pages, so training and reading cannot drift
apart.

Usage: /usr/bin/python3 Plugins/glyphs/train.py [--out Plugins/glyphs/model.json]
Needs Pillow and the Debian fonts fonts-dejavu-core, fonts-liberation and fonts-freefont-ttf. Fonts outside this list
(Noto) are left for testing: see make_codes.py.
"""
import argparse
import base64
import json
import os
import random

from PIL import Image, ImageDraw, ImageFilter, ImageFont

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-/.:#"
FONTS = [
    "dejavu/DejaVuSans.ttf", "dejavu/DejaVuSans-Bold.ttf", "dejavu/DejaVuSansMono.ttf", "dejavu/DejaVuSerif.ttf",
    "liberation/LiberationSans-Regular.ttf", "liberation/LiberationSans-Bold.ttf", "liberation/LiberationMono-Regular.ttf",
    "liberation/LiberationSerif-Regular.ttf", "liberation/LiberationSansNarrow-Regular.ttf",
    "freefont/FreeSans.ttf", "freefont/FreeMono.ttf", "freefont/FreeSerif.ttf", "freefont/FreeSansBold.ttf",
]
SIZES = [22, 30, 40]
SLANTS = [-2.0, 0.0, 2.0]
SAMPLE_FIELDS = ["char", "width", "height", "size", "rise", "bits"]


def crop(char, font, slant, blur):
    """The glyph's ink as bits, with its height and the height of its bottom above the baseline, both in units of the
    font's capital height (what the recognizer measures on a line of capitals and digits)."""
    size = font.size * 3
    image = Image.new("L", (size, size), 255)
    origin = (size // 3, size // 4)
    ImageDraw.Draw(image).text(origin, char, font=font, fill=0)
    ascent, _ = font.getmetrics()
    baseline = origin[1] + ascent
    cap = font.getbbox("H")
    cap_height = cap[3] - cap[1]
    image = image.rotate(slant, resample=Image.BICUBIC, fillcolor=255)
    if blur:
        image = image.filter(ImageFilter.GaussianBlur(blur))
    ink = image.point(lambda v: 255 if v < 128 else 0)  # ink is white for getbbox
    box = ink.getbbox()
    if box is None:
        return None
    ink = ink.crop(box)
    width, height = ink.size
    bits = "".join("1" if v else "0" for v in ink.getdata())
    # Rows run on, eight pixels to a byte (the first in the highest bit, zeros after the last), in base64.
    bits += "0" * (-len(bits) % 8)
    packed = base64.b64encode(int(bits, 2).to_bytes(len(bits) // 8, "big")).decode()
    # As SAMPLE_FIELDS names them; whole ratios written without a fraction (1, not 1.0), which keeps the model small.
    size, rise = round(height / cap_height, 3), round((baseline - box[3]) / cap_height, 3)
    return [char, width, height, whole_or_not(size), whole_or_not(rise), packed]


def whole_or_not(number):
    """`number` as an int when it is whole."""
    return int(number) if number == int(number) else number


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "model.json"))
    parser.add_argument("--fonts", default="/usr/share/fonts/truetype")
    args = parser.parse_args()
    random.seed(7)
    samples, fonts = [], []
    for name in FONTS:
        path = os.path.join(args.fonts, name)
        if not os.path.exists(path):
            print(f"train.py: {path} is missing; skipped")
            continue
        fonts.append(name)
        for size in SIZES:
            font = ImageFont.truetype(path, size)
            for slant in SLANTS:
                blur = random.choice([0, 0.6, 1.0])
                for char in ALPHABET:
                    sample = crop(char, font, slant, blur)
                    if sample:
                        samples.append(sample)
    model = {"alphabet": ALPHABET, "fonts": fonts, "sizes": SIZES, "slants": SLANTS, "sample_fields": SAMPLE_FIELDS,
             "samples": samples}
    with open(args.out, "w") as out:
        json.dump(model, out, separators=(",", ":"))
    print(f"{len(samples)} glyphs from {len(fonts)} fonts written to {args.out} ({os.path.getsize(args.out) // 1024} KB)")


if __name__ == "__main__":
    main()
