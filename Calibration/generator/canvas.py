"""A PIL drawing surface that records every text line it draws with its box,
so that a rendered page carries its own exact text ground truth."""

from PIL import Image, ImageDraw


class Canvas:
    """An RGB page of `width_mm` x `height_mm` rendered at `ppmm` pixels per mm."""

    def __init__(self, width_mm, height_mm, ppmm, paper):
        self.ppmm = ppmm
        self.width_mm = width_mm
        self.height_mm = height_mm
        self.size = (int(round(width_mm * ppmm)), int(round(height_mm * ppmm)))
        self.image = Image.new("RGB", self.size, paper)
        self.draw = ImageDraw.Draw(self.image)
        self.lines = []  # (text, (x0, y0, x1, y1)) in page pixels, in reading order

    def px(self, mm):
        """Millimetres to pixels on this page."""
        return mm * self.ppmm

    def pt(self, points):
        """Typographic points (1/72 inch) to pixels on this page."""
        return points * self.ppmm * 25.4 / 72.0

    def text(self, x, y, s, font, fill, anchor="la", record=True):
        """Draw one line of text with its top-left (or `anchor`) at (x, y); returns its box."""
        box = self.draw.textbbox((x, y), s, font=font, anchor=anchor)
        self.draw.text((x, y), s, font=font, fill=fill, anchor=anchor)
        if record and s.strip():
            self.lines.append((s, box))
        return box

    def words_line(self, x, y, words, font, fill, width=None):
        """Draw words on one line; if `width` is given, justify them to fill it."""
        space = font.getlength(" ")
        if width is not None and len(words) > 1:
            natural = sum(font.getlength(w) for w in words)
            space = (width - natural) / (len(words) - 1)
        boxes = []
        cursor = x
        for word in words:
            boxes.append(self.draw.textbbox((cursor, y), word, font=font))
            self.draw.text((cursor, y), word, font=font, fill=fill)
            cursor += font.getlength(word) + space
        box = (min(b[0] for b in boxes), min(b[1] for b in boxes),
               max(b[2] for b in boxes), max(b[3] for b in boxes))
        self.lines.append((" ".join(words), box))
        return box

    def paragraph(self, x, y, width, text, font, fill, leading, justify=False, indent=0.0,
                  bottom=None):
        """Wrap `text` into `width` pixels starting at (x, y).

        Lines are `leading` pixels apart, the first one indented by `indent`.
        Stops before passing `bottom`. Returns the y of the next line.
        """
        lines = wrap(text, font, width, indent)
        for i, words in enumerate(lines):
            if bottom is not None and y + leading > bottom:
                break
            offset = indent if i == 0 else 0.0
            last = i == len(lines) - 1
            self.words_line(x + offset, y, words, font, fill,
                            width=(width - offset) if justify and not last else None)
            y += leading
        return y

    def rect(self, box, outline, width=1, fill=None):
        """Draw a rectangle (pixel box) outline."""
        self.draw.rectangle([int(round(v)) for v in box], outline=outline, fill=fill,
                            width=max(1, int(round(width))))

    def hline(self, x0, x1, y, fill, width=1):
        """Draw a horizontal rule."""
        self.draw.line([(x0, y), (x1, y)], fill=fill, width=max(1, int(round(width))))


def wrap(text, font, width, indent=0.0):
    """Greedy word wrap: a list of word lists, each fitting `width` pixels."""
    lines, current = [], []
    limit = width - indent
    for word in text.split():
        trial = " ".join(current + [word])
        if current and font.getlength(trial) > limit:
            lines.append(current)
            current = [word]
            limit = width
        else:
            current.append(word)
    if current:
        lines.append(current)
    return lines
