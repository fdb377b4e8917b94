#!/usr/bin/env python3
"""RapidOCR as a DocScan plugin (protocol 1, see Plugins/README.md).

RapidOCR runs PaddleOCR's PP-OCRv4 detection and recognition models (Chinese and Latin script) on ONNX Runtime. It
finds text lines, reads each one, and with return_word_box gives a box and a score per character. This plugin
turns that into lines, words (split at spaces) and glyphs:

- a line's confidence is RapidOCR's line score (the mean of its character scores);
- a word's confidence is the lowest score among its characters, since a word is right only when each of them is;
- a glyph's confidence is its character's score.

When a line's character boxes do not match its characters one to one, its words get the line's box and no glyphs.
"""
import json
import sys

# The protocol owns stdout: anything the engine prints goes to stderr instead.
protocol_out = sys.stdout
sys.stdout = sys.stderr

from rapidocr_onnxruntime import RapidOCR  # noqa: E402


def bounding_box(points):
    xs = [float(p[0]) for p in points]
    ys = [float(p[1]) for p in points]
    return [min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)]


def clamp_box(box, width, height):
    x, y, w, h = box
    x0, y0 = max(0.0, min(x, width)), max(0.0, min(y, height))
    x1, y1 = max(0.0, min(x + w, width)), max(0.0, min(y + h, height))
    return [x0, y0, x1 - x0, y1 - y0]


def union(boxes):
    x0 = min(b[0] for b in boxes)
    y0 = min(b[1] for b in boxes)
    x1 = max(b[0] + b[2] for b in boxes)
    y1 = max(b[1] + b[3] for b in boxes)
    return [x0, y0, x1 - x0, y1 - y0]


def score(value):
    return min(1.0, max(0.0, float(value)))


def line_from(entry, width, height):
    quad, text, line_score = entry[0], entry[1], entry[2]
    line_box = clamp_box(bounding_box(quad), width, height)
    char_boxes = entry[3] if len(entry) > 3 else None
    chars = entry[4] if len(entry) > 4 else None
    char_scores = entry[5] if len(entry) > 5 else None
    words = []
    if char_boxes and chars and char_scores and len(char_boxes) == len(chars) == len(char_scores):
        current = []
        for box, char, char_score in zip(char_boxes, chars, char_scores):
            if char == " ":
                if current:
                    words.append(current)
                current = []
                continue
            current.append({"text": char, "confidence": score(char_score),
                            "box": clamp_box(bounding_box(box), width, height)})
        if current:
            words.append(current)
        words = [{"text": "".join(g["text"] for g in glyphs),
                  "confidence": min(g["confidence"] for g in glyphs),
                  "box": union([g["box"] for g in glyphs]),
                  "glyphs": glyphs} for glyphs in words]
    else:
        words = [{"text": word, "box": line_box} for word in text.split()]
    return {"text": " ".join(w["text"] for w in words) if words else text, "confidence": score(line_score),
            "box": line_box, "words": words}


def main():
    engine = None
    for raw in sys.stdin:
        if not raw.strip():
            continue
        message = json.loads(raw)
        kind = message.get("type")
        if kind == "hello":
            engine = RapidOCR()  # loads the three models
            reply = {"type": "hello", "protocol": 1, "name": "RapidOCR", "version": "1.4.4"}
        elif kind == "recognize":
            image = message["image"]
            try:
                result, _ = engine(image["path"], return_word_box=True)
                lines = [line_from(entry, image["width"], image["height"]) for entry in (result or [])]
                reply = {"type": "result", "id": message["id"], "page": {"lines": lines}}
            except Exception as error:  # the page fails, the plugin goes on
                reply = {"type": "error", "id": message["id"], "message": f"{type(error).__name__}: {error}"}
        else:
            continue
        protocol_out.write(json.dumps(reply) + "\n")
        protocol_out.flush()


if __name__ == "__main__":
    main()
