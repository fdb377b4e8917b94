"""Font families from the Debian font packages (dejavu, liberation, freefont,
urw-base35, noto), grouped into serif, sans and mono styles."""

import os

from PIL import ImageFont

TT = "/usr/share/fonts/truetype"
OT = "/usr/share/fonts/opentype/urw-base35"

# family name -> (regular, bold, italic) file paths
FAMILIES = {
    "serif": {
        "DejaVu Serif": (TT + "/dejavu/DejaVuSerif.ttf", TT + "/dejavu/DejaVuSerif-Bold.ttf",
                         TT + "/dejavu/DejaVuSerif-Italic.ttf"),
        "Liberation Serif": (TT + "/liberation/LiberationSerif-Regular.ttf",
                             TT + "/liberation/LiberationSerif-Bold.ttf",
                             TT + "/liberation/LiberationSerif-Italic.ttf"),
        "FreeSerif": (TT + "/freefont/FreeSerif.ttf", TT + "/freefont/FreeSerifBold.ttf",
                      TT + "/freefont/FreeSerifItalic.ttf"),
        "Noto Serif": (TT + "/noto/NotoSerif-Regular.ttf", TT + "/noto/NotoSerif-Bold.ttf",
                       TT + "/noto/NotoSerif-Italic.ttf"),
        "P052": (OT + "/P052-Roman.otf", OT + "/P052-Bold.otf", OT + "/P052-Italic.otf"),
        "C059": (OT + "/C059-Roman.otf", OT + "/C059-Bold.otf", OT + "/C059-Italic.otf"),
        "Nimbus Roman": (OT + "/NimbusRoman-Regular.otf", OT + "/NimbusRoman-Bold.otf",
                         OT + "/NimbusRoman-Italic.otf"),
    },
    "sans": {
        "DejaVu Sans": (TT + "/dejavu/DejaVuSans.ttf", TT + "/dejavu/DejaVuSans-Bold.ttf",
                        TT + "/dejavu/DejaVuSans-Oblique.ttf"),
        "Liberation Sans": (TT + "/liberation/LiberationSans-Regular.ttf",
                            TT + "/liberation/LiberationSans-Bold.ttf",
                            TT + "/liberation/LiberationSans-Italic.ttf"),
        "FreeSans": (TT + "/freefont/FreeSans.ttf", TT + "/freefont/FreeSansBold.ttf",
                     TT + "/freefont/FreeSansOblique.ttf"),
        "Noto Sans": (TT + "/noto/NotoSans-Regular.ttf", TT + "/noto/NotoSans-Bold.ttf",
                      TT + "/noto/NotoSans-Italic.ttf"),
        "Nimbus Sans": (OT + "/NimbusSans-Regular.otf", OT + "/NimbusSans-Bold.otf",
                        OT + "/NimbusSans-Italic.otf"),
        "URW Gothic": (OT + "/URWGothic-Book.otf", OT + "/URWGothic-Demi.otf",
                       OT + "/URWGothic-BookOblique.otf"),
    },
    "mono": {
        "DejaVu Sans Mono": (TT + "/dejavu/DejaVuSansMono.ttf", TT + "/dejavu/DejaVuSansMono-Bold.ttf",
                             TT + "/dejavu/DejaVuSansMono-Oblique.ttf"),
        "Liberation Mono": (TT + "/liberation/LiberationMono-Regular.ttf",
                            TT + "/liberation/LiberationMono-Bold.ttf",
                            TT + "/liberation/LiberationMono-Italic.ttf"),
        "FreeMono": (TT + "/freefont/FreeMono.ttf", TT + "/freefont/FreeMonoBold.ttf",
                     TT + "/freefont/FreeMonoOblique.ttf"),
        "Nimbus Mono": (OT + "/NimbusMonoPS-Regular.otf", OT + "/NimbusMonoPS-Bold.otf",
                        OT + "/NimbusMonoPS-Italic.otf"),
    },
}

STYLE_INDEX = {"regular": 0, "bold": 1, "italic": 2}


class Family:
    """One font family; `font(px, style)` loads a face at a pixel size."""

    def __init__(self, style, name):
        self.style = style
        self.name = name
        self.paths = FAMILIES[style][name]

    def font(self, px, style="regular"):
        return ImageFont.truetype(self.paths[STYLE_INDEX[style]], max(6, int(round(px))))


def available(style):
    """Names of the families of `style` whose files are all installed."""
    return sorted(n for n, p in FAMILIES[style].items() if all(os.path.exists(f) for f in p))


def choose(rng, style):
    """A random installed family of `style` ('serif', 'sans' or 'mono')."""
    names = available(style)
    if not names:
        raise RuntimeError("no %s fonts found; install the font packages listed in the README" % style)
    return Family(style, names[int(rng.integers(len(names)))])
