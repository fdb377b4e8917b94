// Text direction, skew, book gutters, book covers and text presence, found from the ink of a flat page.
//
// Direction and skew: the ink pixels are projected across the text lines at every candidate angle; the projection is
// sharpest (most concentrated) when it runs exactly across the lines. Trying both the horizontal and the vertical family
// of angles tells whether the lines run across or down the image. Upright against upside down: in Latin, Greek and
// Cyrillic text, capitals, digits and ascenders put more ink above the x-height band than descenders put below it, and
// letters' bottom edges line up on the baseline while their tops split between two heights (see letterShapeEvidence),
// judged on each quarter of the page at its own angle (see uprightEvidence).
#include "Support.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

using docscan::fail;
using docscan::guarded;

namespace {

/// `mask` with only the 8-connected components that `choose(stats, count)` keeps (a flag per label; the background,
/// label 0, stays background whatever its flag), or `mask` itself when it keeps them all.
template <typename Choose>
cv::Mat keptComponents(const cv::Mat &mask, Choose choose) {
    cv::Mat labels, stats, centroids;
    const int count = cv::connectedComponentsWithStats(mask, labels, stats, centroids, 8, CV_32S);
    std::vector<uchar> keep = choose(stats, count);
    if (std::all_of(keep.begin() + 1, keep.end(), [](uchar k) { return k != 0; })) return mask;
    keep[0] = 0;
    cv::Mat kept(mask.size(), CV_8U);
    for (int y = 0; y < kept.rows; ++y) {
        const int *label = labels.ptr<int>(y);
        uchar *row = kept.ptr<uchar>(y);
        for (int x = 0; x < kept.cols; ++x) row[x] = keep[label[x]] ? 255 : 0;
    }
    return kept;
}

/// `mask` without pictures and large blocks (components over `largest` pixels in both directions) and specks (under 3
/// pixels); long thin shapes stay, since blur and small print merge words into them.
cv::Mat withoutBlocksAndSpecks(const cv::Mat &mask, int largest) {
    return keptComponents(mask, [&](const cv::Mat &stats, int count) {
        std::vector<uchar> keep(count, 0);
        for (int i = 1; i < count; ++i) {
            const int w = stats.at<int>(i, cv::CC_STAT_WIDTH), h = stats.at<int>(i, cv::CC_STAT_HEIGHT);
            keep[i] = stats.at<int>(i, cv::CC_STAT_AREA) >= 3 && (w < largest || h < largest);
        }
        return keep;
    });
}

/// A page's ink (see ``inkMask``), and the same thresholded at `faintest` (of the paper's 255) where Otsu's threshold
/// is lower: pixels that dark count as ink too. The second is the first when `faintest` adds nothing.
struct Ink {
    cv::Mat mask, faint;
};

/// Ink of a page as binary masks at about 1000 pixels: the page is divided by its paper brightness and thresholded
/// with Otsu's method (a fixed threshold loses faint and blurred strokes, thin ascenders first), and at `faintest`
/// (see ``Ink``). A margin of 1/30 of each side is cleared, where a sliver of background or the page edge may remain.
/// Pictures, large blocks and specks are dropped (see ``withoutBlocksAndSpecks``).
Ink inkMasks(const cv::Mat &page, double faintest) {
    cv::Mat small;
    docscan::downscale(docscan::gray(page), ds_analysis_size(page.cols, page.rows), small);
    const int kernel = std::max(9, (std::max(small.cols, small.rows) / 60) | 1);
    cv::Mat background;
    cv::morphologyEx(small, background, cv::MORPH_CLOSE,
                     cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(kernel, kernel)));
    cv::Mat flat;
    cv::divide(small, cv::max(background, 1), flat, 255.0);
    const int mx = small.cols / 30, my = small.rows / 30;
    const cv::Rect interior(mx, my, small.cols - 2 * mx, small.rows - 2 * my);
    const cv::Mat none = cv::Mat::zeros(small.size(), CV_8U);
    if (interior.width < 8 || interior.height < 8) return {none, none};
    cv::Mat inside;
    const double level = cv::threshold(flat(interior), inside, 0, 255, cv::THRESH_BINARY_INV | cv::THRESH_OTSU);
    // A blank page has no ink: Otsu then splits paper noise, which stays close to white.
    if (level > 235) return {none, none};
    const int largest = std::max(small.cols, small.rows) / 10;
    const auto kept = [&](const cv::Mat &thresholded) {
        cv::Mat ink = none.clone();
        thresholded.copyTo(ink(interior));
        return withoutBlocksAndSpecks(ink, largest);
    };
    Ink ink;
    ink.mask = kept(inside);
    if (faintest > level) {
        cv::threshold(flat(interior), inside, faintest, 255, cv::THRESH_BINARY_INV);
        ink.faint = kept(inside);
    } else {
        ink.faint = ink.mask;
    }
    return ink;
}

/// Ink of a page as a binary mask at about 1000 pixels, thresholded with Otsu's method (see ``inkMasks``).
cv::Mat inkMask(const cv::Mat &page) { return inkMasks(page, 0).mask; }

std::vector<cv::Point2f> inkPoints(const cv::Mat &ink, size_t limit) {
    std::vector<cv::Point> all;
    cv::findNonZero(ink, all);
    std::vector<cv::Point2f> points;
    const size_t stride = std::max<size_t>(1, all.size() / limit);
    for (size_t i = 0; i < all.size(); i += stride) points.emplace_back(all[i]);
    return points;
}

/// Projection of the points onto the direction (−sin a, cos a) (rows of text at angle a), one bin per pixel.
std::vector<double> project(const std::vector<cv::Point2f> &points, double radians, double &origin) {
    const double s = std::sin(radians), c = std::cos(radians);
    double low = 1e300, high = -1e300;
    for (const auto &p : points) {
        const double v = -p.x * s + p.y * c;
        low = std::min(low, v), high = std::max(high, v);
    }
    std::vector<double> bins(static_cast<size_t>(high - low) + 2, 0);
    for (const auto &p : points) bins[static_cast<size_t>(-p.x * s + p.y * c - low)] += 1;
    origin = low;
    return bins;
}

/// How concentrated a projection is: 1 for evenly spread ink, much more when it falls into separate lines.
double sharpness(const std::vector<double> &bins, size_t count) {
    double squares = 0;
    for (double b : bins) squares += b * b;
    return squares * bins.size() / (static_cast<double>(count) * count);
}

struct Direction {
    double radians;
    double score;
};

/// `sharpness(project(points, radians, _), points.size())`, the same value in less time: each point is projected once,
/// and the projection counted in integers. `values` and `counts` are scratch space, kept by the caller across the
/// angles of a sweep.
double sharpnessAt(const std::vector<cv::Point2f> &points, double radians, std::vector<double> &values,
                   std::vector<uint32_t> &counts) {
    const double s = std::sin(radians), c = std::cos(radians);
    values.resize(points.size());
    double low = 1e300, high = -1e300;
    for (size_t i = 0; i < points.size(); ++i) {
        const double v = -points[i].x * s + points[i].y * c;
        values[i] = v;
        low = std::min(low, v), high = std::max(high, v);
    }
    counts.assign(static_cast<size_t>(high - low) + 2, 0);
    for (const double v : values) ++counts[static_cast<size_t>(v - low)];
    double squares = 0;
    for (const uint32_t count : counts) squares += static_cast<double>(count) * count;
    return squares * counts.size() / (static_cast<double>(points.size()) * points.size());
}

/// The sharpest of the angles `centre` ± `span` degrees, in steps of `step` degrees, starting from `best`.
Direction sweep(const std::vector<cv::Point2f> &points, double centre, double span, double step, Direction best) {
    std::vector<double> values;
    std::vector<uint32_t> counts;
    for (double degrees = -span; degrees <= span + 1e-3; degrees += step) {
        const double radians = centre + degrees * CV_PI / 180;
        const double score = sharpnessAt(points, radians, values, counts);
        if (score > best.score) best = {radians, score};
    }
    return best;
}

/// The angle within 12° of `centre` across which `points` project most sharply: whole degrees, then tenths.
Direction bestAngle(const std::vector<cv::Point2f> &points, double centre) {
    const Direction coarse = sweep(points, centre, 12, 1, {centre, -1});
    return sweep(points, coarse.radians, 1, 0.1, coarse);
}

/// Ink above the x-height band and ink below it, summed over the text lines of a projection (rows top to bottom).
void ascenderBalance(const std::vector<double> &bins, double &above, double &below) {
    above = below = 0;
    std::vector<double> smooth(bins.size(), 0);
    for (size_t i = 0; i < bins.size(); ++i) {
        double sum = 0;
        int n = 0;
        for (long j = static_cast<long>(i) - 1; j <= static_cast<long>(i) + 1; ++j) {
            if (j >= 0 && j < static_cast<long>(bins.size())) sum += bins[j], ++n;
        }
        smooth[i] = sum / n;
    }
    const double peak = *std::max_element(smooth.begin(), smooth.end());
    if (peak <= 0) return;
    size_t i = 0;
    while (i < smooth.size()) {
        if (smooth[i] <= 0.04 * peak) {
            ++i;
            continue;
        }
        size_t end = i;
        double bandPeak = 0;
        while (end < smooth.size() && smooth[end] > 0.04 * peak) bandPeak = std::max(bandPeak, smooth[end++]);
        // The x-height core: the rows of the band where the ink is dense.
        size_t coreStart = i, coreEnd = end - 1;
        while (coreStart < end && smooth[coreStart] < 0.5 * bandPeak) ++coreStart;
        while (coreEnd > coreStart && smooth[coreEnd] < 0.5 * bandPeak) --coreEnd;
        if (end - i >= 4) {
            for (size_t k = i; k < coreStart; ++k) above += bins[k];
            for (size_t k = coreEnd + 1; k < end; ++k) below += bins[k];
        }
        i = end;
    }
}

/// The bands of a projection across text lines (rows top to bottom) where ink rises above 4% of its peak, as ranges of
/// bins, at least `shortest` bins tall.
std::vector<std::pair<size_t, size_t>> inkBands(const std::vector<double> &bins, size_t shortest) {
    std::vector<std::pair<size_t, size_t>> bands;
    if (bins.empty()) return bands;
    const double peak = *std::max_element(bins.begin(), bins.end());
    for (size_t i = 0; i < bins.size();) {
        if (bins[i] <= 0.04 * peak) {
            ++i;
            continue;
        }
        size_t end = i;
        while (end < bins.size() && bins[end] > 0.04 * peak) ++end;
        if (end - i >= shortest) bands.emplace_back(i, end);
        i = end;
    }
    return bands;
}

/// The median height of `bands`.
double medianHeight(const std::vector<std::pair<size_t, size_t>> &bands) {
    std::vector<size_t> heights;
    for (const auto &[from, to] : bands) heights.push_back(to - from);
    std::nth_element(heights.begin(), heights.begin() + heights.size() / 2, heights.end());
    return static_cast<double>(heights[heights.size() / 2]);
}

/// Where a barcode printed across a till receipt lies.
struct Barcode {
    /// Its centre, as a fraction of the ink's extent from top (0) to bottom (1).
    double centre;
    /// Its extent, in the same fractions.
    double from, to;
    /// How many bars it has.
    int bars;
};

/// Where the tallest line of text sits, from +1 (at the top) to −1 (at the bottom), or 0 when no line stands out
/// (taller than 1.3 times the median line, and not more than three times: that would be a picture or a barcode). A
/// line whose centre lies within `barcode` is not counted.
double headingPosition(const std::vector<double> &bins, const std::optional<Barcode> &barcode) {
    const auto lines = inkBands(bins, 3);
    if (lines.size() < 3) return 0;
    const double median = medianHeight(lines);
    size_t tallest = 0;
    double centre = 0;
    for (const auto &[from, to] : lines) {
        const size_t height = to - from;
        const double middle = 0.5 * (from + to);
        if (barcode && middle >= barcode->from * bins.size() && middle <= barcode->to * bins.size()) continue;
        if (height <= 3 * median && height > tallest) tallest = height, centre = middle;
    }
    if (tallest < 1.3 * median) return 0;
    return 1 - 2 * centre / bins.size();
}

/// A barcode printed across a till receipt: a band of `ink` across the text lines (at `radians`, nearly horizontal) at
/// least 2.5 times as tall as the median line, made of at least eight upright bars (columns inked over 70% of its
/// height, with clear gaps between them) that span a quarter of the print's width or more, and few columns inked only
/// partly (a line of large bold print has nearly as many as full ones: the strokes of its letters). Of several, the
/// one with the most bars, and of as many, the one nearest an end: blurred, a bold heading's stems pass for bars, but
/// only one a letter (seed 247000 multi-03, a shaken receipt's shop name at the top: 8 bars against its barcode's 16).
std::optional<Barcode> findBarcode(const cv::Mat &ink, double radians) {
    const auto all = inkPoints(ink, std::numeric_limits<size_t>::max());
    if (all.size() < 300) return std::nullopt;
    double lowV;
    const auto rows = project(all, radians, lowV);
    const double s = std::sin(radians), c = std::cos(radians);
    double lowU = 1e300, highU = -1e300;
    for (const auto &p : all) lowU = std::min(lowU, p.x * c + p.y * s), highU = std::max(highU, p.x * c + p.y * s);
    const auto bands = inkBands(rows, 3);
    if (bands.size() < 3) return std::nullopt;
    const double median = medianHeight(bands);
    std::optional<Barcode> found;
    for (const auto &[from, to] : bands) {
        const double height = static_cast<double>(to - from);
        if (height < 2.5 * median || height < 8) continue;
        std::vector<double> columns(static_cast<size_t>(highU - lowU) + 2, 0);
        for (const auto &p : all) {
            const double v = -p.x * s + p.y * c - lowV;
            if (v >= from && v < to) columns[static_cast<size_t>(p.x * c + p.y * s - lowU)] += 1;
        }
        // Bars: runs of columns inked over 70% of the band's height, each ended by a gap under 20% of it.
        int bars = 0;
        bool inBar = false, gapSince = true;
        long first = -1, last = -1;
        for (size_t i = 0; i < columns.size(); ++i) {
            if (columns[i] >= 0.7 * height) {
                if (!inBar && gapSince) ++bars, gapSince = false;
                inBar = true;
                if (first < 0) first = static_cast<long>(i);
                last = static_cast<long>(i);
            } else {
                inBar = false;
                if (columns[i] <= 0.2 * height) gapSince = true;
            }
        }
        if (bars < 8 || last - first < 0.25 * (highU - lowU)) continue;
        int full = 0, partial = 0;
        for (long i = first; i <= last; ++i) {
            if (columns[i] >= 0.7 * height) {
                ++full;
            } else if (columns[i] > 0.25 * height) {
                ++partial;
            }
        }
        if (partial > 0.4 * full) continue;
        const double extent = static_cast<double>(rows.size());
        const Barcode barcode{0.5 * (from + to) / extent, from / extent, to / extent, bars};
        if (!found || bars > found->bars ||
            (bars == found->bars && std::abs(barcode.centre - 0.5) > std::abs(found->centre - 0.5)))
            found = barcode;
    }
    return found;
}

/// The ink pixels whose neighbour below is paper (bottom edges), or above (top edges), as a mask.
cv::Mat horizontalEdges(const cv::Mat &ink, bool bottom) {
    cv::Mat neighbour = cv::Mat::zeros(ink.size(), CV_8U);
    const cv::Rect from(0, bottom ? 1 : 0, ink.cols, ink.rows - 1), to(0, bottom ? 0 : 1, ink.cols, ink.rows - 1);
    ink(from).copyTo(neighbour(to));
    return ink & ~neighbour;
}

/// Ink with its letters' bottom and top edges (see ``horizontalEdges``), found on the whole page: a piece cut from it
/// keeps them, where finding them on the piece would make edges of the ink along its cut.
struct LetterEdges {
    cv::Mat ink, bottoms, tops;

    explicit LetterEdges(const cv::Mat &page) : ink(page), bottoms(horizontalEdges(page, true)), tops(horizontalEdges(page, false)) {}
    LetterEdges(const LetterEdges &page, const cv::Rect &piece) : ink(page.ink(piece)), bottoms(page.bottoms(piece)), tops(page.tops(piece)) {}
};

/// `ink` without marks more than twice as tall as the tallest tenth of its marks (of those of 10 pixels or more): a
/// logo's letters beside a card's name, or the frames of a form's boxes, would merge the lines beside them into one
/// band.
cv::Mat textSizedMarks(const cv::Mat &ink) {
    return keptComponents(ink, [](const cv::Mat &stats, int count) {
        std::vector<uchar> keep(count, 1);
        std::vector<int> heights;
        for (int i = 1; i < count; ++i) {
            if (stats.at<int>(i, cv::CC_STAT_AREA) >= 10) heights.push_back(stats.at<int>(i, cv::CC_STAT_HEIGHT));
        }
        if (heights.size() < 10) return keep;
        const size_t rank = heights.size() * 9 / 10;
        std::nth_element(heights.begin(), heights.begin() + rank, heights.end());
        const int tallest = 2 * heights[rank];
        for (int i = 1; i < count; ++i) keep[i] = stats.at<int>(i, cv::CC_STAT_HEIGHT) <= tallest;
        return keep;
    });
}

/// Log-evidence from the shapes of letters that text whose lines run at `radians` (nearly horizontal) in `letters` is
/// upright rather than upside down, or nothing when there is too little ink or none above the line cores. Two cues add
/// up: capitals, digits and ascenders put more ink above the x-height band than descenders put below it; and letters'
/// bottom edges line up on the baseline, while their top edges split between the x-height and the ascender line, so
/// bottom edges project more sharply. (In a piece cut from a page, the lines its cut crosses lose their ascenders or
/// descenders; leaving its first and last lines out turned more forms wrong than it righted.)
std::optional<double> letterShapeEvidence(const LetterEdges &letters, double radians) {
    const auto points = inkPoints(letters.ink, 30000);
    const auto bottoms = inkPoints(letters.bottoms, 30000), tops = inkPoints(letters.tops, 30000);
    if (points.size() < 300 || bottoms.size() < 100 || tops.size() < 100) return std::nullopt;
    double origin;
    double above, below;
    ascenderBalance(project(points, radians, origin), above, below);
    // No ink at all on one side of the line cores, and little on the other: capitals and digits only (labels, codes),
    // whose shapes do not tell up from down (a Q's tail, a comma or a slash below the baseline reads as descenders),
    // so neither cue is trusted, whichever way up the print lies: upside down, those few marks lie above the cores
    // and would read as ascenders (seed 245000 multi-01, a receipt upside down: 0.8% of its ink above the cores,
    // none below, taken as upright). Text with lower case has ink on both sides, or a clear share of it (3%) on
    // one: ascenders and capitals without a descender among them.
    const double least = 0.002 * static_cast<double>(points.size()), oneSided = 0.03 * static_cast<double>(points.size());
    if (std::min(above, below) < least && std::max(above, below) < oneSided) return std::nullopt;
    // A handful of pixels beyond the cores is noise, not ascenders: the cue counts in full from 1% of the ink.
    const double mass = std::log((above + 1) / (below + 1)) * std::min(1.0, (above + below) / (0.01 * points.size()));
    const double edges = std::log(sharpness(project(bottoms, radians, origin), bottoms.size()) /
                                  sharpness(project(tops, radians, origin), tops.size()));
    return mass + edges;
}

/// Log-evidence that text whose lines run at `radians` (nearly horizontal) in `ink` is upright rather than upside
/// down. Lines are straight only locally: the two pages of a spread lean different ways and a curled page bends its
/// lines, so that projected at one angle over the whole page the x-height band blurs, and the letter shapes' cues with
/// it. So the ``letterShapeEvidence`` of each quarter of the page is taken at the quarter's own angle (within 3° of the
/// page's) and averaged by ink; the page is judged whole when fewer than three quarters give any (too little ink in
/// them, or none above the line cores), on text-sized marks only (see ``textSizedMarks``). A till receipt, long and
/// narrow, is judged whole, and where its heading and its barcode sit count too (see ``findBarcode``); its thin
/// print, often faded, stays lighter than its bold heading, totals and barcode, between which Otsu's threshold falls,
/// so both its cues are taken from `faintInk` (see ``inkMask``), unless `ink` shows capitals and digits only.
double uprightEvidence(const cv::Mat &ink, const cv::Mat &faintInk, double radians) {
    if (cv::countNonZero(ink) < 300) return 0;
    const bool slip = static_cast<double>(ink.cols) / ink.rows < 0.55;
    const LetterEdges page(slip ? ink : textSizedMarks(ink));
    if (slip) {
        // Receipts print in capitals and digits that give the letter shapes little to go on; but they put their
        // largest line, the shop's name, at the top, and a barcode, when they print one, at the bottom.
        const auto barcode = findBarcode(faintInk, radians);
        double origin;
        const double heading = 0.5 * headingPosition(project(inkPoints(faintInk, 30000), radians, origin), barcode);
        const double barcodeEnd = barcode && std::abs(barcode->centre - 0.5) > 0.25 ? 2 * barcode->centre - 1 : 0;
        // The faint ink's halos round capitals would pass for ascenders: a label in capitals and digits stays as it is.
        const auto bold = letterShapeEvidence(page, radians);
        const double shapes = bold ? letterShapeEvidence(LetterEdges(faintInk), radians).value_or(*bold) : 0;
        return shapes + heading + barcodeEnd;
    }
    double weighted = 0, weight = 0;
    int judged = 0;
    for (int row = 0; row < 2; ++row) {
        for (int column = 0; column < 2; ++column) {
            const cv::Rect quarter(column * ink.cols / 2, row * ink.rows / 2, ink.cols / 2, ink.rows / 2);
            const LetterEdges piece(page, quarter);
            const auto points = inkPoints(piece.ink, 10000);
            if (points.size() < 1000) continue;
            const double angle = sweep(points, radians, 3, 0.25, {radians, -1}).radians;
            if (const auto evidence = letterShapeEvidence(piece, angle)) {
                const double amount = static_cast<double>(cv::countNonZero(piece.ink));
                weighted += *evidence * amount, weight += amount, ++judged;
            }
        }
    }
    if (judged >= 3) return weighted / weight;
    return letterShapeEvidence(page, radians).value_or(0);
}

/// The grey level that half of an 8-bit image's pixels stay below.
int medianOf(const cv::Mat &gray) {
    int histogram[256] = {};
    for (int y = 0; y < gray.rows; ++y) {
        const uchar *row = gray.ptr<uchar>(y);
        for (int x = 0; x < gray.cols; ++x) ++histogram[row[x]];
    }
    const size_t half = gray.total() / 2;
    size_t seen = 0;
    for (int level = 0; level < 256; ++level)
        if ((seen += histogram[level]) > half) return level;
    return 255;
}

}  // namespace

namespace {

/// textLineStrength for dark print on light paper.
double darkPrintLineStrength(const cv::Mat &region) {
    const cv::Mat ink = inkMask(region);
    // Print covers a few percent of a document; woven or speckled texture splits into ink and paper about evenly.
    const double coverage = static_cast<double>(cv::countNonZero(ink)) / ink.total();
    if (coverage > 0.25) return 0;
    const auto points = inkPoints(ink, 20000);
    if (points.size() < 150) return 0;
    // The lines' direction from every few of the points, at most 5,000 of them: the sweeps project the points at 46
    // angles each way, and more points only refine a direction that 5,000 already fix (the same outlines, rotations
    // and skews on the corpus and six fresh sets). The lines' strength is then measured on all of them.
    std::vector<cv::Point2f> spread;
    const size_t stride = (points.size() + 4999) / 5000;
    for (size_t i = 0; i < points.size(); i += stride) spread.push_back(points[i]);
    const Direction across = bestAngle(spread, 0), down = bestAngle(spread, CV_PI / 2);
    double origin;
    const auto bins = project(points, across.score >= down.score ? across.radians : down.radians, origin);
    // The share of the projection's energy in its fine structure: lines of text alternate with gaps a few pixels
    // apart, while texture, noise and shading vary slowly or not at all.
    constexpr size_t window = 15;
    std::vector<double> prefix(bins.size() + 1, 0);
    for (size_t i = 0; i < bins.size(); ++i) prefix[i + 1] = prefix[i] + bins[i];
    double fine = 0, total = 0;
    for (size_t i = 0; i < bins.size(); ++i) {
        const size_t from = i >= window / 2 ? i - window / 2 : 0, to = std::min(bins.size(), i + window / 2 + 1);
        const double local = (prefix[to] - prefix[from]) / static_cast<double>(to - from);
        fine += (bins[i] - local) * (bins[i] - local);
        total += bins[i] * bins[i];
    }
    return total > 0 ? fine / total : 0;
}

/// The page in gray as dark print on light paper: light print on dark card stock comes back inverted. The paper is
/// what most of a page shows, so the median is the paper's brightness; print is a minority in the far tail. Dark stock
/// is a median under mid-gray and less than half the brightness of the page's brightest percent. A light page half in
/// shadow keeps its median well above that, and a page in dim light lacks the bright tail. Paler stock counts when its
/// brightest percent stands clearly above the paper and its print departs from it mostly towards white (white print on
/// a pink card), as the Light stage judges it (``docscan::isLightOnDark``). A mid-tone card with dark print and a white logo can look the same, so the page is inverted only when
/// its light marks make the stronger lines of text.
cv::Mat darkPrintOnLightPaper(const cv::Mat &page) {
    const cv::Mat gray = docscan::gray(page);
    int histogram[256] = {};
    const int stepY = std::max(1, gray.rows / 400), stepX = std::max(1, gray.cols / 400);
    int count = 0;
    for (int y = gray.rows / 30; y < gray.rows - gray.rows / 30; y += stepY) {
        const uchar *row = gray.ptr<uchar>(y);
        for (int x = gray.cols / 30; x < gray.cols - gray.cols / 30; x += stepX, ++count) ++histogram[row[x]];
    }
    if (count == 0) return gray;
    const auto percentile = [&](double fraction) {
        const int wanted = static_cast<int>(fraction * count);
        int seen = 0;
        for (int v = 0; v < 256; ++v)
            if ((seen += histogram[v]) > wanted) return v;
        return 255;
    };
    const int median = percentile(0.5), brightest = percentile(0.99);
    const bool darkStock = median < 100 && 2 * median < brightest;
    if (!darkStock && !(brightest >= median + 20 && docscan::isLightOnDark(gray))) return gray;
    cv::Mat inverted;
    cv::bitwise_not(gray, inverted);
    return darkPrintLineStrength(inverted) > darkPrintLineStrength(gray) ? inverted : gray;
}

}  // namespace

double docscan::textLineStrength(const cv::Mat &region) {
    // Light print on dark card stock counts too.
    cv::Mat inverted;
    cv::bitwise_not(docscan::gray(region), inverted);
    return std::max(darkPrintLineStrength(region), darkPrintLineStrength(inverted));
}

int32_t ds_analysis_size(int32_t width, int32_t height) {
    const double aspect = static_cast<double>(std::max(width, height)) / std::max(1, std::min(width, height));
    return static_cast<int32_t>(1000 * std::min(2.5, std::max(1.0, std::sqrt(aspect / std::sqrt(2.0)))));
}

ds_status ds_analyze_text_layout(const ds_image *page, ds_text_layout *out) {
    *out = {0, 0, 0, 0};
    return guarded("analyze_text_layout", [&]() -> ds_status {
        // A till receipt's thin print is judged in fainter ink too (see uprightEvidence).
        const bool slip = std::min(page->mat.cols, page->mat.rows) < 0.55 * std::max(page->mat.cols, page->mat.rows);
        const auto [ink, faintInk] = inkMasks(darkPrintOnLightPaper(page->mat), slip ? 215 : 0);
        const auto points = inkPoints(ink, 30000);
        if (points.size() < 300) return DS_OK;
        const Direction across = bestAngle(points, 0);
        const Direction down = bestAngle(points, CV_PI / 2);
        const bool vertical = down.score > across.score;
        const Direction chosen = vertical ? down : across;
        const double other = vertical ? across.score : down.score;
        // Judge up against down with the lines made horizontal: a quarter turn clockwise for vertical lines, after
        // which lines that ran at π/2 + θ run at θ.
        double evidence;
        if (vertical) {
            cv::Mat turned, turnedFaint;
            cv::rotate(ink, turned, cv::ROTATE_90_CLOCKWISE);
            if (slip) {
                cv::rotate(faintInk, turnedFaint, cv::ROTATE_90_CLOCKWISE);
            } else {
                turnedFaint = turned;
            }
            evidence = uprightEvidence(turned, turnedFaint, chosen.radians - CV_PI / 2);
        } else {
            evidence = uprightEvidence(ink, faintInk, chosen.radians);
        }
        const int quarterTurns = vertical ? (evidence >= 0 ? 1 : 3) : (evidence >= 0 ? 0 : 2);
        const double residual = chosen.radians - (vertical ? CV_PI / 2 : 0);
        out->quarter_turns = quarterTurns;
        out->skew_degrees = -residual * 180 / CV_PI;
        out->line_confidence = std::clamp(1 - (other - 1) / std::max(1e-9, chosen.score - 1), 0.0, 1.0);
        out->upright_confidence = std::min(1.0, std::abs(evidence));
        return DS_OK;
    });
}

ds_status ds_find_gutter(const ds_image *page, ds_gutter *out) {
    *out = {0, 0, 0, 0};
    return guarded("find_gutter", [&]() -> ds_status {
        cv::Mat small;
        const double factor = docscan::downscale(docscan::gray(page->mat), 1000, small);
        const double aspect = static_cast<double>(small.cols) / small.rows;
        if (aspect < 0.9 || aspect > 2.4 || small.cols < 100) return DS_OK;
        // A book's pages are paper, light with dark print. Dark stock (half of it under 90 of 255; the spreads of the
        // corpus and six fresh sets measured 144 and more) with light print is a card or a cover, whose design or
        // shading can dip like a fold (seed 99000 multi-03: a maroon card, 34, dipping by 7 where the bar is 6).
        if (medianOf(small) < 90) return DS_OK;
        const cv::Mat ink = inkMask(small);
        const int rowStart = small.rows / 10, rowEnd = small.rows - small.rows / 10;
        // Column brightness and ink, for the upper half, the lower half and the whole height.
        const auto columnMeans = [&](int from, int to, const cv::Mat &m) {
            cv::Mat column;
            cv::reduce(m.rowRange(from, to), column, 0, cv::REDUCE_AVG, CV_64F);
            return column;
        };
        const cv::Mat brightness = columnMeans(rowStart, rowEnd, small);
        const cv::Mat inkDensity = columnMeans(rowStart, rowEnd, ink) / 255.0;
        const int w = small.cols;
        const int halo = std::max(2, w / 80);
        const auto mean = [](const cv::Mat &column, int from, int to) {
            from = std::max(from, 0), to = std::min(to, column.cols);
            return to > from ? cv::mean(column.colRange(from, to))[0] : 0.0;
        };
        double bestScore = 0;
        int bestX = -1;
        for (int x = w * 35 / 100; x <= w * 65 / 100; ++x) {
            const double gap = mean(inkDensity, x - halo, x + halo + 1);
            if (gap > 0.004) continue;  // text crosses here
            const double centre = mean(brightness, x - 1, x + 2);
            const double sides = 0.5 * (mean(brightness, x - w / 7, x - w / 14) + mean(brightness, x + w / 14, x + w / 7));
            const double dip = sides - centre;
            if (dip > bestScore) bestScore = dip, bestX = x;
        }
        if (bestX < 0 || bestScore < 6) return DS_OK;
        const double leftInk = mean(inkDensity, w / 10, bestX - w / 20), rightInk = mean(inkDensity, bestX + w / 20, w - w / 10);
        if (leftInk < 0.004 || rightInk < 0.004) return DS_OK;
        // Follow the fold down the page, where a slight residual tilt shows: its darkest column in each of twelve bands
        // of rows, and the line through them that most agree with (the median of the slopes between every two bands,
        // Theil and Sen's line), so that a thumb holding the book open near the fold, or a shadow across it, darkens a
        // few bands without tilting the line.
        const auto darkestNear = [&](const cv::Mat &column) {
            int x = bestX;
            double darkest = 1e300;
            for (int c = bestX - halo * 2; c <= bestX + halo * 2; ++c) {
                if (c < 1 || c >= w - 1) continue;
                const double v = mean(column, c - 1, c + 2);
                if (v < darkest) darkest = v, x = c;
            }
            return x;
        };
        struct FoldPoint {
            double row, column;  // a band's middle row, and the fold's column there
        };
        constexpr int bands = 12;
        std::vector<FoldPoint> fold;
        // A fold runs the page's whole height, darker there than the paper on both sides of it; a shadow's edge is
        // darker than one side only, and a finger's shadow is dark for part of the height (seed 251000 card-06, a card
        // under a hand's shadow: a dip of 18 over the whole height, but in 4 of the 12 bands darker than one side; the
        // spreads of 9 sets were darker than both sides by 14 levels or more in every band). A thumb or a shadow may
        // hide the fold in a band or two.
        int dipping = 0;
        for (int band = 0; band < bands; ++band) {
            const int from = rowStart + (rowEnd - rowStart) * band / bands, to = rowStart + (rowEnd - rowStart) * (band + 1) / bands;
            if (to <= from) continue;
            const cv::Mat column = columnMeans(from, to, small);
            const int x = darkestNear(column);
            fold.push_back({0.5 * (from + to - 1), static_cast<double>(x)});
            const double centre = mean(column, x - 1, x + 2);
            dipping += centre < mean(column, x - w / 7, x - w / 14) && centre < mean(column, x + w / 14, x + w / 7);
        }
        if (dipping < bands - 2) return DS_OK;
        std::vector<double> slopes, offsets;  // columns per row, and columns at row 0
        for (size_t i = 0; i < fold.size(); ++i)
            for (size_t j = i + 1; j < fold.size(); ++j)
                slopes.push_back((fold[j].column - fold[i].column) / (fold[j].row - fold[i].row));
        const auto median = [](std::vector<double> values) {
            std::sort(values.begin(), values.end());
            const size_t n = values.size();
            return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
        };
        if (slopes.empty()) return DS_OK;
        const double slope = median(slopes);
        for (const auto &point : fold) offsets.push_back(point.column - slope * point.row);
        const double offset = median(offsets);
        const double topX = offset, bottomX = offset + slope * (small.rows - 1);
        out->found = 1;
        out->top_x = (topX + 0.5) * factor - 0.5;
        out->bottom_x = (bottomX + 0.5) * factor - 0.5;
        out->confidence = std::clamp(bestScore / 30.0, 0.0, 1.0);
        return DS_OK;
    });
}

ds_status ds_find_inner_page(const ds_image *document, double insets[4], int32_t *bordered_sides) {
    *bordered_sides = 0;
    insets[0] = insets[1] = insets[2] = insets[3] = 0;
    return guarded("find_inner_page", [&]() -> ds_status {
        cv::Mat small;
        const double factor = docscan::downscale(docscan::gray(document->mat), 1000, small);
        if (small.cols < 60 || small.rows < 60) return DS_OK;
        // Brightness of each line parallel to a side, over the middle 60% of that side: the 75th percentile, so that
        // print does not darken the paper.
        const auto level = [](const cv::Mat &line) {
            std::vector<uchar> values(line.begin<uchar>(), line.end<uchar>());
            std::nth_element(values.begin(), values.begin() + values.size() * 3 / 4, values.end());
            return static_cast<double>(values[values.size() * 3 / 4]);
        };
        // The brightness of the lines parallel to a side over the outer third of `image` (oriented so that the side
        // being examined is its left edge), and the paper's: the median of those past the outer eighth.
        struct Profile {
            std::vector<double> brightness;
            double paper;
        };
        const auto profileOf = [&](const cv::Mat &image) {
            const int from = image.rows / 5, to = image.rows - image.rows / 5;
            Profile profile{std::vector<double>(image.cols / 3), 0};
            for (size_t x = 0; x < profile.brightness.size(); ++x)
                profile.brightness[x] = level(image.col(static_cast<int>(x)).rowRange(from, to));
            std::vector<double> inner(profile.brightness.begin() + image.cols / 8, profile.brightness.end());
            std::nth_element(inner.begin(), inner.begin() + inner.size() / 2, inner.end());
            profile.paper = inner[inner.size() / 2];
            return profile;
        };
        const auto inset = [&](const cv::Mat &image, const Profile &profile) -> int {
            const int reach = image.cols / 10;
            const std::vector<double> &brightness = profile.brightness;
            const double paper = profile.paper;
            const double threshold = paper - std::max(20.0, 0.1 * paper);
            int x = 0;
            while (x < reach && !(brightness[x] >= threshold && brightness[x + 1] >= threshold && brightness[x + 2] >= threshold)) ++x;
            // The paper begins at the last sharp rise of brightness on the way there (8 levels from one column to the
            // next), not where it comes near the page's own level: a curled page's shade along its fore-edge rises
            // smoothly over many columns after the step from its page block.
            // Where a step (8 levels from one column to the next) and the rest of its blur end.
            const auto stepEnd = [&](int at) {
                int end = at + 1;
                while (end < reach && brightness[end + 1] - brightness[end] >= 4) ++end;
                return end;
            };
            // Whether a sharp rise at column `i` comes up from something darker than what lies past it (a page
            // block, a cover, the desk: the three columns before it all 4 levels darker than the four past its end),
            // not back from a dip of a column or two in paper as light (the first line of print past a margin: seed
            // 177000 spread-01, the margin of a page shaded along its fore-edge at 162, a line of print at 141, the
            // lines after it at 146 to 156 with a rise of 8 among them).
            const auto risesFromDarker = [&](int i) {
                if (brightness[i + 1] - brightness[i] < 8) return false;
                const int end = stepEnd(i);
                if (end + 4 > static_cast<int>(brightness.size())) return true;
                const double past = *std::min_element(brightness.begin() + end, brightness.begin() + end + 4);
                return *std::max_element(brightness.begin() + std::max(0, i - 2), brightness.begin() + i + 1) <= past - 4;
            };
            // Where the sharp rise at column `i` begins and ends: the columns round it that climb by 2 levels or more
            // from one to the next.
            const auto riseAround = [&](int i) {
                int start = i, end = i + 1;
                while (start > 0 && brightness[start] - brightness[start - 1] >= 2) --start;
                while (end + 1 < static_cast<int>(brightness.size()) && brightness[end + 1] - brightness[end] >= 2) ++end;
                return std::pair{start, end};
            };
            // The outline may run a little past the book onto something as light as the paper (a desk, a cover's lit
            // rim), so that it starts on light columns: then a level stretch darker than the paper, 4 columns wide or
            // more, that begins within a quarter of the reach and ends within half of it in a sharp rise to the paper
            // (within 5 columns) is looked through (seed 293000 spread-04: 219 falling to 193 over 14 columns, the
            // page block level at 170 for 15, then the page at 233). A rule across a page's margin is a column or two
            // wide; a receipt's end in a hard shadow is wide, and the shade brightens towards the shadow's edge.
            if (x < reach / 4) {
                int darkFrom = x;
                while (darkFrom < reach && brightness[darkFrom] >= threshold) ++darkFrom;
                int lightFrom = darkFrom;
                while (lightFrom < reach && !(brightness[lightFrom] >= threshold && brightness[lightFrom + 1] >= threshold &&
                                              brightness[lightFrom + 2] >= threshold))
                    ++lightFrom;
                if (darkFrom < reach / 4 && lightFrom - darkFrom <= reach / 2) {
                    const double floor = *std::min_element(brightness.begin() + darkFrom, brightness.begin() + lightFrom);
                    const auto levelColumns = std::count_if(brightness.begin() + darkFrom, brightness.begin() + lightFrom,
                                                            [&](double b) { return b <= floor + 12; });
                    int rise = -1;
                    for (int i = darkFrom; i < lightFrom; ++i)
                        if (risesFromDarker(i)) rise = i;
                    if (levelColumns >= 4 && rise >= 0) {
                        const auto [start, end] = riseAround(rise);
                        if (end - start < 5) x = lightFrom;
                    }
                }
            }
            int step = -1;
            for (int i = 0; i < x; ++i)  // x is at most reach
                if (risesFromDarker(i)) step = i;
            if (step < 0) return x < reach ? x : -1;
            const int edge = stepEnd(step);
            // The lowest brightness from column `from` to `to` (excluded) when it keeps within 12 levels there (paper
            // in shade), else nothing.
            const auto levelFloor = [&](int from, int to) -> std::optional<double> {
                const auto [low, high] = std::minmax_element(brightness.begin() + from, brightness.begin() + to);
                if (*high - *low > 12) return std::nullopt;
                return static_cast<double>(*low);
            };
            // Unless the last rise is a shadow's edge across the page's end (a hand's, seed 147000 spread-06): an
            // earlier rise leads to paper in shade, level (within 12 levels) for a quarter of the reach or more and
            // at least six tenths as light as the paper, where the page's own edge is. (On the corpus and six fresh
            // sets, every other stretch between two rises was 7 columns wide or less, or far from level: a page
            // block, a cover's rim, or the cover and the desk beyond it.) A shadow's edge is soft: the brightness
            // climbs (by 2 levels or more from one column to the next) for five columns or more round its sharpest
            // rise (147000 spread-06: 138, 140, 142, 151, 160, 169, 178, 182; seed 167000 spread-06 for ten), where
            // a page's own edge climbs within three (seed 177000 spread-01: a page block 22 columns wide and as
            // level as shade at 143 to 147, then 188 and 207 on the page).
            const auto [riseStart, riseEnd] = riseAround(step);
            const bool softLastRise = riseEnd - riseStart >= 5;
            for (int i = 0; i < step && softLastRise; ++i) {
                if (!risesFromDarker(i)) continue;
                const int shaded = stepEnd(i);
                if (step - shaded < std::max(3, reach / 4)) break;
                // (Up to the shadow's soft edge, which starts to rise a few columns before its step.)
                if (const auto floor = levelFloor(shaded, step - 2); floor && *floor >= 0.6 * paper) return shaded;
            }
            // Nor when the stretch from an earlier rise to the last one is wide (half the reach or more) and light all
            // through (seven tenths of the paper or more), however unevenly: the page's margin under a hand's shadow
            // whose fingers shade it, sharp-edged (seed 255000 spread-01: from the page's edge at column 16 to the
            // shadow's at 93, 161 to 192 where the paper is 216). A page block or a cover's rim is a few columns wide
            // (22 at most on the generated sets), and the cover or the desk beyond it far darker. The page's edge is
            // the latest rise that leaves such a stretch.
            std::optional<int> pageEdge;
            for (int i = 0; i < step; ++i) {
                if (!risesFromDarker(i)) continue;
                const int shaded = stepEnd(i);
                if (step - 2 - shaded < reach / 2) break;
                if (*std::min_element(brightness.begin() + shaded, brightness.begin() + step - 2) >= 0.7 * paper)
                    pageEdge = shaded;
            }
            if (pageEdge) return *pageEdge;
            if (x < reach) return std::min(edge, x);
            // A page shaded all along this side (the far page of a spread, darker than the near one, or a page whose
            // end a hand's shadow covers) never comes within 20 levels of the paper measured further in; the sharp
            // rise still marks its edge when the shade beyond it is level (within 12 levels, as the shade of a rise
            // before the last one above), for a tenth of the side's reach, and within 40 levels of that paper. (The
            // rise may overshoot the shade a little: seed 161000 spread-05, 185 then 174-179 below a cover's rim,
            // where no border was found on any side.) Deeper shade, six tenths of that paper or more, will do when the
            // rise comes up from something far darker (three quarters of the shade or less: a cover, a dark desk): the
            // far page of a spread at 179 where the near one is 231, above a cover at 31 (seed 283000 spread-05), or a
            // page's end under a hand's shadow at 141, above a page block at 99 (seed 273000 spread-06).
            const int flat = std::max(3, reach / 10);
            if (edge + flat >= static_cast<int>(brightness.size())) return -1;
            if (brightness[edge] < paper - 40 &&
                !(brightness[edge] >= 0.6 * paper && brightness[riseStart] <= 0.75 * brightness[edge]))
                return -1;
            return levelFloor(edge, edge + flat + 1) ? edge : -1;
        };
        cv::Mat left = small, top, right, bottom;
        cv::rotate(small, top, cv::ROTATE_90_COUNTERCLOCKWISE);   // the top edge becomes the left one
        cv::rotate(small, right, cv::ROTATE_180);
        cv::rotate(small, bottom, cv::ROTATE_90_CLOCKWISE);
        const cv::Mat *sides[4] = {&left, &top, &right, &bottom};
        Profile profiles[4];
        int widths[4];
        for (int i = 0; i < 4; ++i) {
            profiles[i] = profileOf(*sides[i]);
            widths[i] = inset(*sides[i], profiles[i]);
            if (widths[i] < 0) return DS_OK;
        }
        for (int i = 0; i < 4; ++i) {
            insets[i] = widths[i] * factor;
            if (widths[i] < std::max(3, small.cols / 200)) continue;
            *bordered_sides |= 1 << i;
            // A cover or a page block: the band's median 40 levels or more below the paper (a page block of 145 to
            // 150 beside paper of 214, seed 285000 spread-01), where a page curling down to its fore-edge shades its
            // margin by 20 to 30 (seed 301000 spread-02).
            std::vector<double> band(profiles[i].brightness.begin(), profiles[i].brightness.begin() + widths[i]);
            std::nth_element(band.begin(), band.begin() + band.size() / 2, band.end());
            if (band[band.size() / 2] <= profiles[i].paper - 40) *bordered_sides |= 16 << i;
        }
        return DS_OK;
    });
}
