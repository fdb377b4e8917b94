#!/usr/bin/env python3
"""Photos of labels printed with codes, serial numbers and digits: the constrained text the glyph classifier is for.

Each photo is a white label on a darker table, slightly turned, blurred and noisy, with three lines: a serial number
(capitals and digits, with the look-alikes 0/O, 1/I, 5/S, 8/B), a lot number of digits and separators, and a reference
code. The fonts are ones train.py does not train on (Noto), so the test is on faces the classifier has never
seen. A NAME.truth.json beside each photo holds its text, so `docscan compare DIR --recognizers ...` scores them.

Usage: /usr/bin/python3 Plugins/glyphs/make_codes.py --out /tmp/codes [--count 40] [--seed 1]
"""
import argparse
import json
import os
import random

from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONTS = ["noto/NotoSans-Regular.ttf", "noto/NotoSans-Bold.ttf", "noto/NotoMono-Regular.ttf",
         "noto/NotoSerif-Regular.ttf", "noto/NotoSansMono-Bold.ttf"]
CODE = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZOI"


def code(groups, length, alphabet):
    return "-".join("".join(random.choice(alphabet) for _ in range(length)) for _ in range(groups))


def photo(font_path, size):
    lines = [
        "SN " + code(3, 4, CODE),
        "LOT " + "".join(random.choice("0123456789") for _ in range(8)) + "/" + "".join(random.choice("0123456789") for _ in range(4)),
        "REF #" + code(2, 4, CODE + "58BS01OI"),
    ]
    font = ImageFont.truetype(font_path, size)
    label_w, label_h = int(size * 15), int(size * 5.2)
    label = Image.new("L", (label_w, label_h), 248)
    draw = ImageDraw.Draw(label)
    for n, line in enumerate(lines):
        draw.text((int(size * 0.8), int(size * (0.6 + 1.45 * n))), line, font=font, fill=random.randint(10, 50))
    label = label.rotate(random.uniform(-1.5, 1.5), resample=Image.BICUBIC, expand=True, fillcolor=0)
    mask = Image.new("L", label.size, 0)
    mask.paste(255, (0, 0, label.size[0], label.size[1]))
    canvas = Image.new("L", (label.size[0] + 2 * size * 2, label.size[1] + 2 * size * 2), random.randint(60, 110))
    inner = label.rotate(0)
    canvas.paste(inner, (size * 2, size * 2), label.point(lambda v: 255 if v > 0 else 0))
    canvas = canvas.filter(ImageFilter.GaussianBlur(random.uniform(0.4, 1.2)))
    noise = Image.effect_noise(canvas.size, random.uniform(4, 10))
    canvas = Image.blend(canvas, noise.point(lambda v: v), 0.06)
    return canvas.convert("RGB"), "\n".join(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fonts", default="/usr/share/fonts/truetype")
    args = parser.parse_args()
    random.seed(args.seed)
    os.makedirs(args.out, exist_ok=True)
    fonts = [os.path.join(args.fonts, f) for f in FONTS if os.path.exists(os.path.join(args.fonts, f))]
    for n in range(args.count):
        font = fonts[n % len(fonts)]
        image, text = photo(font, random.choice([28, 36, 44]))
        name = f"code-{n + 1:02d}"
        image.save(os.path.join(args.out, name + ".jpg"), quality=88)
        truth = {"source": name + ".jpg", "kind": "code", "font": os.path.basename(font), "pages": [{"text": text}]}
        with open(os.path.join(args.out, name + ".truth.json"), "w") as out:
            json.dump(truth, out, indent=1)
    print(f"{args.count} photos in {args.out}, fonts: {', '.join(os.path.basename(f) for f in fonts)}")


if __name__ == "__main__":
    main()
