// Document outline detection.
//
// On a downscaled, median-smoothed copy of the photo, several segmentations (Otsu thresholds of each Lab channel in
// both polarities, and closed edge maps) each propose outlines; every outline is fitted with a quadrilateral whose
// sides are re-fitted to the straightest stretch of the outline's own points along them (so a thumb or a shadow bump
// does not drag a side). Each quadrilateral is scored by how much of its perimeter shows a colour step from inside to
// outside, or, on a woven surface (cloth, carpet, granite: rough at the sensor's finest scale where paper is smooth), a
// step from smooth to woven; there the smooth regions are proposed too, and outlines with woven surface inside their
// rim dropped. A quadrilateral that no camera could see a rectangle as (a piece cut off by a slanting shadow's edge)
// scores low. The best non-overlapping ones win, preferring an outline over the parts inside it (unless what it adds is
// the desk, lit or in shade, or reaches across bare desk to borrow the edge of another document) and passing over
// shadows (darker than their surroundings, with no print, or with a document lying in them); outlines around rough
// surface (carpet, granite), cells of a repeating pattern, and weakly outlined regions without lines of print are
// dropped, where a stretch of outline hidden under a thumb counts as outlined; an outline just short of the bar beside
// the documents found (a pale card on a pale desk) is kept when it holds clear lines of print on smooth stock. Pieces
// of one document are put back together, and specks of the surface cut off by the frame dropped. An outline chosen and
// then dropped (a shadow that reaches over a page's print) no longer keeps out the outlines it overlaps: the choice is
// made again without it, and kept when it covers more without taking in desk. Finally each side is moved onto the
// strongest edge at full resolution and re-fitted with RANSAC, which gives sub-pixel corners even where part of a side
// is hidden.
#include "Support.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <array>
#include <iterator>
#include <climits>
#include <cstring>
#include <cmath>
#include <limits>
#include <optional>
#include <numeric>
#include <random>

using docscan::fail;
using docscan::guarded;

namespace {

using Quad = std::array<cv::Point2d, 4>;

struct Line {  // points p with dot(normal, p) == offset
    cv::Point2d normal;
    double offset;

    /// How far `p` lies from the line (its normal is of unit length).
    double distanceTo(cv::Point2d p) const { return std::abs(normal.dot(p) - offset); }
};

std::optional<cv::Point2d> intersect(const Line &a, const Line &b) {
    const double det = a.normal.x * b.normal.y - a.normal.y * b.normal.x;
    if (std::abs(det) < 1e-9) return std::nullopt;
    return cv::Point2d((a.offset * b.normal.y - b.offset * a.normal.y) / det,
                       (a.normal.x * b.offset - b.normal.x * a.offset) / det);
}

Line lineThrough(cv::Point2d p, cv::Point2d q) {
    cv::Point2d direction = q - p;
    const double length = std::hypot(direction.x, direction.y);
    const cv::Point2d normal(-direction.y / length, direction.x / length);
    return {normal, normal.dot(p)};
}

/// Total least-squares line through points.
std::optional<Line> fitLine(const std::vector<cv::Point2d> &points) {
    if (points.size() < 2) return std::nullopt;
    cv::Point2d mean(0, 0);
    for (const auto &p : points) mean += p;
    mean *= 1.0 / points.size();
    double sxx = 0, sxy = 0, syy = 0;
    for (const auto &p : points) {
        const cv::Point2d d = p - mean;
        sxx += d.x * d.x;
        sxy += d.x * d.y;
        syy += d.y * d.y;
    }
    // The normal is the eigenvector of the smaller eigenvalue of the scatter matrix.
    const double angle = 0.5 * std::atan2(2 * sxy, sxx - syy);  // direction of largest spread
    const cv::Point2d normal(-std::sin(angle), std::cos(angle));
    return Line{normal, normal.dot(mean)};
}

/// The line that the most of `points` lie on, within a pixel either side, among lines within 10 degrees of `rough`,
/// then re-fitted by least squares to the points within 2.5 pixels of it (three times over, so that a blurred or
/// jagged edge is averaged): a side's straight stretches, however short and wherever they lie, outvote a thumb's curved
/// outline or a shadow's bump that comes within the band round the side. The least-squares line through all of
/// `points` when no line holds a third of them.
std::optional<Line> straightestLine(const std::vector<cv::Point2d> &points, const Line &rough) {
    // Offsets are counted in half-pixel bins; a window of four bins is the line's two pixels.
    constexpr double bin = 0.5;
    constexpr int window = 4;
    const double roughAngle = std::atan2(rough.normal.y, rough.normal.x);
    std::vector<double> offsets(points.size());
    std::vector<int> counts;
    int bestCount = 0;
    Line best = rough;
    for (int step = -20; step <= 20; ++step) {
        const double angle = roughAngle + step * 0.5 * CV_PI / 180;
        const cv::Point2d normal(std::cos(angle), std::sin(angle));
        double low = std::numeric_limits<double>::infinity(), high = -low;
        for (size_t i = 0; i < points.size(); ++i) {
            offsets[i] = normal.dot(points[i]);
            low = std::min(low, offsets[i]), high = std::max(high, offsets[i]);
        }
        counts.assign(static_cast<size_t>((high - low) / bin) + window, 0);
        for (const double offset : offsets) ++counts[static_cast<size_t>((offset - low) / bin)];
        int inWindow = 0;
        for (size_t last = 0; last < counts.size(); ++last) {
            inWindow += counts[last] - (last >= window ? counts[last - window] : 0);
            if (inWindow > bestCount || (inWindow == bestCount && step == 0)) {  // ties go to the rough line's angle
                bestCount = inWindow, best = {normal, low + (static_cast<double>(last) + 1 - 0.5 * window) * bin};
            }
        }
    }
    if (3 * static_cast<size_t>(bestCount) < points.size()) return fitLine(points);
    std::vector<cv::Point2d> inliers;
    for (int round = 0; round < 3; ++round) {
        inliers.clear();
        for (const auto &p : points) if (best.distanceTo(p) <= 2.5) inliers.push_back(p);
        if (const auto fitted = fitLine(inliers)) best = *fitted;
    }
    return best;
}

/// The value that a share `quantile` (0...1) of `values` stay below; `values` (not empty) are reordered.
template <typename T>
T quantileOf(std::vector<T> &values, double quantile) {
    const auto rank = values.begin() + static_cast<ptrdiff_t>(quantile * static_cast<double>(values.size() - 1));
    std::nth_element(values.begin(), rank, values.end());
    return *rank;
}

/// The value of `rank` (from 0) among 16-bit `values` in increasing order, as `std::nth_element` finds it, found by
/// counting them (high bytes, then the low bytes of those with the high byte found) in a few times less time.
uint16_t valueOfRank(const std::vector<uint16_t> &values, size_t rank) {
    std::array<size_t, 256> counts{};
    for (const uint16_t value : values) ++counts[value >> 8];
    int high = 0;
    size_t below = 0;
    while (below + counts[high] <= rank) below += counts[high++];
    counts.fill(0);
    for (const uint16_t value : values)
        if ((value >> 8) == high) ++counts[value & 0xff];
    int low = 0;
    while (below + counts[low] <= rank) below += counts[low++];
    return static_cast<uint16_t>(high << 8 | low);
}

double signedArea(const Quad &q) {
    double area = 0;
    for (int i = 0; i < 4; ++i) area += q[i].x * q[(i + 1) % 4].y - q[(i + 1) % 4].x * q[i].y;
    return area / 2;
}

bool isConvex(const Quad &q) {
    int sign = 0;
    for (int i = 0; i < 4; ++i) {
        const cv::Point2d a = q[(i + 1) % 4] - q[i], b = q[(i + 2) % 4] - q[(i + 1) % 4];
        const double cross = a.x * b.y - a.y * b.x;
        if (std::abs(cross) < 1e-9) return false;
        const int s = cross > 0 ? 1 : -1;
        if (sign != 0 && s != sign) return false;
        sign = s;
    }
    return true;
}

/// Orders corners clockwise on screen (y down), starting with the one nearest the top-left.
Quad ordered(Quad q) {
    cv::Point2d centre(0, 0);
    for (const auto &p : q) centre += p * 0.25;
    std::sort(q.begin(), q.end(), [&](const cv::Point2d &a, const cv::Point2d &b) {
        return std::atan2(a.y - centre.y, a.x - centre.x) < std::atan2(b.y - centre.y, b.x - centre.x);
    });
    int start = 0;
    double best = 1e300;
    for (int i = 0; i < 4; ++i) {
        const double key = q[i].x + q[i].y;
        if (key < best) best = key, start = i;
    }
    std::rotate(q.begin(), q.begin() + start, q.end());
    return q;
}

/// The smallest interior angle of the quad, in degrees.
double smallestAngle(const Quad &q) {
    double smallest = 180;
    for (int i = 0; i < 4; ++i) {
        const cv::Point2d a = q[(i + 3) % 4] - q[i], b = q[(i + 1) % 4] - q[i];
        const double cosine = a.dot(b) / (std::hypot(a.x, a.y) * std::hypot(b.x, b.y));
        smallest = std::min(smallest, std::acos(std::clamp(cosine, -1.0, 1.0)) * 180 / CV_PI);
    }
    return smallest;
}

/// How near to right angles the corners come (in degrees, 0...90) of a rectangle that a pinhole camera would see as
/// `quad` on a `frame`-sized photo: the angle between the directions in space of its two pairs of opposite sides (each
/// pair meets at a vanishing point, which the camera's inverse maps to a direction), for the focal length that brings
/// it nearest to 90 between 0.35 and 2.5 times the frame's longer side (ultra-wide to telephoto lenses, and digital
/// zoom), with the principal point at the frame's centre (a photo cropped off-centre is not modelled). Every document is a rectangle, so its outline
/// comes within a few degrees of 90; a piece of one cut off by a slanting shadow's edge or a thumb's, or an outline
/// that runs along a cloth's checks on one side, cannot be the picture of any rectangle and comes out far lower.
double rectangleCornerAngle(const Quad &quad, cv::Size frame) {
    const auto homogeneous = [](cv::Point2d p) { return cv::Vec3d(p.x, p.y, 1); };
    const auto through = [&](int a, int b) { return homogeneous(quad[a]).cross(homogeneous(quad[b])); };
    const cv::Vec3d first = through(0, 1).cross(through(3, 2)), second = through(0, 3).cross(through(1, 2));
    const cv::Point2d centre(frame.width / 2.0, frame.height / 2.0);
    // A vanishing point (x, y, w) seen through a camera of focal length f is the direction ((x - cx w) / f, (y - cy
    // w) / f, w).
    const cv::Point2d u1(first[0] - centre.x * first[2], first[1] - centre.y * first[2]);
    const cv::Point2d u2(second[0] - centre.x * second[2], second[1] - centre.y * second[2]);
    // 1 / f² for 41 focal lengths in geometric steps from 0.35 to 2.5 times the longer side (of a frame of 1).
    static const std::array<double, 41> inverseFocalSquares = [] {
        std::array<double, 41> values;
        for (size_t step = 0; step < values.size(); ++step) {
            const double focal = 0.35 * std::pow(2.5 / 0.35, step / 40.0);
            values[step] = 1 / (focal * focal);
        }
        return values;
    }();
    const double longer = std::max(frame.width, frame.height), scale = 1 / (longer * longer);
    const double along = u1.dot(u2) * scale, first2 = u1.dot(u1) * scale, second2 = u2.dot(u2) * scale;
    double cosine = 1;  // the least |cos| of the angle between the two directions
    for (const double g : inverseFocalSquares) {
        const double norms = std::sqrt((g * first2 + first[2] * first[2]) * (g * second2 + second[2] * second[2]));
        if (norms > 0) cosine = std::min(cosine, std::abs(g * along + first[2] * second[2]) / norms);
    }
    return std::acos(std::clamp(cosine, 0.0, 1.0)) * 180 / CV_PI;
}

Quad refittedToContour(const Quad &rough, const std::vector<cv::Point> &contour, double perimeter);

/// Fits a quadrilateral to an outline: a polygon approximation of its convex hull (`hull`) proposes the four sides,
/// then each side is re-fitted to the outline points lying along it, ignoring the points of bumps (a thumb, a shadow).
std::optional<Quad> quadFromContour(const std::vector<cv::Point> &contour, const std::vector<cv::Point> &hull,
                                    double minArea) {
    if (cv::contourArea(hull) < minArea) return std::nullopt;
    const double perimeter = cv::arcLength(hull, true);
    std::vector<cv::Point> polygon;
    for (double epsilon = 0.01; epsilon <= 0.1; epsilon += 0.01) {
        cv::approxPolyDP(hull, polygon, epsilon * perimeter, true);
        if (polygon.size() <= 4) break;
    }
    Quad rough;
    if (polygon.size() == 4) {
        for (int i = 0; i < 4; ++i) rough[i] = cv::Point2d(polygon[i]);
    } else {
        cv::Point2f box[4];
        cv::minAreaRect(hull).points(box);
        for (int i = 0; i < 4; ++i) rough[i] = cv::Point2d(box[i]);
    }
    return refittedToContour(ordered(rough), contour, perimeter);
}

/// `rough` with each side re-fitted to the contour points lying along it (``straightestLine``: bumps such as a thumb or
/// a shadow left out); `rough` itself when the re-fitted sides do not make a convex quad near it.
Quad refittedToContour(const Quad &rough, const std::vector<cv::Point> &contour, double perimeter) {
    const double band = std::max(2.0, 0.015 * perimeter);
    std::array<Line, 4> lines;
    for (int side = 0; side < 4; ++side) {
        const cv::Point2d a = rough[side], b = rough[(side + 1) % 4];
        const Line line = lineThrough(a, b);
        const cv::Point2d direction = b - a;
        const double length2 = direction.dot(direction);
        std::vector<cv::Point2d> near;
        for (const auto &p : contour) {
            const cv::Point2d q(p);
            if (line.distanceTo(q) > band) continue;  // most points lie along the other sides
            const double t = (q - a).dot(direction) / length2;
            if (!(t < 0.1 || t > 0.9)) near.push_back(q);
        }
        auto fitted = near.size() >= 8 ? straightestLine(near, line) : std::nullopt;
        lines[side] = fitted ? *fitted : line;
    }
    Quad result;
    for (int i = 0; i < 4; ++i) {
        auto corner = intersect(lines[(i + 3) % 4], lines[i]);
        if (!corner || cv::norm(*corner - rough[i]) > 0.1 * perimeter) return rough;
        result[i] = *corner;
    }
    return isConvex(result) ? result : rough;
}

/// A rectangle with a corner hidden (a thumb over a card's corner, the card's outline cut off along the thumb's edge)
/// outlines as a pentagon whose fifth side is the cut. The quad with that side dropped and its neighbours run on to
/// meet where the corner is hidden, when the outline's hull simplifies to five corners, two of them blunt (over 115
/// degrees, where a rectangle seen by a camera has none over about 120 and a cut across a corner makes two near 135)
/// and the added corner adds at most a quarter to the area. `hull` is the outline's convex hull.
std::optional<Quad> quadPastHiddenCorner(const std::vector<cv::Point> &contour, const std::vector<cv::Point> &hull,
                                         double minArea) {
    const double area = cv::contourArea(hull);
    if (area < minArea) return std::nullopt;
    const double perimeter = cv::arcLength(hull, true);
    std::vector<cv::Point> polygon;
    for (double epsilon = 0.01; epsilon <= 0.05; epsilon += 0.01) {
        cv::approxPolyDP(hull, polygon, epsilon * perimeter, true);
        if (polygon.size() <= 5) break;
    }
    if (polygon.size() != 5) return std::nullopt;
    const auto corner = [&](int i) { return cv::Point2d(polygon[(i + 5) % 5]); };
    const auto interiorAngle = [&](int i) {
        const cv::Point2d u = corner(i - 1) - corner(i), v = corner(i + 1) - corner(i);
        return std::acos(std::clamp(u.dot(v) / (cv::norm(u) * cv::norm(v)), -1.0, 1.0)) * 180 / CV_PI;
    };
    std::optional<Quad> best;
    double bestAdded = 0.25 * area;
    for (int cut = 0; cut < 5; ++cut) {  // the side from corner `cut` to corner `cut + 1`
        if (interiorAngle(cut) <= 115 || interiorAngle(cut + 1) <= 115) continue;
        bool othersSharp = true;
        for (int k = 2; k < 5; ++k) othersSharp = othersSharp && interiorAngle(cut + k) <= 115;
        if (!othersSharp) continue;
        const auto hidden = intersect(lineThrough(corner(cut - 1), corner(cut)), lineThrough(corner(cut + 1), corner(cut + 2)));
        if (!hidden) continue;
        Quad quad{corner(cut + 2), corner(cut + 3), corner(cut + 4), *hidden};
        if (!isConvex(quad)) continue;
        const double added = std::abs(signedArea(quad)) - area;
        if (added <= 0 || added > bestAdded) continue;
        bestAdded = added;
        best = refittedToContour(ordered(quad), contour, perimeter);
    }
    return best;
}

/// Samples a 3-channel image (float or 8-bit) bilinearly; false outside.
template <typename Pixel>
bool sample(const cv::Mat &image, cv::Point2d p, cv::Vec3f &value) {
    if (p.x < 0 || p.y < 0 || p.x > image.cols - 1.001 || p.y > image.rows - 1.001) return false;
    const int x = static_cast<int>(p.x), y = static_cast<int>(p.y);
    const float fx = static_cast<float>(p.x - x), fy = static_cast<float>(p.y - y);
    const Pixel *row0 = image.ptr<Pixel>(y), *row1 = image.ptr<Pixel>(y + 1);
    const cv::Vec3f a = row0[x], b = row0[x + 1], c = row1[x], d = row1[x + 1];
    value = (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy;
    return true;
}

/// Calls `visit(inside, outside)` with the pairs of points a short step inside and outside the side from `a` to `b` of
/// a quad (`orientation`: the sign of its signed area) at `samples` places along it, on a working image of `size`.
template <typename Visit>
void pointsAcrossSide(cv::Size size, cv::Point2d a, cv::Point2d b, double orientation, int samples, Visit visit) {
    const double step = std::max(2.0, std::max(size.width, size.height) / 200.0);
    const cv::Point2d direction = (b - a) * (1.0 / cv::norm(b - a));
    // Outward normal for a clockwise (on screen) polygon.
    const cv::Point2d outward = cv::Point2d(direction.y, -direction.x) * orientation;
    for (int i = 0; i < samples; ++i) {
        const cv::Point2d p = a + (b - a) * (0.06 + 0.88 * (i + 0.5) / samples);
        visit(p - outward * step, p + outward * step);
    }
}

/// Calls `visit(side, inside, outside)` with the colours just inside and just outside the quad at `samplesPerSide`
/// points along each side, those where `where(point)` holds for the point on the outline between them (samples that
/// fall outside the image are skipped).
template <typename Where, typename Visit>
void sampleAcrossOutlineWhere(const cv::Mat &lab, const Quad &quad, int samplesPerSide, Where where, Visit visit) {
    const double orientation = signedArea(quad) > 0 ? 1 : -1;  // clockwise on screen: positive
    for (int side = 0; side < 4; ++side) {
        pointsAcrossSide(lab.size(), quad[side], quad[(side + 1) % 4], orientation, samplesPerSide,
                         [&](cv::Point2d in, cv::Point2d out) {
                             if (!where((in + out) * 0.5)) return;
                             cv::Vec3f inside, outside;
                             if (sample<cv::Vec3f>(lab, in, inside) && sample<cv::Vec3f>(lab, out, outside))
                                 visit(side, inside, outside);
                         });
    }
}

/// ``sampleAcrossOutlineWhere`` at every point.
template <typename Visit>
void sampleAcrossOutline(const cv::Mat &lab, const Quad &quad, int samplesPerSide, Visit visit) {
    sampleAcrossOutlineWhere(lab, quad, samplesPerSide, [](cv::Point2d) { return true; }, visit);
}

/// The colour of a region of the working copy: its mean (Lab), a quantile of its lightness, and its size.
struct RegionColour {
    cv::Scalar mean;
    double lightness;
    size_t pixels;
};

/// What outlines are judged on: the working copy's colours and, where the surface is woven, its fine texture.
struct Views {
    cv::Mat lab;  // CV_32FC3, holding 8-bit Lab values (whole numbers)
    cv::Mat curvature;  // CV_32FC3: the second derivatives (xx, xy, yy) of the working copy's lightness, unmedianed
    cv::Mat texture;  // fineTexture; empty when it does not tell paper from the surface
    double smoothBelow = 0;  // texture below this is paper (in fineTexture's units)

    /// The colour of the inside of `quad`, 2 pixels clear of its outline, with the upper quartile of its lightness:
    /// the paper between its print.
    const RegionColour &colourInside(const Quad &quad) const;
    /// The colour of a band 2 to 8 pixels outside `quad`, with its median lightness: the surface it lies on.
    const RegionColour &colourJustOutside(const Quad &quad) const;

    /// A quad's corners as one key, for remembering what was measured of it.
    using Corners = std::array<double, 8>;
    static Corners cornersOf(const Quad &quad) {
        return {quad[0].x, quad[0].y, quad[1].x, quad[1].y, quad[2].x, quad[2].y, quad[3].x, quad[3].y};
    }

  private:
    // Measured once per outline: ``stripColours`` measures the same outlines against many others.
    mutable std::map<Corners, RegionColour> insides, bands;
};

/// Bilinear sample of a one-channel 16-bit map; false outside.
bool sampleScalar(const cv::Mat &map, cv::Point2d p, float &value) {
    if (p.x < 0 || p.y < 0 || p.x > map.cols - 1.001 || p.y > map.rows - 1.001) return false;
    const int x = static_cast<int>(p.x), y = static_cast<int>(p.y);
    const float fx = static_cast<float>(p.x - x), fy = static_cast<float>(p.y - y);
    const uint16_t *row0 = map.ptr<uint16_t>(y), *row1 = map.ptr<uint16_t>(y + 1);
    value = (row0[x] * (1 - fx) + row0[x + 1] * fx) * (1 - fy) + (row1[x] * (1 - fx) + row1[x + 1] * fx) * fy;
    return true;
}

/// The lightness (of 255) both sides of a hairline along a side must have for ``edgeLineAlong`` to count it.
constexpr float lightSurface = 100;
/// The curvature across a side (Sobel's second derivative of the smoothed lightness) from which ``edgeLineAlong`` counts
/// a hairline: along the page edges of seed 83000 prose-09 (white paper on a pale desk, equally lit) it measured 4 to
/// 29, median 9 to 18 per side; five and ten working pixels off them, on paper or desk, 8 at most and 3 at the median.
constexpr double edgeLineCurvature = 6;
/// The curvature up to which a thin dark line is a hairline of shade, not print: ink is far darker than the shade along
/// a page's edge, and a line of print makes a line of its own at the working size.
constexpr double printCurvature = 40;

/// Whether the lightness curving up by `across` across a line and by `along` along it makes a hairline of shade: by
/// ``edgeLineCurvature`` to ``printCurvature`` across it, and less than half as much along it.
bool isHairline(double across, double along) {
    return across >= edgeLineCurvature && across <= printCurvature && std::abs(along) < 0.5 * across;
}

/// Whether the place between `in` and `out` (a short step inside and outside a side, where the colours are `inside`
/// and `outside`) lies on a thin dark line running along the side, with light surface on both sides of it: the edge of
/// a white page on a pale desk in light that makes them equally bright, which shows as nothing but the hairline of
/// shade along the paper's edge. The line is found in the lightness's curvature across the side, within two working
/// pixels of it (where an outline found on the smoothed copy may lie), and must run along the side (curving across it
/// at least twice as much as along it: a letter's stroke crossing the side does not).
bool edgeLineAlong(const Views &views, cv::Point2d in, cv::Point2d out, const cv::Vec3f &inside, const cv::Vec3f &outside) {
    // Both sides light (lightness 100 of 255 or more): on a darker desk a page's edge steps in colour.
    if (inside[0] < lightSurface || outside[0] < lightSurface) return false;
    const cv::Point2d middle = (in + out) * 0.5;
    const cv::Point2d across = (out - in) * (1.0 / cv::norm(out - in));
    const cv::Point2d along(-across.y, across.x);
    for (int offset = -2; offset <= 2; ++offset) {
        cv::Vec3f h;
        if (!sample<cv::Vec3f>(views.curvature, middle + across * offset, h)) continue;
        const double curvingAcross = across.x * across.x * h[0] + 2 * across.x * across.y * h[1] + across.y * across.y * h[2];
        const double curvingAlong = along.x * along.x * h[0] + 2 * along.x * along.y * h[1] + along.y * along.y * h[2];
        if (isHairline(curvingAcross, curvingAlong)) return true;
    }
    return false;
}

/// Calls `visit(inside, outside, colourSteps, textureSteps)` at `samples` points along the side from `a` to `b` (where
/// both sides fall in the image) with the colours a short step inside and outside it, and whether it shows a step of
/// colour, or of texture (smooth paper inside, woven surface outside: a white page on the white cells of a gingham
/// cloth) when the surface is woven. `orientation` is the sign of the quad's signed area.
template <typename Visit>
void stepsAcrossSide(const Views &views, cv::Point2d a, cv::Point2d b, double orientation, int samples, Visit visit) {
    // A step of colour is 7 Lab units where either side has some light (lightness 50 of 255 or more), and less where
    // both are dark, down to 4 units under 20: a camera squeezes colours together in the dark, and a navy or dark teal
    // card on a black desk differs from it by 7 to 9 units, where sensor noise moves a plain dark desk by 1 or 2. (Dark
    // grey is not dark enough: the edge of a book's cover there would outline the cover rather than its pages.)
    const auto threshold = [](const cv::Vec3f &inside, const cv::Vec3f &outside) {
        return 4.0 + 3.0 * std::clamp((std::max<double>(inside[0], outside[0]) - 20.0) / 30.0, 0.0, 1.0);
    };
    pointsAcrossSide(views.lab.size(), a, b, orientation, samples, [&](cv::Point2d in, cv::Point2d out) {
        cv::Vec3f inside, outside;
        if (!sample<cv::Vec3f>(views.lab, in, inside) || !sample<cv::Vec3f>(views.lab, out, outside)) return;
        float smoothness, weave;
        const bool woven = !views.texture.empty() && sampleScalar(views.texture, in, smoothness) &&
                           sampleScalar(views.texture, out, weave) && smoothness < views.smoothBelow &&
                           weave > views.smoothBelow && weave > 2 * smoothness;
        const bool steps = cv::norm(inside - outside) > threshold(inside, outside);
        visit(inside, outside, steps || (!views.curvature.empty() && edgeLineAlong(views, in, out, inside, outside)), woven);
    });
}

/// How many of `samples` points along the side from `a` to `b` show a step from inside to outside: of colour, or of
/// texture (see ``stepsAcrossSide``); the larger of the two counts. `orientation` is the sign of the quad's signed area.
int sideSupport(const Views &views, cv::Point2d a, cv::Point2d b, double orientation, int samples) {
    int colour = 0, woven = 0;
    stepsAcrossSide(views, a, b, orientation, samples, [&](const cv::Vec3f &, const cv::Vec3f &, bool colourSteps, bool textureSteps) {
        colour += colourSteps;
        woven += textureSteps;
    });
    return std::max(colour, woven);
}

/// The outline score from each side's support (of `samplesPerSide`): the share of the perimeter that steps, weighted
/// towards the weakest side, times a plausibility factor for the shape.
double scoreFromSupport(const Quad &quad, const std::array<int, 4> &supported, int samplesPerSide, cv::Size frame) {
    double total = 0;
    double weakest = 1;
    for (const int count : supported) {
        const double share = static_cast<double>(count) / samplesPerSide;
        total += share;
        weakest = std::min(weakest, share);
    }
    // A document shows its edge all round (a thumb or a shadow hides only part of a side); a region bounded by the
    // frame or by background texture on one side is weak there, which must weigh heavily.
    double score = 0.6 * total / 4 + 0.4 * weakest;
    const double angle = smallestAngle(quad);
    if (angle < 45) score *= std::max(0.0, (angle - 20) / 25);
    // No camera sees a rectangle as a piece of one cut off along a slanting edge (see ``rectangleCornerAngle``:
    // documents come within 3 degrees of square on the generated sets, such pieces 15 to 40 degrees off).
    const double squareness = rectangleCornerAngle(quad, frame);
    if (squareness < 80) score *= std::max(0.0, (squareness - 66) / 14);
    // Documents are not slivers: even a long till receipt is rarely more than eight times as long as it is wide, while
    // a coloured band along a card's edge is.
    const double across = cv::norm(quad[0] - quad[1]) + cv::norm(quad[2] - quad[3]);
    const double along = cv::norm(quad[1] - quad[2]) + cv::norm(quad[3] - quad[0]);
    const double slenderness = std::min(across, along) / std::max(across, along);
    if (slenderness < 0.12) score *= slenderness / 0.12;
    return score;
}

/// Whether a corner is folded onto its neighbour (a triangle fitted as a quad): no document's outline.
bool isDegenerate(const Quad &quad) {
    double shortest = 1e18, longest = 0;
    for (int side = 0; side < 4; ++side) {
        const double length = cv::norm(quad[(side + 1) % 4] - quad[side]);
        shortest = std::min(shortest, length), longest = std::max(longest, length);
    }
    return !(shortest >= 0.05 * longest);
}

/// Share of the perimeter along which the colour, or the texture, steps from inside to outside, times a plausibility
/// factor (see ``sideSupport`` and ``scoreFromSupport``).
double outlineScore(const Views &views, const Quad &quad, int samplesPerSide = 32) {
    if (isDegenerate(quad)) return 0;
    const double orientation = signedArea(quad) > 0 ? 1 : -1;
    std::array<int, 4> supported;
    for (int side = 0; side < 4; ++side)
        supported[side] = sideSupport(views, quad[side], quad[(side + 1) % 4], orientation, samplesPerSide);
    return scoreFromSupport(quad, supported, samplesPerSide, views.lab.size());
}

/// ``outlineScore`` with the stretches of the outline that something lying across it hides (a thumb, a pen, a phone's
/// corner) counted as outlined, up to two thirds of a side. Such a stretch shows no step, and on both sides of it a
/// colour that is neither the paper's (what the stepping samples find inside) nor the desk's (what they find outside):
/// a third thing over the edge. A region whose outline is missing along the desk shows the desk's colour inside there,
/// and gains nothing. Never less than ``outlineScore``.
double outlineScoreSeeingPast(const Views &views, const Quad &quad, int samplesPerSide = 32) {
    if (isDegenerate(quad)) return 0;
    struct Across {
        int side;
        cv::Vec3f inside, outside;
        bool steps;
    };
    std::vector<Across> samples;
    std::array<int, 4> colour{}, woven{};
    const double orientation = signedArea(quad) > 0 ? 1 : -1;
    for (int side = 0; side < 4; ++side) {
        stepsAcrossSide(views, quad[side], quad[(side + 1) % 4], orientation, samplesPerSide,
                        [&](const cv::Vec3f &inside, const cv::Vec3f &outside, bool colourSteps, bool textureSteps) {
                            samples.push_back({side, inside, outside, colourSteps});
                            colour[side] += colourSteps;
                            woven[side] += textureSteps;
                        });
    }
    std::vector<cv::Vec3f> paper, desk;
    for (const auto &s : samples)
        if (s.steps) paper.push_back(s.inside), desk.push_back(s.outside);
    // Only when a side's worth of the outline steps can paper and desk be told. A cover hides part of a side, not all
    // of it: at most two thirds of a side is credited.
    if (static_cast<int>(paper.size()) >= samplesPerSide) {
        std::array<int, 4> credited{};
        constexpr double sameColour = 20.0;
        const auto rare = [&](const std::vector<cv::Vec3f> &colours, const cv::Vec3f &c) {
            const auto alike = std::count_if(colours.begin(), colours.end(), [&](const cv::Vec3f &k) { return cv::norm(k - c) < sameColour; });
            return alike < 0.1 * static_cast<double>(colours.size());
        };
        for (const auto &s : samples)
            if (!s.steps && credited[s.side] < 2 * samplesPerSide / 3 && rare(paper, s.inside) && rare(desk, s.outside))
                ++colour[s.side], ++credited[s.side];
    }
    std::array<int, 4> supported;
    for (int side = 0; side < 4; ++side) supported[side] = std::max(colour[side], woven[side]);
    return scoreFromSupport(quad, supported, samplesPerSide, views.lab.size());
}

/// The steps of lightness (Lab, 0...255) from outside to inside the quad's outline, 32 places a side.
std::vector<float> lightnessSteps(const cv::Mat &lab, const Quad &quad) {
    std::vector<float> steps;
    sampleAcrossOutline(lab, quad, 32, [&](int, const cv::Vec3f &inside, const cv::Vec3f &outside) {
        steps.push_back(inside[0] - outside[0]);
    });
    return steps;
}

/// The mean of `steps` (``lightnessSteps``); 0 for none.
double meanStep(const std::vector<float> &steps) {
    return steps.empty() ? 0 : std::accumulate(steps.begin(), steps.end(), 0.0) / static_cast<double>(steps.size());
}

/// How much lighter the quad's inside is than its outside just across its outline, averaged round it (Lab
/// lightness, 0...255).
double lightnessStep(const cv::Mat &lab, const Quad &quad) { return meanStep(lightnessSteps(lab, quad)); }

/// The step of lightness from outside to inside the quad's outline (as in ``lightnessStep``) that a share `quantile`
/// of the places round it stay below.
double lightnessStepQuantile(const cv::Mat &lab, const Quad &quad, double quantile) {
    std::vector<float> steps = lightnessSteps(lab, quad);
    return steps.empty() ? 0 : quantileOf(steps, quantile);
}

/// Whether the quad's inside is darker than what surrounds it all round, as a shadow is: on average by 20 levels, or
/// along nine tenths of its outline by 5 (little where it falls on a dark desk, much where it falls across a page).
bool isDarkerAllRound(const cv::Mat &lab, const Quad &quad) {
    std::vector<float> steps = lightnessSteps(lab, quad);
    return !steps.empty() && (meanStep(steps) <= -20 || quantileOf(steps, 0.9) <= -5);
}

struct Candidate {
    Quad quad;
    double score;
    double area;
    /// The chosen outlines this one replaced in ``select``, given back if it turns out to hold no document.
    std::vector<Candidate> replaced = {};
    /// Whether it was proposed as a well outlined dark region (``isWellOutlinedDarkRegion``).
    bool darkRegion = false;
};

/// The best score among `chosen` and the outlines it replaced, one after another, that are near twins of an outline
/// of `area` (within a quarter of it). Each of a chain of slightly larger outlines may be nearly as well supported as
/// the last while the chain drifts from the crisp one it began with (onto a shadow's dark strip beside a page).
double strongestTwinScore(const Candidate &chosen, double area) {
    double best = chosen.score;
    for (const auto &r : chosen.replaced)
        if (1.25 * r.area >= area) best = std::max(best, strongestTwinScore(r, area));
    return best;
}

/// The outline of `a` and `b` together when they share a whole side (both its corners within `tolerance`), or
/// nothing. Two outlines cut from the same edges meet like that where a straight line runs across one document (the
/// edge of a justified text block, a shadow's edge); separate documents never share both corners of a side. A shadow's
/// soft, curving edge may leave the two pieces' cut sides further apart, up to three times `tolerance` at either end:
/// they are joined too when the sides beside the cut run on into each other (the cut's four corners within
/// `tolerance` of the joined outline).
std::optional<Quad> joinedAlongSharedSide(const Quad &a, const Quad &b, double tolerance) {
    for (int i = 0; i < 4; ++i) {
        for (int k = 0; k < 4; ++k) {
            // a's side i runs from a[i] to a[i + 1]; b's side k the other way round, from b[k + 1] to b[k].
            const double apart = std::max(cv::norm(a[i] - b[(k + 1) % 4]), cv::norm(a[(i + 1) % 4] - b[k]));
            if (apart > 3 * tolerance) continue;
            // The joined outline runs a2, a3, (the cut's end a[i], b[k + 1]), b2, b3, (its end b[k], a[i + 1]).
            const cv::Point2d &a2 = a[(i + 2) % 4], &a3 = a[(i + 3) % 4], &b2 = b[(k + 2) % 4], &b3 = b[(k + 3) % 4];
            if (apart > tolerance) {  // the sides beside the cut must run on into each other
                const Line past = lineThrough(a3, b2), back = lineThrough(b3, a2);
                if (std::max({past.distanceTo(a[i]), past.distanceTo(b[(k + 1) % 4]), back.distanceTo(b[k]),
                              back.distanceTo(a[(i + 1) % 4])}) > tolerance)
                    continue;
            }
            Quad joined{a2, a3, b2, b3};
            joined = ordered(joined);
            if (!isConvex(joined)) return std::nullopt;
            return joined;
        }
    }
    return std::nullopt;
}

/// The smallest convex quad round the convex polygon `hull` whose sides run along four of its sides, when it has
/// between four and eight corners: the outline of a document that two pieces of it make together, with a corner that
/// neither piece reaches (a hard shadow's edge cutting across it near the corner) restored where its sides meet.
std::optional<Quad> quadAlongSidesOf(const std::vector<cv::Point2d> &hull) {
    const int n = static_cast<int>(hull.size());
    if (n < 4 || n > 8) return std::nullopt;
    std::optional<Quad> best;
    double bestArea = std::numeric_limits<double>::max();
    const auto side = [&](int i) { return lineThrough(hull[i], hull[(i + 1) % n]); };
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b)
            for (int c = b + 1; c < n; ++c)
                for (int d = c + 1; d < n; ++d) {
                    const std::array<int, 4> sides{a, b, c, d};
                    Quad quad;
                    bool meets = true;
                    for (int k = 0; k < 4 && meets; ++k) {
                        const auto corner = intersect(side(sides[k]), side(sides[(k + 1) % 4]));
                        meets = corner.has_value();
                        if (meets) quad[(k + 1) % 4] = *corner;
                    }
                    if (!meets || !isConvex(quad)) continue;
                    const double area = std::abs(signedArea(quad));
                    if (area >= bestArea) continue;
                    const std::vector<cv::Point2f> outline(quad.begin(), quad.end());
                    if (std::any_of(hull.begin(), hull.end(), [&](cv::Point2d p) {
                            return cv::pointPolygonTest(outline, cv::Point2f(p), true) < -0.5;
                        }))
                        continue;
                    bestArea = area, best = ordered(quad);
                }
    return best;
}

/// How many corners of `piece` lie on the outline of `whole`, within `tolerance` of one of its sides.
int cornersOnOutline(const Quad &piece, const Quad &whole, double tolerance) {
    const auto distanceToSide = [](cv::Point2d p, cv::Point2d a, cv::Point2d b) {
        const cv::Point2d ab = b - a;
        const double t = std::clamp((p - a).dot(ab) / std::max(1e-12, ab.dot(ab)), 0.0, 1.0);
        return cv::norm(p - (a + ab * t));
    };
    int on = 0;
    for (const auto &corner : piece) {
        bool near = false;
        for (int side = 0; side < 4 && !near; ++side) near = distanceToSide(corner, whole[side], whole[(side + 1) % 4]) <= tolerance;
        on += near;
    }
    return on;
}

/// The area two convex quads share: `b` clipped by each side of `a` in turn (Sutherland-Hodgman), in doubles.
/// (OpenCV's intersectConvexConvex returns 0 when a corner of one lies on a side of the other, which outlines found
/// from the same edges often do.)
double overlapArea(const Quad &a, const Quad &b) {
    const double orientation = signedArea(a) < 0 ? -1 : 1;
    std::vector<cv::Point2d> clipped(b.begin(), b.end()), next;
    for (int side = 0; side < 4 && !clipped.empty(); ++side) {
        const cv::Point2d p = a[side], q = a[(side + 1) % 4];
        // Positive on the inner side of the edge p -> q.
        const auto inner = [&](cv::Point2d r) { return orientation * ((q - p).cross(r - p)); };
        next.clear();
        for (size_t k = 0; k < clipped.size(); ++k) {
            const cv::Point2d c = clipped[k], d = clipped[(k + 1) % clipped.size()];
            const double sc = inner(c), sd = inner(d);
            if (sc >= 0) next.push_back(c);
            if ((sc >= 0) != (sd >= 0)) next.push_back(c + (d - c) * (sc / (sc - sd)));
        }
        clipped.swap(next);
    }
    double area = 0;
    for (size_t k = 0; k < clipped.size(); ++k) area += clipped[k].cross(clipped[(k + 1) % clipped.size()]);
    return std::abs(area) / 2;
}

/// Whether outline `a` (of area `areaA`) overlaps `b` (of area `areaB`) by more than 15% of the smaller one: one over
/// the other, not two documents lying side by side.
bool overlapsMuch(const Quad &a, double areaA, const Quad &b, double areaB) {
    return overlapArea(a, b) > 0.15 * std::min(areaA, areaB);
}

/// The documents that `found` overlaps much (``overlapsMuch``), as pointers into `documents`.
std::vector<Candidate *> overlappedBy(std::vector<Candidate> &documents, const Candidate &found) {
    std::vector<Candidate *> overlapped;
    for (auto &d : documents)
        if (overlapsMuch(d.quad, d.area, found.quad, found.area)) overlapped.push_back(&d);
    return overlapped;
}

/// Fine detail of the photo: |gray - Gaussian(sigma 2)| in sixteenths of a grey level. Woven cloth, carpet, granite and
/// wood grain are busy with it everywhere; paper only along its print.
cv::Mat fineDetail(const cv::Mat &smallBGR) {
    cv::Mat gray, blurred, detail;
    cv::cvtColor(smallBGR, gray, cv::COLOR_BGR2GRAY);
    cv::GaussianBlur(gray, blurred, cv::Size(0, 0), 2.0);
    cv::absdiff(gray, blurred, detail);
    detail.convertTo(detail, CV_16U, 16);
    return detail;
}

/// The texture of the photo's surface at the sensor's finest scale, on the detection grid: the mean of |gray -
/// Gaussian(sigma 1)| over each working pixel's block of `fine` (the photo, or its half-size copy when over 3.5 MP), in
/// sixteenths of a grey level. The threads of woven cloth, the fibres of carpet and the grains of granite make it high
/// everywhere, while paper is smooth between its print: the cells of a gingham cloth as white as the paper beside them
/// are still woven.
cv::Mat fineTexture(const cv::Mat &fine, cv::Size workingSize) {
    cv::Mat texture(workingSize, CV_16U);
    // In bands of working rows, so that the working buffers stay in cache and no photo-sized one is allocated; each
    // band is read with the Gaussian's reach of rows above and below it, so that the band edges are exact.
    constexpr int reach = 3, bandRows = 16;
    const double rowScale = static_cast<double>(fine.rows) / workingSize.height;
    const double columnScale = static_cast<double>(fine.cols) / workingSize.width;
    std::vector<int> columnStart(workingSize.width + 1);
    for (int x = 0; x <= workingSize.width; ++x) columnStart[x] = std::min(fine.cols, static_cast<int>(x * columnScale));
    cv::Mat luminance, blurred;
    std::vector<uint32_t> columnSums(fine.cols);
    for (int band = 0; band < workingSize.height; band += bandRows) {
        const int lastRow = std::min(workingSize.height, band + bandRows);
        const int top = static_cast<int>(band * rowScale), bottom = std::min(fine.rows, static_cast<int>(lastRow * rowScale));
        const int readTop = std::max(0, top - reach), readBottom = std::min(fine.rows, bottom + reach);
        const cv::Mat rows = fine.rowRange(readTop, readBottom);
        if (rows.channels() == 3) cv::cvtColor(rows, luminance, cv::COLOR_BGR2GRAY); else rows.copyTo(luminance);
        cv::GaussianBlur(luminance, blurred, cv::Size(7, 7), 1.0);
        cv::absdiff(luminance, blurred, blurred);
        for (int y = band; y < lastRow; ++y) {
            const int from = static_cast<int>(y * rowScale), to = std::min(fine.rows, static_cast<int>((y + 1) * rowScale));
            std::fill(columnSums.begin(), columnSums.end(), 0u);
            for (int row = from; row < to; ++row) {
                const uchar *difference = blurred.ptr<uchar>(row - readTop);
                for (int c = 0; c < fine.cols; ++c) columnSums[c] += difference[c];
            }
            uint16_t *out = texture.ptr<uint16_t>(y);
            for (int x = 0; x < workingSize.width; ++x) {
                uint32_t sum = 0;
                for (int c = columnStart[x]; c < columnStart[x + 1]; ++c) sum += columnSums[c];
                const double count = static_cast<double>(to - from) * (columnStart[x + 1] - columnStart[x]);
                out[x] = count > 0 ? cv::saturate_cast<uint16_t>(16 * sum / count) : 0;
            }
        }
    }
    return texture;
}

/// Where the surface is woven (cloth) and the documents on it are not: the threshold of fine texture that separates
/// them, from Otsu's split of its logarithm.
struct Surface {
    cv::Mat texture;  // fineTexture
    bool woven = false;
    double threshold = 0;  // in the units of fineTexture
    /// Where the texture averaged over a few working pixels is on the paper's side of its split, when the photo's
    /// border shows the rough side but not clearly enough rougher to call woven; empty otherwise.
    cv::Mat smoothPatches;
};

/// A mask of `size` with the inside of `quad` set (255); with an `origin`, the mask covers the rectangle of `size` at
/// that point of the image `quad` lies in.
cv::Mat filledMask(cv::Size size, const Quad &quad, cv::Point origin = {0, 0}) {
    std::vector<cv::Point> polygon;
    for (const auto &p : quad) polygon.emplace_back(cvRound(p.x) - origin.x, cvRound(p.y) - origin.y);
    cv::Mat mask = cv::Mat::zeros(size, CV_8U);
    cv::fillConvexPoly(mask, polygon, 255);
    return mask;
}

/// The part of an image of `size` that holds `quads` and `margin` pixels round them: where masks of the quads
/// (``filledMask``), eroded or dilated by up to `margin - 1` pixels, have every pixel they set. Masks made over it
/// alone, with its origin, give what masks of the whole image give there, in a fraction of the time.
cv::Rect reachOf(std::initializer_list<const Quad *> quads, int margin, cv::Size size) {
    double left = size.width, top = size.height, right = -1, bottom = -1;
    for (const Quad *quad : quads)
        for (const auto &p : *quad)
            left = std::min(left, p.x), right = std::max(right, p.x), top = std::min(top, p.y), bottom = std::max(bottom, p.y);
    const auto clamped = [](double value, int limit) {
        return static_cast<int>(std::clamp(value, -1.0, static_cast<double>(limit + 1)));
    };
    const int x0 = clamped(std::floor(left), size.width) - margin, y0 = clamped(std::floor(top), size.height) - margin;
    const int x1 = clamped(std::ceil(right), size.width) + margin + 1, y1 = clamped(std::ceil(bottom), size.height) + margin + 1;
    return cv::Rect(x0, y0, x1 - x0, y1 - y0) & cv::Rect(0, 0, size.width, size.height);
}

/// A run of columns in one row, both ends included; empty when `from` > `to`.
struct Run {
    int from = 1, to = 0;
    bool empty() const { return from > to; }
};

/// Calls `visit(from, to)` with the pieces of `run` that none of `holes` covers, left to right.
template <typename Visit>
void forEachPieceOutside(Run run, std::initializer_list<Run> holes, Visit visit) {
    std::array<Run, 2> sorted{};
    size_t count = 0;
    for (const Run &hole : holes)
        if (!hole.empty() && count < sorted.size()) sorted[count++] = hole;
    if (count == 2 && sorted[1].from < sorted[0].from) std::swap(sorted[0], sorted[1]);
    int next = run.from;
    for (size_t k = 0; k < count && next <= run.to; ++k) {
        if (sorted[k].to < next) continue;
        if (sorted[k].from > next) visit(next, std::min(run.to, sorted[k].from - 1));
        next = std::max(next, sorted[k].to + 1);
    }
    if (next <= run.to) visit(next, run.to);
}

/// The mask of a convex quad (``filledMask``) over a part of an image, as the one run of pixels it sets in each row,
/// and what eroding or dilating that mask by a square gives in each row, worked out from the runs (with the edges of
/// the part as `cv::erode` and `cv::dilate` have them: set when eroding, unset when dilating) without making images.
/// Outlines are measured against each other hundreds of times per photo; eroding and dilating whole masks took most
/// of that time.
class QuadRuns {
  public:
    /// The runs of `quad` over `area`, a part of an image. (Where the quad reaches past the image's edge, OpenCV's
    /// filling may leave a gap of a pixel or two in a row; the run spans it, as the quad does.)
    QuadRuns(const Quad &quad, const cv::Rect &area) : area(area), runs(area.height) {
        const cv::Mat mask = filledMask(area.size(), quad, area.tl());
        for (int y = 0; y < area.height; ++y) {
            const uchar *row = mask.ptr<uchar>(y);
            const auto *start = static_cast<const uchar *>(std::memchr(row, 255, area.width));
            if (!start) continue;
            int last = area.width - 1;
            while (row[last] == 0) --last;
            runs[y] = {area.x + static_cast<int>(start - row), area.x + last};
        }
    }

    /// The columns (of the image) that the mask sets in row `y` (of the image).
    Run at(int y) const { return y < area.y || y >= area.y + area.height ? Run{} : runs[y - area.y]; }

    /// The columns that eroding the mask by a square `reach` pixels out from its centre keeps in row `y`.
    Run eroded(int y, int reach) const {
        int left = area.x, right = area.x + area.width - 1;
        for (int other = y - reach; other <= y + reach; ++other) {
            if (other < area.y || other >= area.y + area.height) continue;  // beyond the part's edge: set
            const Run run = runs[other - area.y];
            if (run.empty()) return {};
            left = std::max(left, run.from), right = std::min(right, run.to);
        }
        const int last = area.x + area.width - 1;
        return {left == area.x ? left : left + reach, right == last ? right : right - reach};
    }

    /// The columns that dilating the mask by a square `reach` pixels out from its centre sets in row `y`, within the
    /// part. (The runs of a convex quad's rows within a few rows of each other overlap or nearly touch, so the
    /// dilated runs join into one.)
    Run dilated(int y, int reach) const {
        int left = INT_MAX, right = INT_MIN;
        for (int other = std::max(y - reach, area.y); other <= std::min(y + reach, area.y + area.height - 1); ++other) {
            const Run run = runs[other - area.y];
            if (!run.empty()) left = std::min(left, run.from), right = std::max(right, run.to);
        }
        if (left > right) return {};
        return {std::max(area.x, left - reach), std::min(area.x + area.width - 1, right + reach)};
    }

  private:
    cv::Rect area;
    std::vector<Run> runs;  // one per row of `area`
};

/// The fine texture along the inside of a quad's outline (the median of a band 2 to 7 working pixels in): the margin of
/// a document is paper, while an outline traced through a cloth along the edges of its checks has cloth inside it.
///
/// The band is what eroding the quad's mask by 5 x 5 pixels keeps and eroding it by 15 x 15 does not, the photo's edge
/// counting as inside (as `cv::erode` has it). This runs on every outline proposed on woven cloth, hundreds of them.
double rimTexture(const cv::Mat &texture, const Quad &quad) {
    const cv::Rect area = reachOf({&quad}, 8, texture.size());
    if (area.empty()) return 0;
    const QuadRuns runs(quad, area);
    std::vector<uint16_t> values;
    for (int y = area.y; y < area.y + area.height; ++y) {
        const uint16_t *t = texture.ptr<uint16_t>(y);
        forEachPieceOutside(runs.eroded(y, 2), {runs.eroded(y, 7)},
                            [&](int from, int to) { values.insert(values.end(), t + from, t + to + 1); });
    }
    return values.size() < 50 ? 0 : valueOfRank(values, values.size() / 2);
}

/// Where a texture map splits into a smooth and a rough class, and the mean of each.
struct TextureSplit {
    double threshold;  // in the units of fineTexture
    double smoothMean, roughMean;
};

/// Otsu's split of the first `count` bins of `histogram`: the last bin of the lower class, where the two classes'
/// means lie furthest apart weighted by their sizes; nothing when those bins hold fewer than two distinct values.
template <typename Count, size_t N>
std::optional<int> otsuSplit(const std::array<Count, N> &histogram, int count) {
    double total = 0, sum = 0;
    for (int b = 0; b < count; ++b) total += static_cast<double>(histogram[b]), sum += b * static_cast<double>(histogram[b]);
    double below = 0, belowSum = 0, best = -1;
    std::optional<int> split;
    for (int b = 0; b + 1 < count; ++b) {
        below += static_cast<double>(histogram[b]), belowSum += b * static_cast<double>(histogram[b]);
        const double above = total - below;
        if (below == 0 || above == 0) continue;
        const double gap = belowSum / below - (sum - belowSum) / above;
        const double between = below * above * gap * gap;
        if (between > best) best = between, split = b;
    }
    return split;
}

/// Otsu's split of the logarithm of a texture map (``fineTexture``, or an average of it).
TextureSplit splitTexture(const cv::Mat &texture) {
    constexpr int bins = 256;
    std::array<double, bins> histogram{};
    std::vector<int> counts(65536, 0);
    for (int y = 0; y < texture.rows; ++y) {
        const uint16_t *row = texture.ptr<uint16_t>(y);
        for (int x = 0; x < texture.cols; ++x) ++counts[row[x]];
    }
    for (int value = 0; value < 65536; ++value)
        if (counts[value]) histogram[std::min(bins - 1, static_cast<int>(std::log2(1 + value / 4.0) * 24))] += counts[value];
    const int split = otsuSplit(histogram, bins).value_or(0);
    double low = 0, high = 0, lowCount = 0, highCount = 0;
    for (int b = 0; b < bins; ++b) (b <= split ? low : high) += b * histogram[b], (b <= split ? lowCount : highCount) += histogram[b];
    const auto value = [](double b) { return 4.0 * (std::exp2(b / 24.0) - 1); };
    return {value(split + 0.5), value(low / std::max(1.0, lowCount)), value(high / std::max(1.0, highCount))};
}

/// Splits the fine texture into paper and surface, and says whether the surface is woven: clearly rougher than the
/// paper, and what most of the photo's border shows.
Surface wovenSurface(cv::Mat texture) {
    Surface surface{std::move(texture)};
    surface.threshold = splitTexture(surface.texture).threshold;
    // Whether the surface is woven is judged on the texture averaged over a few working pixels: a JPEG's blocks keep
    // or drop the finest detail one by one, which spreads the texture of a plain desk and of the paper on it over the
    // same wide range pixel by pixel, and a split of that range is no boundary between them.
    cv::Mat averaged;
    cv::blur(surface.texture, averaged, cv::Size(5, 5));
    const TextureSplit split = splitTexture(averaged);
    // The surface round the documents is what the photo's border shows: woven when most of it is above the split.
    const int band = std::max(2, std::min(averaged.cols, averaged.rows) / 25);
    double border = 0, borderWoven = 0;
    for (int y = 0; y < averaged.rows; ++y) {
        const uint16_t *row = averaged.ptr<uint16_t>(y);
        const bool edgeRow = y < band || y >= averaged.rows - band;
        for (int x = 0; x < averaged.cols; ++x) {
            if (!edgeRow && x >= band && x < averaged.cols - band) continue;
            border += 1;
            if (row[x] > split.threshold) borderWoven += 1;
        }
    }
    // Clearly rougher: twice as rough on average. Green gingham round a receipt whose dense print and a shadow across
    // it roughen its paper measured 2.2 times it (seed 85000 receipt-02), red gingham round a card and a receipt 2.4.
    surface.woven = split.roughMean >= 2 * split.smoothMean && borderWoven >= 0.6 * border;
    // Short of that (a grey gingham in a noisy 2.8 MP photo: 1.9 times as rough, seed 189000 multi-01), the texture
    // pixel by pixel spreads over both sides of the split, but averaged it still shows where paper lies: a white card
    // on the gingham's white squares, which neither colour nor the fine detail outlines.
    if (!surface.woven && borderWoven >= 0.6 * border && split.roughMean >= 1.5 * split.smoothMean)
        surface.smoothPatches = averaged < split.threshold;
    return surface;
}

/// Two grey levels of fine detail: a plain desk's sensor noise and JPEG artefacts stay below it.
constexpr int plainSurface = 16 * 2;

/// A quantile of a 16-bit map (``fineDetail`` or ``fineTexture``) over the ring between two nested outlines, away from
/// both; nothing when the ring is too thin to judge.
std::optional<double> ringQuantile(const cv::Mat &detail, const Quad &outer, const Quad &inner, double quantile) {
    const cv::Rect area = reachOf({&outer, &inner}, 4, detail.size());
    if (area.empty()) return std::nullopt;
    // Away from both outlines (3 pixels, a 7 x 7 square): their edges are detail of their own.
    const QuadRuns ring(outer, area), hole(inner, area);
    std::vector<uint16_t> values;
    for (int y = area.y; y < area.y + area.height; ++y) {
        const uint16_t *d = detail.ptr<uint16_t>(y);
        forEachPieceOutside(ring.eroded(y, 3), {hole.dilated(y, 3)},
                            [&](int from, int to) { values.insert(values.end(), d + from, d + to + 1); });
    }
    if (values.size() < 200) return std::nullopt;
    return valueOfRank(values, static_cast<size_t>(quantile * static_cast<double>(values.size() - 1)));
}

/// Chroma distance (Lab a, b) beyond which two surfaces differ in colour, not only in light: a shadow darkens paper
/// or a desk without changing its chroma, while a wooden or coloured desk differs from white paper by 15 or more.
constexpr double otherChroma = 10;

Quad grown(const Quad &quad, double distance);

/// A quantile of a 16-bit map over the band just outside an outline (2 to 14 working pixels out): the surface the
/// outline lies on; nothing when the band is too thin to judge.
std::optional<double> quantileJustOutside(const cv::Mat &map, const Quad &outline, double quantile) {
    return ringQuantile(map, grown(outline, 14), grown(outline, 2), quantile);
}

/// The distance between two Lab colours' chroma (a and b).
double chromaDistance(const cv::Scalar &a, const cv::Scalar &b) { return std::hypot(a[1] - b[1], a[2] - b[2]); }

/// Chroma of a colour in 8-bit Lab (a and b stored from 128).
double chromaOf(const cv::Scalar &lab) { return std::hypot(lab[1] - 128, lab[2] - 128); }

/// The chroma a band of colour along a document's side has of its own, and differs from the paper and the desk by: an
/// accent bar along a business card's end (red, blue, green, orange or purple, chroma 40 to 70 as printed).
constexpr double bandChroma = 20;

/// What a strip between two nested outlines, the inside of the inner one and a band just outside the outer one look
/// like: mean Lab colours, and typical lightness.
struct StripColours {
    cv::Scalar strip, inside, outside;
    double stripLightness, outsideLightness;  // medians
    double paperLightness;  // the inside's upper quartile: its paper, between the print
    double stripLikeOutside;  // the share of the strip's pixels within ``otherChroma`` of the outside's mean chroma

    /// Whether the strip has the colour of the desk beyond: its chroma over eight tenths of it, its lightness within
    /// 15 levels.
    bool stripHasDeskColour() const {
        return stripLikeOutside >= 0.8 && std::abs(stripLightness - outsideLightness) < 15;
    }

    /// Whether the strip is the inside's paper in more light: of its chroma, lighter than its paper by 20 levels or
    /// more but not twice as light (a shadow darkens paper by a factor).
    bool stripIsPaperInMoreLight() const {
        return chromaDistance(strip, inside) < otherChroma && stripLightness >= paperLightness + 20 &&
               2 * paperLightness >= stripLightness;
    }

    /// Whether the strip is the inside's paper in shade: of its chroma, darker than its paper by 20 levels or more but
    /// at least half as light.
    bool stripIsPaperInShade() const {
        return chromaDistance(strip, inside) < otherChroma && stripLightness <= paperLightness - 20 &&
               2 * stripLightness >= paperLightness;
    }
};

/// Pixels of ``Views/lab`` (8-bit Lab values), added run by run: the sum of their colours, and how many there are of
/// each lightness.
struct RegionPixels {
    cv::Vec3d sum = {0, 0, 0};
    std::array<uint32_t, 256> lightness{};
    size_t count = 0;

    /// Adds the pixels of `row` (of 8-bit Lab values) from column `from` to `to` (included), then calls `visit` with
    /// the colour of each.
    template <typename Visit>
    void add(const cv::Vec3f *row, int from, int to, Visit visit) {
        for (int x = from; x <= to; ++x) {
            sum += cv::Vec3d(row[x]);
            ++lightness[std::clamp(static_cast<int>(row[x][0]), 0, 255)];
            ++count;
            visit(row[x]);
        }
    }
    void add(const cv::Vec3f *row, int from, int to) { add(row, from, to, [](const cv::Vec3f &) {}); }
    cv::Scalar mean() const { return count ? cv::Scalar(sum[0], sum[1], sum[2]) / static_cast<double>(count) : cv::Scalar(); }
    /// The lightness that a share `quantile` of the pixels stay below (as ``quantileOf`` picks it); 0 when there are none.
    double lightnessQuantile(double quantile) const {
        if (count == 0) return 0;
        const auto rank = static_cast<size_t>(quantile * static_cast<double>(count - 1));
        size_t seen = 0;
        for (int value = 0; value < 256; ++value)
            if ((seen += lightness[value]) > rank) return value;
        return 255;
    }
    RegionColour colour(double quantile) const { return {mean(), lightnessQuantile(quantile), count}; }
};

/// How far ``stripColours`` keeps its regions from the outlines, as the reach of the square to erode or dilate by: 2
/// working pixels.
constexpr int clearOfOutline = 2;

/// The pixels of `lab` (``Views/lab``) inside `quad`, ``clearOfOutline`` clear of it.
RegionPixels pixelsInside(const cv::Mat &lab, const Quad &quad) {
    const cv::Rect area = reachOf({&quad}, 3, lab.size());
    RegionPixels inside;
    if (area.empty()) return inside;
    const QuadRuns runs(quad, area);
    for (int y = area.y; y < area.y + area.height; ++y)
        if (const Run run = runs.eroded(y, clearOfOutline); !run.empty()) inside.add(lab.ptr<cv::Vec3f>(y), run.from, run.to);
    return inside;
}

const RegionColour &Views::colourInside(const Quad &quad) const {
    if (const auto known = insides.find(cornersOf(quad)); known != insides.end()) return known->second;
    return insides.emplace(cornersOf(quad), pixelsInside(lab, quad).colour(0.75)).first->second;
}

/// The pixels of `lab` inside `within` (each row's run as `runOf(runs, y)` takes it from `within`'s ``QuadRuns``) that
/// are neither inside `hole` nor within ``clearOfOutline`` of it.
template <typename RunOf>
RegionPixels pixelsOutsideHole(const cv::Mat &lab, const Quad &within, RunOf runOf, const Quad &hole) {
    const cv::Rect area = reachOf({&within}, 3, lab.size());
    RegionPixels pixels;
    if (area.empty()) return pixels;
    const QuadRuns runs(within, area), holeRuns(hole, area);
    for (int y = area.y; y < area.y + area.height; ++y) {
        const cv::Vec3f *row = lab.ptr<cv::Vec3f>(y);
        forEachPieceOutside(runOf(runs, y), {holeRuns.dilated(y, clearOfOutline)},
                            [&](int from, int to) { pixels.add(row, from, to); });
    }
    return pixels;
}

const RegionColour &Views::colourJustOutside(const Quad &quad) const {
    if (const auto known = bands.find(cornersOf(quad)); known != bands.end()) return known->second;
    const auto band = pixelsOutsideHole(lab, grown(quad, 8), [](const QuadRuns &runs, int y) { return runs.at(y); }, quad);
    return bands.emplace(cornersOf(quad), band.colour(0.5)).first->second;
}

/// The colour of the part of `piece` that lies outside `outer` (both ``clearOfOutline`` clear of their outlines), with
/// its median lightness: the lit end of a document that a shadow's outline runs across.
RegionColour colourOfPartOutside(const cv::Mat &lab, const Quad &piece, const Quad &outer) {
    const auto eroded = [](const QuadRuns &runs, int y) { return runs.eroded(y, clearOfOutline); };
    return pixelsOutsideHole(lab, piece, eroded, outer).colour(0.5);
}

/// Whether the lightness inside `quad` (2 working pixels clear of its outline) falls into three tones or more, spread
/// wide: its median at least 15 levels from both its quartiles. A block of a checked cloth's squares holds a dark, a
/// middle and a light tone in about equal shares. A card's stock is of one tone with a small share of print on it, and
/// a card with a shadow across it holds two (a quartile and the median within a few levels of each other).
bool holdsThreeTones(const cv::Mat &lab, const Quad &quad) {
    const RegionPixels inside = pixelsInside(lab, quad);
    const double median = inside.lightnessQuantile(0.5);
    return std::min(median - inside.lightnessQuantile(0.25), inside.lightnessQuantile(0.75) - median) >= 15;
}

/// The ``StripColours`` of the strip inside `larger` but outside `smaller` (and outside `besideSmaller`, another
/// outline inside `larger`, when given), of the inside of `smaller`, and of a band 2 to 8 working pixels outside
/// `larger`, each 2 pixels clear of the outlines; nothing when one of them has under 50 pixels.
std::optional<StripColours> stripColours(const Views &views, const Quad &larger, const Quad &smaller,
                                         const Quad *besideSmaller = nullptr) {
    const RegionColour &inside = views.colourInside(smaller), &outside = views.colourJustOutside(larger);
    if (inside.pixels < 50 || outside.pixels < 50) return std::nullopt;
    // The strip lies inside `larger`: only what lies within its reach matters.
    const cv::Rect area = reachOf({&larger}, 3, views.lab.size());
    if (area.empty()) return std::nullopt;
    const QuadRuns strip(larger, area), hole(smaller, area);
    const std::optional<QuadRuns> besideHole =
        besideSmaller ? std::optional(QuadRuns(*besideSmaller, area)) : std::nullopt;
    // The strip's pixels, and how many have the outside's chroma (within ``otherChroma``, compared squared).
    RegionPixels inStrip;
    int alike = 0;
    const auto count = [&](const cv::Vec3f &colour) {
        const double da = colour[1] - outside.mean[1], db = colour[2] - outside.mean[2];
        alike += da * da + db * db < otherChroma * otherChroma;
    };
    for (int y = area.y; y < area.y + area.height; ++y) {
        const cv::Vec3f *row = views.lab.ptr<cv::Vec3f>(y);
        const Run besideRun = besideHole ? besideHole->dilated(y, clearOfOutline) : Run{};
        forEachPieceOutside(strip.eroded(y, clearOfOutline), {hole.dilated(y, clearOfOutline), besideRun},
                            [&](int from, int to) { inStrip.add(row, from, to, count); });
    }
    if (inStrip.count < 50) return std::nullopt;
    return StripColours{inStrip.mean(), inside.mean, outside.mean, inStrip.lightnessQuantile(0.5),
                        outside.lightness, inside.lightness, alike / static_cast<double>(inStrip.count)};
}

/// Whether `outline` (of `area`) holds two documents, `first` and `second` (covering `covered` of it: what of them lies
/// inside it, for one may stick out past its side, as the second of two cards lying end to end does in seed 231000
/// multi-01), apart across a band of desk: what it adds to them is a twentieth of it or more, with the desk's colour
/// (``StripColours/stripHasDeskColour``). Two cards lying one above the other, their sides in line, are outlined
/// together along those sides (seed 139000 multi-04); a book's gutter between its pages and the shaded part of a
/// receipt leave a thinner strip (corpus spread-02: 2.7%).
bool holdsApartAcrossDesk(const Views &views, const Quad &outline, double area, const Quad &first, const Quad &second,
                          double covered) {
    if (covered >= 0.95 * area) return false;
    const auto colours = stripColours(views, outline, first, &second);
    return colours && colours->stripHasDeskColour();
}

/// Whether the strip inside `larger` but outside `smaller` (away from both outlines) is desk rather than document:
/// its chroma (Lab a and b) is far from that of the inside of `smaller` and close to that of a band just outside
/// `larger`. A shadow darkens a desk without changing its chroma; a coloured band along a card's side has a chroma of
/// its own, unlike both the card and the desk. False when the strip is too thin to judge.
bool stripIsDesk(const Views &views, const Quad &larger, const Quad &smaller) {
    const auto colours = stripColours(views, larger, smaller);
    return colours && chromaDistance(colours->strip, colours->inside) > otherChroma &&
           chromaDistance(colours->strip, colours->outside) < otherChroma;
}

/// The outline with one side moved in to the document's own edge, when the outline runs past that edge over a strip
/// of the desk to a straight edge in the desk that happens to continue the outline: seed 133000 multi-05, a receipt
/// outlined on to a line of the wood's grain a tenth of its length beyond its end (IoU 0.900). Such a side has desk,
/// not paper (the lighter half of the outline's middle, by colour), just inside most of it. The side's two ends are
/// moved along the sides next to it (each by up to two fifths of them, one by at least 6%) to the nearest place where
/// a side steps along most of its length with paper just inside it and none just outside, and the move is kept when
/// the strip it leaves out is the desk, not smooth paper lighter than it (`detail`: ``fineDetail``). Nothing when
/// every side has paper just inside it, or no such move is found.
std::optional<Quad> trimmedOffDesk(const Views &views, const cv::Mat &detail, const Quad &quad) {
    const cv::Mat &lab = views.lab;
    const double orientation = signedArea(quad) > 0 ? 1 : -1;
    // The paper: the lighter half of a grid of places over the middle of the outline (the paper between the print).
    std::vector<cv::Vec3f> middle;
    for (int i = 0; i < 7; ++i)
        for (int j = 0; j < 7; ++j) {
            const double u = 0.2 + 0.1 * i, v = 0.2 + 0.1 * j;
            const cv::Point2d p = (quad[0] * (1 - u) + quad[1] * u) * (1 - v) + (quad[3] * (1 - u) + quad[2] * u) * v;
            cv::Vec3f colour;
            if (sample<cv::Vec3f>(lab, p, colour)) middle.push_back(colour);
        }
    if (middle.size() < 20) return std::nullopt;
    std::sort(middle.begin(), middle.end(), [](const cv::Vec3f &a, const cv::Vec3f &b) { return a[0] > b[0]; });
    middle.resize(middle.size() / 2);
    cv::Vec3f paper(0, 0, 0);
    for (const auto &c : middle) paper += c * (1.0f / middle.size());
    const auto isPaper = [&](const cv::Vec3f &c) {
        return std::hypot(c[1] - paper[1], c[2] - paper[2]) < otherChroma && std::abs(c[0] - paper[0]) < 25;
    };
    // The shares of places just inside and just outside the side from `a` to `b` that are paper; nothing when too few
    // fall in the image.
    constexpr int samples = 32;
    const auto paperAcross = [&](cv::Point2d a, cv::Point2d b) -> std::optional<std::pair<double, double>> {
        int seen = 0, inside = 0, outside = 0;
        pointsAcrossSide(lab.size(), a, b, orientation, samples, [&](cv::Point2d in, cv::Point2d out) {
            cv::Vec3f colourIn, colourOut;
            if (!sample<cv::Vec3f>(lab, in, colourIn) || !sample<cv::Vec3f>(lab, out, colourOut)) return;
            ++seen;
            inside += isPaper(colourIn);
            outside += isPaper(colourOut);
        });
        if (seen < samples / 2) return std::nullopt;
        return std::make_pair(static_cast<double>(inside) / seen, static_cast<double>(outside) / seen);
    };
    // The places along a side where colour or texture steps from inside to outside (a white page on the white
    // checks of a gingham cloth steps in texture only, on its red checks in colour too).
    const auto stepping = [&](cv::Point2d a, cv::Point2d b) {
        int count = 0;
        stepsAcrossSide(views, a, b, orientation, samples,
                        [&](const cv::Vec3f &, const cv::Vec3f &, bool colourSteps, bool textureSteps) {
                            count += colourSteps || textureSteps;
                        });
        return count;
    };
    for (int side = 0; side < 4; ++side) {
        const cv::Point2d a = quad[side], b = quad[(side + 1) % 4];
        const cv::Point2d beforeA = quad[(side + 3) % 4], afterB = quad[(side + 2) % 4];
        const auto across = paperAcross(a, b);
        if (!across || across->first >= 0.4) continue;
        // The nearest move (least moved in all, then least at the side's first end) whose side steps along three
        // fifths of it, with paper just inside it and none just outside (a line of print has paper on both sides, a
        // barcode's edge none inside). A move leaves out a wedge of at least 6% of a side next to it: a thinner strip
        // is the rim of a book's cover round its pages (seed 125000 spread-01 and spread-02, moved by 2-4% onto the
        // pages' edge, outlined a little worse).
        const auto nearestMove = [&]() -> std::optional<Quad> {
            for (int total = 3; total <= 40; ++total)
                for (int i = std::max(0, total - 20); i <= std::min(20, total); ++i) {
                    const int j = total - i;
                    if (std::max(i, j) < 3) continue;
                    const cv::Point2d movedA = a + (beforeA - a) * (0.02 * i), movedB = b + (afterB - b) * (0.02 * j);
                    if (stepping(movedA, movedB) < 0.6 * samples) continue;
                    const auto movedAcross = paperAcross(movedA, movedB);
                    if (!movedAcross || movedAcross->first < 0.7 || movedAcross->second > 0.3) continue;
                    Quad moved = quad;
                    moved[side] = movedA, moved[(side + 1) % 4] = movedB;
                    if (isConvex(moved) && !isDegenerate(moved)) return moved;
                }
            return std::nullopt;
        };
        // The strip the nearest move leaves out must be desk (``stripIsDesk``): a shadow across a page's end leaves
        // paper of the page's chroma, and a coloured band along a card's side has a chroma of its own. The moves
        // beyond the nearest are not tried: a strip that also takes in some of the document, its paper and print
        // pulling the strip's mean chroma towards grey, can pass for a darker desk's. (Texture would not tell a woven
        // desk either: print is as rough at the working size. So a wedge of red and white gingham, whose checks
        // average within 10 of the paper's chroma, is left: seed 133000 receipt-01.)
        // Nor may it be smooth stock clearly lighter than a rough desk (its fine detail, relative to its lightness,
        // under half the desk's just outside, and 25 levels lighter): paper in a phone's bluish shadow, of the
        // granite's chroma but not of its grain (seed 181000 multi-06, a card cut along the shadow's edge: 0.794).
        // Relative detail, because a shadow dims a rough desk's detail with its light.
        const auto leavesOutPaper = [&](const Quad &moved) {
            const auto strip = ringQuantile(detail, quad, moved, 0.5), desk = quantileJustOutside(detail, quad, 0.5);
            const auto colours = stripColours(views, quad, moved);
            if (!strip || !desk || !colours) return false;
            const double stripDetail = *strip / std::max(1.0, colours->stripLightness);
            const double deskDetail = *desk / std::max(1.0, colours->outsideLightness);
            return stripDetail < 0.5 * deskDetail && colours->stripLightness >= colours->outsideLightness + 25;
        };
        if (const auto moved = nearestMove(); moved && stripIsDesk(views, quad, *moved) && !leavesOutPaper(*moved))
            return moved;
    }
    return std::nullopt;
}

/// The outline with a side moved out over a band of colour that runs along it outside: the accent bar along a business
/// card's end, which colour thresholds and edges often leave out of the card's outline (it steps from the card's
/// paper more than from a dark desk). At sixteen places along each side, the colours of the working copy `smallBGR`
/// are read outwards: a band has a colour of its own just outside the side (``bandChroma``, and as far from the paper's
/// inside), then steps to something else as far from it in chroma (the desk) within an eighth of the document's
/// extent across the side. The side is moved out by the band's width where seven places or more find a band of one
/// width (within a pixel and a sixth of it): a thumb over the bar hides the rest. Colour cast on the desk and the
/// mottling or grain of it keep its chroma, and a shadow darkens without changing it, so none of them make a band.
/// A band that runs on round a corner, outside a side next to it too, is a rim round the document, not part of it:
/// the cover of a book round its pages (the corpus's spread-01, whose navy cover shows below the pages). A card has one
/// accent bar: an outline with a band along two sides is left as it is.
std::optional<Quad> widenedOverBand(const cv::Mat &smallBGR, const Quad &quad) {
    if (isDegenerate(quad)) return std::nullopt;
    const double orientation = signedArea(quad) > 0 ? 1 : -1;
    constexpr int places = 16, paperDepth = 4;
    const auto apart = [](const cv::Vec3b &x, const cv::Vec3b &y) { return chromaDistance(cv::Scalar(x), cv::Scalar(y)); };
    // Per side: its outward normal, and the Lab colours read at each place (a row) from `paperDepth` pixels inside to
    // `reach` outside it, one pixel apart (empty when the side's reach is too short or leaves the image).
    struct Side {
        cv::Point2d outward;
        int reach = 0;
        cv::Mat3b lab;
        cv::Vec3b at(int place, int depth) const { return lab(place, depth + paperDepth); }
    };
    std::array<Side, 4> sides;
    for (int side = 0; side < 4; ++side) {
        const cv::Point2d a = quad[side], b = quad[(side + 1) % 4];
        const cv::Point2d direction = (b - a) * (1.0 / cv::norm(b - a));
        Side &s = sides[side];
        s.outward = cv::Point2d(direction.y, -direction.x) * orientation;
        const double across = 0.5 * (cv::norm(quad[(side + 2) % 4] - b) + cv::norm(quad[(side + 3) % 4] - a));
        s.reach = static_cast<int>(std::ceil(across / 8)) + 3;
        cv::Mat3b colours(places, paperDepth + s.reach + 1);
        bool inImage = true;
        for (int i = 0; i < places && inImage; ++i) {
            const cv::Point2d base = a + (b - a) * (0.1 + 0.8 * (i + 0.5) / places);
            for (int d = -paperDepth; d <= s.reach && inImage; ++d) {
                cv::Vec3f value;
                inImage = sample<cv::Vec3b>(smallBGR, base + s.outward * d, value);
                colours(i, d + paperDepth) = value;  // rounded and saturated
            }
        }
        if (inImage) cv::cvtColor(colours, s.lab, cv::COLOR_BGR2Lab);
    }
    // The places just outside `side` whose colour is within `bandChroma` of `colour`.
    const auto placesOfColour = [&](int side, const cv::Vec3b &colour) {
        const Side &s = sides[side];
        if (s.lab.empty()) return 0;
        int count = 0;
        for (int i = 0; i < places; ++i) count += apart(s.at(i, 1), colour) < bandChroma;
        return count;
    };
    std::optional<Quad> widened;
    for (int side = 0; side < 4; ++side) {
        const Side &s = sides[side];
        if (s.lab.empty() || s.reach < 5) continue;
        std::vector<int> widths;
        std::vector<cv::Vec3b> bands;
        for (int i = 0; i < places; ++i) {
            const cv::Vec3b paper = s.at(i, -paperDepth + 1);
            // The band begins a pixel out, or two where the pixel between is a blend of paper and band (the side
            // found a pixel short of a blurred bar's edge: seed 163000 card-05, a red bar on a dark green card).
            for (int start = 1; start <= 2; ++start) {
                const cv::Vec3b band = s.at(i, start);
                if (chromaOf(cv::Scalar(band)) < bandChroma || apart(band, paper) < bandChroma ||
                    apart(s.at(i, start + 1), band) >= bandChroma)
                    continue;
                for (int d = start + 2; d < s.reach; ++d) {
                    if (apart(s.at(i, d), band) >= bandChroma && apart(s.at(i, d + 1), band) >= bandChroma) {
                        widths.push_back(d);
                        bands.push_back(band);
                        break;
                    }
                }
                break;
            }
        }
        if (widths.size() < 7) continue;
        std::vector<int> sorted = widths;
        const int median = quantileOf(sorted, 0.5);
        const auto agrees = [&](int w) { return std::abs(w - median) <= 1 + median / 6.0; };
        if (std::count_if(widths.begin(), widths.end(), agrees) < 7) continue;
        const cv::Vec3b band = bands[std::find(widths.begin(), widths.end(), median) - widths.begin()];
        if (placesOfColour((side + 1) % 4, band) >= places / 4 || placesOfColour((side + 3) % 4, band) >= places / 4) continue;
        if (widened) return std::nullopt;
        // The band's outer edge lies between the last place of its colour and the first of the desk's.
        const cv::Point2d a = quad[side], b = quad[(side + 1) % 4];
        const double width = median - 0.5;
        const Line shifted = lineThrough(a + s.outward * width, b + s.outward * width);
        const auto cornerA = intersect(lineThrough(quad[(side + 3) % 4], a), shifted);
        const auto cornerB = intersect(lineThrough(quad[(side + 2) % 4], b), shifted);
        if (!cornerA || !cornerB) continue;
        Quad moved = quad;
        moved[side] = *cornerA, moved[(side + 1) % 4] = *cornerB;
        if (!isConvex(moved)) continue;
        widened = moved;
    }
    return widened;
}

/// Whether `smaller` is paper lying on a desk that `larger` takes in a strip of: the strip has the colour and the
/// lightness of the desk beyond `larger`, and is far darker than the paper of `smaller` (50 levels: a patch of green
/// checked cloth round a form). A logo is darker than the card round it, and a shadow's strip than the lit desk; a
/// shadow across a card's end leaves the end within 40 levels of the lit paper.
bool stripIsDeskAroundPaper(const Views &views, const Quad &larger, const Quad &smaller) {
    const auto colours = stripColours(views, larger, smaller);
    return colours && chromaDistance(colours->strip, colours->outside) < otherChroma &&
           std::abs(colours->stripLightness - colours->outsideLightness) < 15 &&
           colours->paperLightness >= colours->stripLightness + 50;
}

/// Whether the strip inside `larger` but outside `smaller` is the paper of `smaller` in more light
/// (``StripColours/stripIsPaperInMoreLight()``), and lighter than the desk beyond `larger` by 15 levels too. `smaller`
/// is then the shade that a phone or a hand casts over part of the document that `larger` outlines, its outline the
/// shadow's edge across the paper.
bool stripIsLitPaper(const Views &views, const Quad &larger, const Quad &smaller) {
    const auto colours = stripColours(views, larger, smaller);
    return colours && colours->stripIsPaperInMoreLight() && colours->stripLightness >= colours->outsideLightness + 15;
}

/// Outlines of documents that a hard shadow's edge cut in two, each piece proposed on its own, put together: two
/// outlines that share a whole side (``joinedAlongSharedSide``, within `seam`), overlap by at most a tenth of the
/// smaller, and make together a rectangle to a camera (87 degrees, ``rectangleCornerAngle``) that one of them is not
/// (under 85: the edge slants across the document), where one piece is the other's paper in more light
/// (``stripIsLitPaper``). A pale card on a pale desk, half in a phone's shadow, is outlined only in such pieces
/// (seed 277000 multi-08, 267000 multi-05), and what is judged must be the whole. A piece of desk beside a shadow
/// lying across a card is no lit paper: it steps from the desk round it by nothing.
std::vector<Candidate> joinedAcrossShadowEdges(const Views &views, const std::vector<Candidate> &candidates, double seam) {
    const cv::Size frame = views.lab.size();
    std::vector<double> angles;
    std::vector<cv::Rect2d> boxes;
    for (const auto &c : candidates) {
        angles.push_back(rectangleCornerAngle(c.quad, frame));
        boxes.push_back(cv::boundingRect(std::vector<cv::Point2f>(c.quad.begin(), c.quad.end())));
    }
    // Whether the strip of `whole` outside `piece` is the piece's paper in more light, lighter than the desk or not.
    const auto litBeside = [&](const Quad &whole, const Quad &piece) {
        const auto colours = stripColours(views, whole, piece);
        return colours && colours->stripIsPaperInMoreLight();
    };
    std::vector<Candidate> joined;
    for (size_t a = 0; a < candidates.size(); ++a) {
        for (size_t b = a + 1; b < candidates.size(); ++b) {
            const cv::Rect2d &boxA = boxes[a], &boxB = boxes[b];
            if (boxA.x > boxB.br().x + 3 * seam || boxB.x > boxA.br().x + 3 * seam || boxA.y > boxB.br().y + 3 * seam ||
                boxB.y > boxA.br().y + 3 * seam)
                continue;
            const Candidate &first = candidates[a], &second = candidates[b];
            if (overlapArea(first.quad, second.quad) > 0.1 * std::min(first.area, second.area)) continue;
            if (angles[a] < 85 || angles[b] < 85) {
                const auto whole = joinedAlongSharedSide(first.quad, second.quad, seam);
                if (whole && rectangleCornerAngle(*whole, frame) >= 87 &&
                    (stripIsLitPaper(views, *whole, first.quad) || stripIsLitPaper(views, *whole, second.quad))) {
                    joined.push_back({*whole, outlineScore(views, *whole), std::abs(signedArea(*whole))});
                    continue;
                }
            }
            // Pieces that share no whole side, the edge having cut across near a corner so that each piece passes for
            // a rectangle, are joined along the sides of the hull they fill together (a tenth more than their areas at
            // most) when that makes a rectangle outlined nearly all round (0.95), one piece the other's paper in more
            // light: a white card on a pale desk, a hard shadow over a corner (seed 297000 multi-01: a lit piece of
            // 89.9 degrees, 0.97, and its shaded corner, 0.60; the card 0.98, lit 13 levels above the desk).
            std::vector<cv::Point2f> corners(first.quad.begin(), first.quad.end());
            corners.insert(corners.end(), second.quad.begin(), second.quad.end());
            std::vector<cv::Point2f> hull;
            cv::convexHull(corners, hull);
            const double pieces = first.area + second.area;
            if (cv::contourArea(hull) > 1.1 * pieces) continue;
            const auto whole = quadAlongSidesOf(std::vector<cv::Point2d>(hull.begin(), hull.end()));
            if (!whole || std::abs(signedArea(*whole)) > 1.15 * pieces || rectangleCornerAngle(*whole, frame) < 87)
                continue;
            const double score = outlineScore(views, *whole);
            if (score < 0.95 || !(litBeside(*whole, first.quad) || litBeside(*whole, second.quad))) continue;
            joined.push_back({*whole, score, std::abs(signedArea(*whole))});
        }
    }
    return joined;
}

/// The median step of lightness from just inside `outer` to just outside it along the stretches of its outline that
/// lie apart from `inner` (over 3 working pixels from its outline); nothing when fewer than 8 places of 128 do.
std::optional<double> lightnessStepWhereApart(const cv::Mat &lab, const Quad &outer, const Quad &inner) {
    const std::vector<cv::Point2f> innerOutline(inner.begin(), inner.end());
    std::vector<float> steps;
    sampleAcrossOutlineWhere(
        lab, outer, 32,
        [&](cv::Point2d middle) { return std::abs(cv::pointPolygonTest(innerOutline, cv::Point2f(middle), true)) > 3; },
        [&](int, const cv::Vec3f &inside, const cv::Vec3f &outside) { steps.push_back(inside[0] - outside[0]); });
    if (steps.size() < 8) return std::nullopt;
    return quantileOf(steps, 0.5);
}

/// Whether `outer` is the outline of a shadow that `inner` lies in (a phone's or a hand's, cast over a card and the
/// desk round it), or of a grey rim round it (the side of a book's page block), rather than of a document: the desk
/// just outside `outer` is plain (its fine detail under four times a plain surface's), and the strip between the
/// outlines is that desk in shade. At least 80% of the strip has the desk's chroma; it is darker than the desk by 15
/// levels or more (or by 8, when `outer` steps up by 15 to what lies past it where it parts from `inner`: the lit
/// desk beyond a light shadow) but keeps at least 60% of its light; its fine detail is at most twice the desk's (no
/// print: the side of a book's page block, its sheets' edges, measured 64 against a desk's 32); the paper of `inner`
/// is lighter than it by 10 levels; and `outer` does not step down there (5 levels), as a document's own shaded end
/// does to the shaded desk round it. A page's margin round a table printed on it is the page's own paper, as light as
/// the table's; a shadowed part of a page holds print. A strip too thin for its detail to be judged (a book's rim) is
/// too thin to hold print; false when the colours or the band outside cannot be judged.
bool isShadowAround(const Views &views, const cv::Mat &detail, const Quad &outer, const Quad &inner) {
    const auto deskDetail = quantileJustOutside(detail, outer, 0.9);
    const auto stripDetail = ringQuantile(detail, outer, inner, 0.9);
    if (!deskDetail || *deskDetail > 4 * plainSurface || (stripDetail && *stripDetail > 2 * *deskDetail + 8))
        return false;
    const auto colours = stripColours(views, outer, inner);
    if (!colours) return false;
    const double strip = colours->stripLightness, desk = colours->outsideLightness;
    if (!(colours->stripLikeOutside >= 0.8 && strip <= desk - 8 && strip >= 0.6 * desk &&
          colours->paperLightness >= strip + 10))
        return false;
    // A shadow on the desk is darker than the lit desk its edge runs along. Where `outer` lies apart from `inner`
    // (along the strip) and steps down to what lies beyond it instead (by 5 levels: the median), the strip is the
    // document's own paper in the shade, still lighter than the shaded desk round it: the blank end of a receipt
    // in a soft shadow, cut off along the shadow's edge (seed 177000 multi-05). Where it steps up by 15 levels, the
    // strip is a shadow on the desk though only 8 darker than the desk round `outer` (which it is part of): a light
    // shadow's wedge beside a card, outlined along its edge (seed 197000 multi-04: 14 darker, stepping up by 33).
    const auto beyond = lightnessStepWhereApart(views.lab, outer, inner);
    if (strip > desk - 15) return beyond && *beyond <= -15;
    return !beyond || *beyond < 5;
}

/// The side of `quad` (its index: it runs from corner `side` to the next) that lies along a side of `other`, both its
/// ends within `tolerance` of that side's line and within its length: an edge of another document that an outline
/// shares. Nothing when no side of `quad` does.
std::optional<int> sideAlongOther(const Quad &quad, const Quad &other, double tolerance) {
    for (int side = 0; side < 4; ++side) {
        const cv::Point2d a = quad[side], b = quad[(side + 1) % 4];
        for (int k = 0; k < 4; ++k) {
            const cv::Point2d p = other[k], q = other[(k + 1) % 4];
            const Line line = lineThrough(p, q);
            if (line.distanceTo(a) > tolerance || line.distanceTo(b) > tolerance) continue;
            // Where a and b fall along p -> q, as fractions of its length.
            const cv::Point2d along = q - p;
            const double length2 = along.dot(along), slack = tolerance / std::sqrt(length2);
            const double at = (a - p).dot(along) / length2, bt = (b - p).dot(along) / length2;
            if (std::min(at, bt) >= -slack && std::max(at, bt) <= 1 + slack) return side;
        }
    }
    return std::nullopt;
}

/// Keeps the best outlines that do not overlap, preferring an outline to the regions inside it (a page to the table
/// printed on it, a book to each of its pages) when it is nearly as well supported. An outline that would be kept but
/// that `isShadow` calls a shadow is passed over, so that it hides nothing it overlaps. `choosingAgain`: this is the
/// second choice, made without the outlines the first found reaching onto the surface (see the end).
std::vector<Candidate> select(std::vector<Candidate> candidates, const cv::Mat &detail, const Views &views, double minScore,
                              const std::function<bool(const Candidate &)> &isShadow, std::vector<Candidate> *frames = nullptr,
                              bool choosingAgain = false) {
    // Of equally supported outlines the larger comes first, so that a document is chosen before the parts of it and
    // the shadows beside it that it overlaps.
    std::sort(candidates.begin(), candidates.end(), [](const Candidate &a, const Candidate &b) {
        return a.score != b.score ? a.score > b.score : a.area > b.area;
    });
    const size_t framesOnEntry = frames ? frames->size() : 0;
    // How many times the area of an outline inside it a larger one chosen first may be and still give way to it
    // across a strip of surface (see below).
    const double reachOntoCloth = views.texture.empty() ? 1.25 : 4.0;
    // Outlines chosen first that gave way to a smaller one inside them across a strip of surface or shadow, beyond
    // near twins (see below): no document, but while chosen they had turned away the outlines that overlapped them.
    std::vector<Quad> reachingOntoSurface;
    // A shadow on the desk with a document lying in it (a phone's hard shadow on a pale desk, a card inside it) is
    // outlined as crisply as the document, and being larger it comes first; were it kept, the document could not
    // replace it (it holds the card's print, so `isShadow` does not call it a shadow). It is passed over when an
    // outline inside it, supported nearly as well and a tenth of its size or more, is the paper that the strip
    // between them is a shadow round (``isShadowAround``), and it is darker than the desk all round it (a shadow
    // across part of a page leaves the page lighter than the desk along most of its outline).
    const auto isShadowRoundDocument = [&](const Candidate &outer) {
        if (!isDarkerAllRound(views.lab, outer.quad)) return false;
        return std::any_of(candidates.begin(), candidates.end(), [&](const Candidate &inner) {
            return inner.area < 0.8 * outer.area && inner.area >= 0.1 * outer.area &&
                   inner.score >= std::max(minScore, outer.score - 0.05) &&
                   overlapArea(outer.quad, inner.quad) >= 0.9 * inner.area &&
                   isShadowAround(views, detail, outer.quad, inner.quad);
        });
    };
    std::vector<Candidate> chosen, shadowsRoundDocuments;
    for (const auto &candidate : candidates) {
        if (candidate.score < minScore) break;
        bool keep = true;
        std::vector<size_t> swallowed;
        // How well each outline shows seen past what covers it (``outlineScoreSeeingPast``), worked out once when
        // first asked: the tests below ask it of the candidate and of each chosen outline it overlaps.
        std::optional<double> candidateSeenPast;
        const auto seenPastOfCandidate = [&] {
            if (!candidateSeenPast) candidateSeenPast = outlineScoreSeeingPast(views, candidate.quad);
            return *candidateSeenPast;
        };
        for (size_t i = 0; i < chosen.size(); ++i) {
            const double shared = overlapArea(candidate.quad, chosen[i].quad);
            if (shared <= 0.15 * std::min(candidate.area, chosen[i].area)) continue;
            std::optional<double> chosenSeenPast;
            const auto seenPastOfChosen = [&] {
                if (!chosenSeenPast) chosenSeenPast = outlineScoreSeeingPast(views, chosen[i].quad);
                return *chosenSeenPast;
            };
            // An outline around a chosen one replaces it when nearly as well supported: a card around its logo or
            // coloured band, a book around its pages, a page around the table printed on it (printed shapes have crisp
            // edges all round, while a thumb or a shadow weakens part of a document's).
            // A much larger outline around it wins when well enough supported to be a document in its own right.
            const bool framesIt = candidate.area > 4 * chosen[i].area && candidate.score >= 0.65;
            // It also takes in most of a speck that straddles its edge (the tip of a thumb over a receipt's end), or
            // a third of one supported nearly as well (within 0.1): a square of a checked cloth outlined along a card's
            // edge, which would otherwise keep the card from being chosen (seed 185000 card-04).
            const bool takesInSpeck = chosen[i].area < 0.05 * candidate.area &&
                                      ((framesIt && shared >= 0.5 * chosen[i].area) ||
                                       (shared >= 0.3 * chosen[i].area && candidate.score >= chosen[i].score - 0.1));
            const bool containsChosen =
                (shared >= 0.85 * chosen[i].area && candidate.area > 1.02 * chosen[i].area) || takesInSpeck;
            const bool nearTwin = candidate.area <= 1.25 * chosen[i].area;
            const double tolerance = nearTwin ? 0.05 : 0.12;
            const double rivalScore = nearTwin ? strongestTwinScore(chosen[i], candidate.area) : chosen[i].score;
            // What the strip between two nested outlines is like, measured once for the tests below: its fine detail
            // and the desk's just outside `outer` (lower quartiles, so that print on paper does not count), and, on
            // woven cloth, its fine texture and the cloth's just outside (medians).
            struct Strip {
                std::optional<double> detail, deskDetail, texture, textureBeyond;
            };
            const auto measured = [&](const Quad &outer, const Quad &inner) {
                Strip strip{ringQuantile(detail, outer, inner, 0.25), quantileJustOutside(detail, outer, 0.25)};
                if (!views.texture.empty()) {
                    strip.texture = ringQuantile(views.texture, outer, inner, 0.5);
                    strip.textureBeyond = quantileJustOutside(views.texture, outer, 0.5);
                }
                return strip;
            };
            // But not across rough surface: the grains of granite or carpet next to a card make outlines of their
            // own round it, each nearly as well supported as the last. (Far more detail than a surface's grain is
            // the edge of a book's cover and page block, in a ring too thin to show anything else.)
            const auto isRough = [&](const Strip &strip) {
                const double ring = strip.detail.value_or(0);
                if (ring >= 3 * plainSurface && ring < 8 * plainSurface) return true;
                // Nor across a strip of woven surface (granite and cloth beside a card and the thumb over it): one
                // past the bar for paper, and woven nearly as the surface is (half the texture of a band just outside
                // the outline or more; cloth there measured 34-41). A book's page in a phone's shadow, its print and
                // the noise of the shade taking it just past the bar (16 against 15.9, seed 65000 spread-01), is not.
                if (views.texture.empty() || strip.texture.value_or(0) <= views.smoothBelow) return false;
                return !strip.textureBeyond || *strip.texture >= 0.5 * *strip.textureBeyond;
            };
            // Whether a strip that `outer` adds round `inner` is the surface that lies beyond `outer`, textured as
            // it is: with the detail of a textured desk (twice a plain one's or more, and six tenths of the desk's
            // just outside at least) and its colour (its chroma over eight tenths of the strip, its lightness within
            // 15 levels), as coarse granite round a dark card is, whose grains are too large for the fine detail to
            // call rough; or, on woven cloth, clearly woven (the bar for paper and three tenths more) and as woven as
            // the cloth beyond (nine tenths of its texture), as a row of a gingham's squares past a page's edge is.
            // A card's coloured band or a page's margin has the paper's smoothness, and a book's rim its own colour.
            const auto isSurface = [&](const Strip &strip, const Quad &outer, const Quad &inner) {
                if (strip.detail && strip.deskDetail && *strip.detail >= 2 * plainSurface &&
                    *strip.detail >= 0.6 * *strip.deskDetail) {
                    const auto colours = stripColours(views, outer, inner);
                    if (colours && colours->stripHasDeskColour()) return true;
                }
                return strip.texture && strip.textureBeyond && *strip.texture >= 1.3 * views.smoothBelow &&
                       *strip.texture >= 0.9 * *strip.textureBeyond;
            };
            // Whether the strip that `outer` adds round `inner` is rough surface, or the surface beyond `outer`.
            const auto addsSurface = [&](const Quad &outer, const Quad &inner) {
                const Strip strip = measured(outer, inner);
                return isRough(strip) || isSurface(strip, outer, inner);
            };
            // Of two near twins (within a tenth of each other's area, the smaller nearly all inside the larger, and
            // parting along one side), the larger one reaches onto the desk when the strip it adds has the desk's
            // colour rather than the smaller one's: a shadow's edge that runs on from the paper across the lit desk
            // beyond a receipt's end makes an outline as well supported as the receipt's own, and so do the rows of a
            // checked cloth whose light squares match a page's paper, past a tilted page's top. The smaller twin is
            // the document then, if supported within a tenth as well (a pale desk or the cloth blurs the page's
            // own edge).
            const auto twins = [&](const Candidate &larger, const Candidate &smaller) {
                if (larger.area >= 1.1 * smaller.area || shared < 0.9 * smaller.area) return false;
                // They part along one side only: two corners in common (the added strip a band past that side) or
                // three (a wedge pivoting on one end of it), not four or none (a ring all round, which is the same
                // outline a little grown: a book's cover round its pages).
                const double tolerance = 0.03 * std::sqrt(smaller.area);
                int common = 0;
                for (const auto &p : larger.quad)
                    common += std::any_of(smaller.quad.begin(), smaller.quad.end(),
                                          [&](const cv::Point2d &q) { return cv::norm(p - q) <= tolerance; });
                return (common == 2 || common == 3) && larger.area - shared >= 0.02 * smaller.area;
            };
            const auto reachesOntoDesk = [&](const Candidate &larger, const Candidate &smaller) {
                return twins(larger, smaller) && stripIsDesk(views, larger.quad, smaller.quad);
            };
            // Of two near twins (each nine tenths of the other) parting at a corner that a thumb lies over, the
            // one whose sides run on past the thumb to meet there is the document, though the thumb's own edge
            // supports the other's side as well: seen past what lies across it, its outline shows nearly all round.
            const auto truerPastOccluder = [&] {
                if (shared < 0.9 * std::max(candidate.area, chosen[i].area) || candidate.score < chosen[i].score - 0.1)
                    return false;
                return seenPastOfCandidate() >= seenPastOfChosen() + 0.1;
            };
            // Whether `outer` borrows the edge of another document: one of its sides runs along a side of a chosen
            // outline that lies beyond it, where `inner` stops short, and what `outer` adds to `inner` is bare desk:
            // no print (its fine detail under three times a plain surface's, where print makes eight), the desk's
            // colour over eight tenths of it and its lightness within 15 levels. A card whose own side is faint (white
            // on a pale desk, or blurred) is outlined as well by its other sides run on across the desk to the crisp
            // edge of a receipt beside it. (The margin between a page's side and its text block, which the text's
            // edge cuts off as a piece of its own, is paper holding the print's detail at its edge.)
            const auto borrowsEdgeAcrossDesk = [&](const Candidate &outer, const Candidate &inner) {
                const double alongEdge = 0.03 * std::sqrt(inner.area);  // how near a side must lie to the edge
                const bool borrows = std::any_of(chosen.begin(), chosen.end(), [&](const Candidate &other) {
                    if (overlapArea(other.quad, outer.quad) > 0.05 * std::min(other.area, outer.area)) return false;
                    const auto side = sideAlongOther(outer.quad, other.quad, alongEdge);
                    if (!side) return false;
                    const Line edge = lineThrough(outer.quad[*side], outer.quad[(*side + 1) % 4]);
                    return std::all_of(inner.quad.begin(), inner.quad.end(),
                                       [&](const cv::Point2d &p) { return edge.distanceTo(p) >= 3 * alongEdge; });
                });
                if (!borrows) return false;
                const auto strip = ringQuantile(detail, outer.quad, inner.quad, 0.9);
                if (!strip || *strip >= 3 * plainSurface) return false;
                const auto colours = stripColours(views, outer.quad, inner.quad);
                return colours && colours->stripHasDeskColour();
            };
            // Nor when seen past what covers them it is the weaker by more than the tolerance: each of a row of ever
            // larger outlines round a card under a thumb (taking in the thumb and the surface beyond) is nearly as
            // well supported as the last, but not as the card, whose sides run on past the thumb.
            const auto weakerSeenPast = [&] {
                return !framesIt && seenPastOfCandidate() < seenPastOfChosen() - tolerance;
            };
            // Nor when it holds another chosen outline apart from this one across a band of desk
            // (``holdsApartAcrossDesk``).
            const auto holdsAnotherApart = [&] {
                return std::any_of(chosen.begin(), chosen.end(), [&](const Candidate &other) {
                    return &other != &chosen[i] && overlapArea(candidate.quad, other.quad) >= 0.85 * other.area &&
                           overlapArea(chosen[i].quad, other.quad) <= 0.05 * std::min(chosen[i].area, other.area) &&
                           holdsApartAcrossDesk(views, candidate.quad, candidate.area, chosen[i].quad,
                                                other.quad, chosen[i].area + other.area);
                });
            };
            // Or when, seen past what covers them, it is outlined nearly all round and clearly better than the chosen
            // one (by 0.15): a card in a phone's hard shadow with a thumb over its end, whose outline the shadow's
            // edge cuts across (0.742 plain, 0.759 seen past) where the card's own scores 0.617 plain and 0.978 seen
            // past.
            const auto clearerSeenPast = [&] {
                return seenPastOfCandidate() >= 0.9 && seenPastOfCandidate() >= seenPastOfChosen() + 0.15;
            };
            // Nor when it adds to the chosen one only part of a shadow round it that was passed over (its side
            // runs along the shadow's edge on one side of a card and along the card's own on the other).
            const auto addsPartOfShadow = [&] {
                return std::any_of(shadowsRoundDocuments.begin(), shadowsRoundDocuments.end(), [&](const Candidate &s) {
                    return overlapArea(s.quad, candidate.quad) >= 0.9 * candidate.area &&
                           overlapArea(s.quad, chosen[i].quad) >= 0.9 * chosen[i].area;
                });
            };
            // Nor when a camera would not see it as a rectangle (corners under 85 degrees, ``rectangleCornerAngle``)
            // and it is outlined less well than the chosen one, which a camera would, is outlined 0.8 or more and is
            // two fifths its size or more: a card under a thumb and a hand's shadow on carpet, taken with a wedge of
            // the carpet (seed 207000 card-06: 0.64 and 79 degrees against the card's 0.81 and 90; IoU 0.80).
            const auto skewsWellOutlined = [&] {
                return candidate.score < chosen[i].score && chosen[i].score >= 0.8 &&
                       chosen[i].area >= 0.4 * candidate.area &&
                       rectangleCornerAngle(candidate.quad, views.lab.size()) < 85 &&
                       rectangleCornerAngle(chosen[i].quad, views.lab.size()) >= 85;
            };
            if (containsChosen && (framesIt || candidate.score >= rivalScore - tolerance || clearerSeenPast()) &&
                !skewsWellOutlined() && !addsPartOfShadow() &&
                !addsSurface(candidate.quad, chosen[i].quad) && !holdsAnotherApart() &&
                !reachesOntoDesk(candidate, chosen[i]) &&
                !isShadowAround(views, detail, candidate.quad, chosen[i].quad) && !weakerSeenPast() &&
                !borrowsEdgeAcrossDesk(candidate, chosen[i])) {
                swallowed.push_back(i);
            } else if (candidate.area < chosen[i].area && candidate.score >= chosen[i].score - 0.1 &&
                       reachesOntoDesk(chosen[i], candidate)) {
                swallowed.push_back(i);
            } else if (candidate.area < chosen[i].area && shared >= 0.9 * candidate.area &&
                       candidate.area >= 0.25 * chosen[i].area && chosen[i].score < 0.8 &&
                       candidate.score >= chosen[i].score - 0.15 &&
                       stripIsDeskAroundPaper(views, chosen[i].quad, candidate.quad)) {
                // A paper inside a chosen outline that adds only desk round it (cells of a checked cloth outlined
                // more crisply than a defocused page's edge) is the document.
                swallowed.push_back(i);
            } else if (candidate.area < chosen[i].area && chosen[i].area <= reachOntoCloth * candidate.area &&
                       shared >= 0.85 * candidate.area && candidate.score >= chosen[i].score - 0.05 &&
                       (isSurface(measured(chosen[i].quad, candidate.quad), chosen[i].quad, candidate.quad) ||
                        isShadowAround(views, detail, chosen[i].quad, candidate.quad))) {
                // The same judgement the other way round: an outline chosen first, for being larger and as well
                // supported, gives way to the smaller one inside it when the strip it adds is the surface or a
                // shadow on it (the grey side of a book's page block along its pages, a row of a cloth's squares
                // past a page's top), across which it could not have replaced the smaller one had that come first.
                // Between near twins; on woven cloth, whose squares line up with a document's sides, up to four
                // times the smaller one's area (beyond that the larger frames it): the white squares of a gingham
                // beside a card, taken in with it (seed 173000 multi-01).
                if (chosen[i].area > 1.25 * candidate.area) reachingOntoSurface.push_back(chosen[i].quad);
                swallowed.push_back(i);
            } else if (candidate.area < chosen[i].area && shared >= 0.6 * candidate.area &&
                       candidate.score >= chosen[i].score - 0.1 && borrowsEdgeAcrossDesk(chosen[i], candidate)) {
                // An outline chosen first for borrowing a neighbour's crisp edge gives way to the document's own
                // outline, which mostly overlaps it and is supported within a tenth as well.
                swallowed.push_back(i);
            } else if (truerPastOccluder()) {
                swallowed.push_back(i);
            } else if (candidate.area > chosen[i].area && shared >= 0.6 * chosen[i].area &&
                       candidate.score >= chosen[i].score - 0.05 &&
                       rectangleCornerAngle(candidate.quad, views.lab.size()) >= 88 &&
                       addsSurface(chosen[i].quad, candidate.quad) && !addsSurface(candidate.quad, chosen[i].quad)) {
                // An outline chosen first that runs along part of a larger one and then off it across the surface
                // (a cloth's squares past a receipt's side, as crisply outlined as the receipt's own edge) gives way
                // to the larger one, a rectangle to a camera supported nearly as well, when what it holds beyond that
                // one is the surface and what that one adds to it is not (seed 191000 receipt-01).
                swallowed.push_back(i);
            } else {
                keep = false;
                break;
            }
        }
        if (!keep) {
            // Too weak to replace what it surrounds on outline alone, but worth a look at what it holds (a receipt
            // around its barcode, with a thumb over one side): kept aside as a frame.
            const bool surroundsAll = std::all_of(chosen.begin(), chosen.end(), [&](const Candidate &c) {
                const double shared = overlapArea(candidate.quad, c.quad);
                return shared <= 0.15 * std::min(candidate.area, c.area) || (shared >= 0.85 * c.area && candidate.area > 1.02 * c.area);
            });
            const bool duplicate = frames && std::any_of(frames->begin(), frames->end(), [&](const Candidate &f) {
                return overlapArea(f.quad, candidate.quad) >= 0.8 * std::max(f.area, candidate.area);
            });
            if (frames && surroundsAll && !duplicate && candidate.score >= 0.45 && frames->size() < 4) frames->push_back(candidate);
            continue;
        }
        if (isShadow(candidate)) continue;
        if (isShadowRoundDocument(candidate)) {
            shadowsRoundDocuments.push_back(candidate);
            continue;
        }
        Candidate replacing = candidate;
        for (auto it = swallowed.rbegin(); it != swallowed.rend(); ++it) {
            replacing.replaced.push_back(std::move(chosen[*it]));
            chosen.erase(chosen.begin() + *it);
        }
        chosen.push_back(std::move(replacing));
    }
    if (!reachingOntoSurface.empty() && !choosingAgain) {
        // The choice is made again without them: an outline they turned away may be the document (a receipt's own
        // outline, turned away by one reaching past its end onto the cloth, before a part of it inside that one
        // showed the cloth). Once: the photos this helped needed no more, and when the wider reach applied on every
        // surface, a form on a cloth ringed by outlines of its squares took ten more rounds to change nothing (seed
        // 135000 form-05: 46 ms with none, 67 with all, 55 with one).
        candidates.erase(std::remove_if(candidates.begin(), candidates.end(), [&](const Candidate &c) {
            return std::find(reachingOntoSurface.begin(), reachingOntoSurface.end(), c.quad) != reachingOntoSurface.end();
        }), candidates.end());
        if (frames) frames->resize(framesOnEntry);
        return select(std::move(candidates), detail, views, minScore, isShadow, frames, true);
    }
    return chosen;
}

/// The quad with every side moved `distance` outward.
Quad grown(const Quad &quad, double distance) {
    const cv::Point2d centre = (quad[0] + quad[1] + quad[2] + quad[3]) * 0.25;
    std::array<Line, 4> lines;
    for (int side = 0; side < 4; ++side) {
        Line line = lineThrough(quad[side], quad[(side + 1) % 4]);
        if (line.normal.dot(centre) > line.offset) line.normal = -line.normal, line.offset = -line.offset;  // outward
        line.offset += distance;
        lines[side] = line;
    }
    Quad result = quad;
    for (int i = 0; i < 4; ++i)
        if (auto corner = intersect(lines[(i + 3) % 4], lines[i])) result[i] = *corner;
    return result;
}

/// The points of `contour` (whose bounding box is `box`) that are the first or last of their row, in the contour's
/// order: its convex hull is theirs, point for point and from the same first point, at half the cost of sorting them
/// all (checked on 45,000 outlines of random masks).
std::vector<cv::Point> rowEnds(const std::vector<cv::Point> &contour, const cv::Rect &box) {
    std::vector<int> first(box.height, INT_MAX), last(box.height, INT_MIN);
    for (const auto &p : contour) {
        const int row = p.y - box.y;
        first[row] = std::min(first[row], p.x), last[row] = std::max(last[row], p.x);
    }
    std::vector<cv::Point> ends;
    for (const auto &p : contour)
        if (p.x == first[p.y - box.y] || p.x == last[p.y - box.y]) ends.push_back(p);
    return ends;
}

/// Adds a candidate for each large enough outline in `mask`. When the mask's outlines may lie up to `inset` pixels
/// inside the true edges, each is also tried grown outwards, and the best supported size kept.
void addOutlines(const cv::Mat &mask, double minArea, const Views &views, std::vector<Candidate> &candidates,
                 int retrieval = cv::RETR_EXTERNAL, double inset = 0) {
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(mask, contours, retrieval, cv::CHAIN_APPROX_NONE);
    for (const auto &contour : contours) {
        if (contour.size() < 20) continue;
        const cv::Rect box = cv::boundingRect(contour);
        if (static_cast<double>(box.area()) < minArea) continue;
        std::vector<cv::Point> hull;
        cv::convexHull(rowEnds(contour, box), hull);
        const auto quad = quadFromContour(contour, hull, minArea);
        if (!quad || !isConvex(*quad)) continue;
        const double area = std::abs(signedArea(*quad));
        if (area < minArea || area > 0.97 * views.lab.total()) continue;
        // Grown pixel by pixel and judged on a coarse score; the nearest of the best supported sizes is kept.
        Quad best = *quad;
        for (double d = 1, bestScore = outlineScore(views, *quad, 8); d <= inset; d += 1) {
            const Quad bigger = grown(*quad, d);
            if (!isConvex(bigger)) break;
            const double score = outlineScore(views, bigger, 8);
            if (score > bestScore) best = bigger, bestScore = score;
        }
        candidates.push_back({best, outlineScore(views, best), std::abs(signedArea(best))});
        if (const auto completed = quadPastHiddenCorner(contour, hull, minArea)) {
            const double completedArea = std::abs(signedArea(*completed));
            if (isConvex(*completed) && completedArea <= 0.97 * views.lab.total())
                candidates.push_back({*completed, outlineScore(views, *completed), completedArea});
        }
    }
}

/// A straight edge found in the edge map, as a line with the total length of the segments on it.
struct EdgeLine {
    Line line;
    double support;
};

/// Straight edges of the photo: Hough segments merged when they lie on the same line, longest first.
std::vector<EdgeLine> straightEdges(const cv::Mat &edges, size_t limit) {
    const int shorter = std::min(edges.cols, edges.rows), longer = std::max(edges.cols, edges.rows);
    // Only long edge chains can hold a document's side; dropping print and texture first makes the transform cheap.
    // (Each chain's extent from its pixels' labels: OpenCV's statistics, centroids included, take four times as long.)
    cv::Mat labels;
    const int count = cv::connectedComponents(edges, labels, 8, CV_32S);
    std::vector<int> left(count, INT_MAX), right(count, -1), top(count, INT_MAX), bottom(count, -1);
    for (int y = 0; y < edges.rows; ++y) {
        const int *label = labels.ptr<int>(y);
        for (int x = 0; x < edges.cols; ++x) {
            const int l = label[x];
            if (l == 0) continue;
            left[l] = std::min(left[l], x), right[l] = std::max(right[l], x);
            top[l] = std::min(top[l], y), bottom[l] = y;
        }
    }
    std::vector<uchar> keep(count, 0);
    for (int i = 1; i < count; ++i) keep[i] = std::max(right[i] - left[i], bottom[i] - top[i]) + 1 >= 0.06 * shorter;
    cv::Mat longEdges(edges.size(), CV_8U);
    for (int y = 0; y < edges.rows; ++y) {
        const int *label = labels.ptr<int>(y);
        uchar *row = longEdges.ptr<uchar>(y);
        for (int x = 0; x < edges.cols; ++x) row[x] = keep[label[x]] ? 255 : 0;
    }
    std::vector<cv::Vec4i> segments;
    cv::HoughLinesP(longEdges, segments, 1, CV_PI / 180, 30, 0.08 * shorter, 0.02 * longer);
    std::vector<EdgeLine> lines;
    const double offsetTolerance = 0.012 * std::hypot(edges.cols, edges.rows);
    for (const auto &s : segments) {
        const cv::Point2d a(s[0], s[1]), b(s[2], s[3]);
        const double length = cv::norm(b - a);
        if (length < 1) continue;
        Line line = lineThrough(a, b);
        if (line.offset < 0) line = {-line.normal, -line.offset};
        bool merged = false;
        for (auto &existing : lines) {
            if (std::abs(existing.line.normal.dot(line.normal)) < std::cos(3 * CV_PI / 180)) continue;
            const cv::Point2d middle = (a + b) * 0.5;
            if (existing.line.distanceTo(middle) > offsetTolerance) continue;
            existing.support += length;
            merged = true;
            break;
        }
        if (!merged) lines.push_back({line, length});
    }
    std::sort(lines.begin(), lines.end(), [](const EdgeLine &a, const EdgeLine &b) { return a.support > b.support; });
    if (lines.size() > limit) lines.resize(limit);
    return lines;
}

/// Quadrilaterals bounded by four of the straight edges `lines` (``straightEdges``): robust where an outline is broken
/// (a thumb over a side, a shadow across it, paper barely lighter than the desk), since any long stretch of each side
/// is enough.
void addLineQuads(const std::vector<EdgeLine> &lines, double minArea, const Views &views,
                  std::vector<Candidate> &candidates) {
    const cv::Mat &lab = views.lab;
    const size_t n = lines.size();
    const double marginX = 0.02 * lab.cols, marginY = 0.02 * lab.rows;
    const auto inside = [&](const cv::Point2d &p) {
        return p.x >= -marginX && p.y >= -marginY && p.x <= lab.cols - 1 + marginX && p.y <= lab.rows - 1 + marginY;
    };
    // A side is a stretch of one line between its crossings with two others, and many quads share it: the coarse
    // support of each stretch (per side of the line the quad lies on) is counted once.
    constexpr int coarseSamples = 8;
    std::vector<int> stretchSupport(n * n * n * 2, -1);
    const auto coarseScore = [&](const Quad &quad, const int (&lineOf)[4], const int (&crossing)[4][2]) {
        if (isDegenerate(quad)) return 0.0;
        const double orientation = signedArea(quad) > 0 ? 1 : -1;
        std::array<int, 4> supported;
        for (int side = 0; side < 4; ++side) {
            const cv::Point2d a = quad[side], b = quad[(side + 1) % 4];
            const cv::Point2d direction = (b - a) * (1.0 / cv::norm(b - a));
            const cv::Point2d outward = cv::Point2d(direction.y, -direction.x) * orientation;
            const size_t line = lineOf[side];
            const size_t low = std::min(crossing[side][0], crossing[side][1]), high = std::max(crossing[side][0], crossing[side][1]);
            const size_t facing = outward.dot(lines[line].line.normal) > 0 ? 1 : 0;
            int &count = stretchSupport[((line * n + low) * n + high) * 2 + facing];
            if (count < 0) count = sideSupport(views, a, b, orientation, coarseSamples);
            supported[side] = count;
        }
        return scoreFromSupport(quad, supported, coarseSamples, lab.size());
    };
    for (size_t i = 0; i < n; ++i)
        for (size_t j = i + 1; j < n; ++j)
            for (size_t k = j + 1; k < n; ++k)
                for (size_t l = k + 1; l < n; ++l) {
                    const size_t ids[4] = {i, j, k, l};
                    // The three ways to pair four lines into two pairs of opposite sides.
                    const int orders[3][4] = {{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 1, 3, 2}};
                    for (const auto &order : orders) {
                        Quad quad;
                        bool valid = true;
                        for (int c = 0; c < 4 && valid; ++c) {
                            const auto corner = intersect(lines[ids[order[c]]].line, lines[ids[order[(c + 1) % 4]]].line);
                            valid = corner && inside(*corner);
                            if (valid) quad[c] = *corner;
                        }
                        if (!valid || !isConvex(quad)) continue;
                        const double area = std::abs(signedArea(quad));
                        if (area < minArea || area > 0.97 * lab.total() || smallestAngle(quad) < 30) continue;
                        // Side c runs from corner c to corner c + 1, along the line they share, between its crossings
                        // with the lines before and after it.
                        int lineOf[4], crossing[4][2];
                        for (int c = 0; c < 4; ++c) {
                            lineOf[c] = static_cast<int>(ids[order[(c + 1) % 4]]);
                            crossing[c][0] = static_cast<int>(ids[order[c]]);
                            crossing[c][1] = static_cast<int>(ids[order[(c + 2) % 4]]);
                        }
                        // Most combinations are nonsense: a coarse score weeds them out before the full one.
                        if (coarseScore(quad, lineOf, crossing) < 0.4) continue;
                        quad = ordered(quad);
                        candidates.push_back({quad, outlineScore(views, quad), area});
                    }
                }
}

/// Woven and printed cloth (gingham, checks) is busy with fine detail everywhere, while paper is smooth round its
/// print. Where most of the photo is busy, adds the outlines of the smooth regions (print closed over): documents whose
/// colour the cloth shares, which no colour threshold separates from it.
void addSmoothRegions(const cv::Mat &detail, double minArea, const Views &views, std::vector<Candidate> &candidates) {
    cv::Mat energy;
    cv::blur(detail, energy, cv::Size(15, 15));
    std::vector<uint16_t> values;  // every third row suffices for the median
    for (int y = 0; y < energy.rows; y += 3) values.insert(values.end(), energy.ptr<uint16_t>(y), energy.ptr<uint16_t>(y) + energy.cols);
    std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
    const int typical = values[values.size() / 2];
    if (typical < plainSurface) return;
    cv::Mat smooth = energy < typical / 2;
    cv::morphologyEx(smooth, smooth, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(5, 5)));
    cv::morphologyEx(smooth, smooth, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(15, 15)));
    // The busy band that the paper's own edge makes lies inside the smooth region's outline.
    addOutlines(smooth, minArea, views, candidates, cv::RETR_EXTERNAL, 10);
}

/// The second derivatives (xx, xy, yy, as three channels) of the lightness of `smallBGR` smoothed a little (sigma 1
/// working pixel), for ``edgeLineAlong``: the median filter the outlines are otherwise judged through erases a
/// hairline.
cv::Mat lightnessCurvature(const cv::Mat &smallBGR) {
    cv::Mat lab, lightness;
    cv::cvtColor(smallBGR, lab, cv::COLOR_BGR2Lab);
    cv::extractChannel(lab, lightness, 0);
    lightness.convertTo(lightness, CV_32F);
    cv::GaussianBlur(lightness, lightness, cv::Size(0, 0), 1.0);
    cv::Mat xx, xy, yy, curvature;
    cv::Sobel(lightness, xx, CV_32F, 2, 0, 3);
    cv::Sobel(lightness, xy, CV_32F, 1, 1, 3);
    cv::Sobel(lightness, yy, CV_32F, 0, 2, 3);
    cv::merge(std::vector<cv::Mat>{xx, xy, yy}, curvature);
    return curvature;
}

/// The working pixels on a faint thin dark line on light surface (see ``edgeLineAlong`` and ``isHairline``).
cv::Mat hairlines(const Views &views) {
    cv::Mat mask(views.curvature.size(), CV_8U);
    for (int y = 0; y < mask.rows; ++y) {
        const cv::Vec3f *h = views.curvature.ptr<cv::Vec3f>(y);
        const cv::Vec3f *lab = views.lab.ptr<cv::Vec3f>(y);
        uchar *row = mask.ptr<uchar>(y);
        for (int x = 0; x < mask.cols; ++x) {
            const double mean = 0.5 * (h[x][0] + h[x][2]);
            const double spread = std::hypot(0.5 * (h[x][0] - h[x][2]), h[x][1]);
            // Across the line the lightness curves most, along it least.
            row[x] = isHairline(mean + spread, mean - spread) && lab[x][0] >= lightSurface ? 255 : 0;
        }
    }
    return mask;
}

/// The edges of the working copy's colour and the straight lines along them, the same in every round of proposals:
/// worked out in the first (the Hough transform takes 10 to 20 ms on a busy surface) and kept for the round with
/// hairlines.
struct ColourEdges {
    cv::Mat edges;  // Canny edges of the three Lab channels together
    std::vector<EdgeLine> lines;  // the longest straight lines along them (``straightEdges``)
};

/// `quad` with its corners moved, one at a time by 4, 2, 1 and then half a working pixel in any of eight directions,
/// for as long as that makes it better outlined: a rough outline brought onto the edges round it when the strongest
/// edges near its sides are not its own (the squares of a checked cloth beside a card). Better outlined is a higher
/// ``outlineScore``, or as high with a larger mean step of colour across the outline (each step counted up to 30 Lab
/// units): once every place steps, the outline still moves onto the middle of the edge. Once the outline is a rectangle
/// to a camera (87 degrees, ``rectangleCornerAngle``) it stays one.
Quad climbedToOutline(const Views &views, Quad quad) {
    // The outline score (as ``outlineScore`` works it out) and the mean step, from one pass over the sides.
    constexpr int samples = 32;
    const auto merit = [&](const Quad &q) {
        if (isDegenerate(q)) return 0.0;
        const double orientation = signedArea(q) > 0 ? 1 : -1;
        std::array<int, 4> supported;
        double steps = 0;
        int places = 0;
        for (int side = 0; side < 4; ++side) {
            int colour = 0, woven = 0;
            stepsAcrossSide(views, q[side], q[(side + 1) % 4], orientation, samples,
                            [&](const cv::Vec3f &inside, const cv::Vec3f &outside, bool colourSteps, bool textureSteps) {
                                colour += colourSteps, woven += textureSteps;
                                steps += std::min(30.0, cv::norm(inside - outside));
                                ++places;
                            });
            supported[side] = std::max(colour, woven);
        }
        return scoreFromSupport(q, supported, samples, views.lab.size()) + 1e-3 * steps / std::max(1, places);
    };
    double best = merit(quad);
    bool rectangular = rectangleCornerAngle(quad, views.lab.size()) >= 87;  // once a camera's rectangle, kept one
    for (const double step : {4.0, 2.0, 1.0, 0.5}) {
        for (int round = 0; round < 20; ++round) {
            bool moved = false;
            for (int corner = 0; corner < 4; ++corner) {
                for (int direction = 0; direction < 8; ++direction) {
                    const double angle = direction * CV_PI / 4;
                    Quad trial = quad;
                    trial[corner] += cv::Point2d(std::cos(angle), std::sin(angle)) * step;
                    if (!isConvex(trial)) continue;
                    const bool rectangle = rectangleCornerAngle(trial, views.lab.size()) >= 87;
                    if (rectangular && !rectangle) continue;
                    const double score = merit(trial);
                    if (score > best) best = score, quad = trial, moved = true, rectangular = rectangle;
                }
            }
            if (!moved) break;
        }
    }
    return quad;
}

/// `quad` with the ends of its side `side` (corners `side` and the next) moved along the lines of the sides next to
/// them, the first by `first` and the second by `second` working pixels (positive: along those sides, into the
/// outline; negative: out past the corners).
Quad withSideMoved(const Quad &quad, int side, double first, double second) {
    const int a = side, b = (side + 1) % 4, beforeA = (side + 3) % 4, afterB = (side + 2) % 4;
    const cv::Point2d towardsA = quad[beforeA] - quad[a], towardsB = quad[afterB] - quad[b];
    Quad moved = quad;
    moved[a] += towardsA * (first / std::max(1.0, cv::norm(towardsA)));
    moved[b] += towardsB * (second / std::max(1.0, cv::norm(towardsB)));
    return moved;
}

/// The best outlined (``outlineScore``) of the outlines made from `quad` by moving the two ends of its side `side`
/// along the lines of the sides next to it, each by `from` to `to` times that side's length (positive: along it, so
/// that the outline shrinks; negative: beyond the corner, so that it grows), first 8 working pixels at a time (scored
/// on 8 places a side), then by 4, 2, 1 and half a pixel from each of the three best places of the first pass that lie
/// apart (by more than 12 pixels at either end); with its score. `quad` itself is not among them. (An edge a few pixels
/// off the coarse grid can score below a line of print nearer in: seed 295000 prose-04, a page's far side found only
/// from the second best place, 0.97 where the best one climbed to 0.91.)
std::pair<double, Quad> bestWithSideMoved(const Views &views, const Quad &quad, int side, double from, double to) {
    const double lengthA = cv::norm(quad[(side + 3) % 4] - quad[side]);
    const double lengthB = cv::norm(quad[(side + 2) % 4] - quad[(side + 1) % 4]);
    if (lengthA < 8 || lengthB < 8) return {0, quad};
    const auto moved = [&](double alongA, double alongB) { return withSideMoved(quad, side, alongA, alongB); };
    const auto within = [&](double alongA, double alongB) {
        return alongA >= from * lengthA && alongA <= to * lengthA && alongB >= from * lengthB && alongB <= to * lengthB;
    };
    struct Place {
        double score, alongA, alongB;
        size_t order;  // in the first pass, which keeps the earliest of equal scores first
    };
    std::vector<Place> coarse;
    for (double alongA = from * lengthA; alongA <= to * lengthA; alongA += 8)
        for (double alongB = from * lengthB; alongB <= to * lengthB; alongB += 8) {
            if (std::abs(alongA) < 1 && std::abs(alongB) < 1) continue;
            const Quad trial = moved(alongA, alongB);
            if (!isConvex(trial)) continue;
            const double score = outlineScore(views, trial, 8);
            if (score > 0) coarse.push_back({score, alongA, alongB, coarse.size()});
        }
    if (coarse.empty()) return {0, quad};
    std::sort(coarse.begin(), coarse.end(), [](const Place &a, const Place &b) {
        return a.score != b.score ? a.score > b.score : a.order < b.order;
    });
    std::vector<Place> seeds;
    for (const Place &place : coarse) {
        if (seeds.size() == 3) break;
        if (std::all_of(seeds.begin(), seeds.end(), [&](const Place &seed) {
                return std::max(std::abs(seed.alongA - place.alongA), std::abs(seed.alongB - place.alongB)) > 12;
            }))
            seeds.push_back(place);
    }
    double best = 0, bestA = 0, bestB = 0;
    for (const Place &seed : seeds) {
        // The places after the best are climbed from only while nothing is outlined nearly all round (0.95), and
        // only where the first pass found half an outline or more.
        if (&seed != &seeds.front() && (best >= 0.95 || seed.score < 0.5)) break;
        double atA = seed.alongA, atB = seed.alongB, score = outlineScore(views, moved(atA, atB));
        for (const double step : {4.0, 2.0, 1.0, 0.5}) {
            for (bool moving = true; moving;) {
                moving = false;
                for (const auto [dA, dB] : {std::pair{step, 0.0}, {-step, 0.0}, {0.0, step}, {0.0, -step}}) {
                    if (!within(atA + dA, atB + dB)) continue;
                    const Quad trial = moved(atA + dA, atB + dB);
                    if (!isConvex(trial)) continue;
                    const double trialScore = outlineScore(views, trial);
                    if (trialScore > score) score = trialScore, atA += dA, atB += dB, moving = true;
                }
            }
        }
        if (score > best) best = score, bestA = atA, bestB = atB;
    }
    return {best, moved(bestA, bestB)};
}

/// `quad` with one side moved in over a shadow that it takes in beyond the document: a phone's hard shadow across a
/// card and the desk beside it, whose edge on the desk continues two of the card's sides so that the card's own side
/// in the shade is never proposed (seed 197000 multi-01: the card with a wedge of shaded desk, outlined 0.92, where
/// the card alone is outlined all round). The side's ends are moved along the sides next to it by up to three fifths
/// of them (``bestWithSideMoved``). The move is kept when the outline is then outlined nearly all round (0.97) and
/// clearly better (0.05), a rectangle to a camera (88 degrees), and what it leaves out is a shadow on the desk round
/// the rest (``isShadowAround``). A poor outline (under 0.7) needs only that what it leaves out holds no lines of print
/// (`linesIn` under 0.15): a hand's shadow over a page's corner on a pale desk, across which the outline ran on to the
/// shadow's far edge, taking in lit desk and shade alike (seed 251000 prose-03: 0.595, the page alone 0.983, its lines
/// 0.62 where the strip's are 0.10). Nothing otherwise.
template <typename LinesIn>
std::optional<Quad> slidInOverShadow(const Views &views, const cv::Mat &detail, const Quad &quad, double score,
                                     const LinesIn &linesIn) {
    std::optional<Quad> best;
    double bestScore = std::max(0.97, score + 0.05);
    for (int side = 0; side < 4; ++side) {
        // Only a side with shade just inside it (8 working pixels, 8 levels darker than the desk round the outline)
        // can have a shadow to leave out; the search is skipped for the others.
        const auto band = stripColours(views, quad, withSideMoved(quad, side, 8, 8));
        if (band && band->stripLightness > band->outsideLightness - 8) continue;
        const auto [trialScore, trial] = bestWithSideMoved(views, quad, side, 0, 0.6);
        if (trialScore < bestScore || rectangleCornerAngle(trial, views.lab.size()) < 88) continue;
        const Quad leftOut{quad[side], quad[(side + 1) % 4], trial[(side + 1) % 4], trial[side]};
        if (isShadowAround(views, detail, quad, trial) || (score < 0.7 && linesIn(leftOut) < 0.15))
            best = trial, bestScore = trialScore;
    }
    return best;
}

/// `quad` with one side moved out to the document's own side, when the outline stops short of it along a line across
/// the paper: a hand's hard shadow across a receipt, whose edge outlined the lit end (seed 131000 multi-03, IoU 0.73),
/// or the edge of a gingham's white square across a receipt's pale end (seed 165000 multi-06, 0.84). The side's ends
/// are moved out past the corners along the sides next to it by up to their length (``bestWithSideMoved``), and the
/// outline is climbed (``climbedToOutline``) when that leaves it fairly well outlined (0.7) but short of the mark (a
/// side moved along sides a few pixels off: seed 263000 multi-04's card, 0.73 moved out, 1.0 climbed). The
/// move is kept when the outline is then outlined nearly all round (0.97) and clearly better (0.05), a rectangle to a
/// camera (88 degrees), and what it adds has the paper's chroma (``otherChroma``): not a thumb over the document's end
/// (it took in one on seed 143000 multi-01), nor a band of a coloured desk. A move that is no better outlined is kept
/// when what it adds is more of the same paper (see below). Nothing otherwise.
std::optional<Quad> grownToOwnSide(const Views &views, const Quad &quad, double score) {
    std::optional<Quad> best;
    double bestScore = std::max(0.97, score + 0.05);
    for (int side = 0; side < 4; ++side) {
        // Only a side with the paper's chroma just past it (8 working pixels) can stop short of the document; the
        // search is skipped for the others. Its lightness tells nothing: a white card on a pale desk lit unevenly
        // steps from the desk round it by under 8 levels (seed 263000 multi-04: 191 against 184, the card's blank
        // end left out along the last line of its print).
        const auto band = stripColours(views, withSideMoved(quad, side, -8, -8), quad);
        if (band && chromaDistance(band->strip, band->inside) >= otherChroma) continue;
        auto [trialScore, trial] = bestWithSideMoved(views, quad, side, -1.0, 0);
        if (trialScore >= 0.7 && trialScore < bestScore) {
            trial = climbedToOutline(views, trial);
            trialScore = outlineScore(views, trial);
        }
        if (rectangleCornerAngle(trial, views.lab.size()) < 88) continue;
        const auto colours = stripColours(views, trial, quad);
        if (!colours || chromaDistance(colours->strip, colours->inside) >= otherChroma) continue;
        // Or, outlined as well as before and all round seen past what lies over it (0.9), when what it adds is more
        // of the same paper, far lighter than the desk: a receipt on a dark carpet under a thumb whose lit end a
        // shadow's edge cut off, the edge as crisp as the end (seed 279000 receipt-04: 0.777 either way, 0.74 -> 0.99).
        if (trialScore < bestScore &&
            !(std::abs(colours->stripLightness - colours->paperLightness) < 15 &&
              colours->stripLightness >= colours->outsideLightness + 40 && trialScore >= score - 0.02 &&
              outlineScoreSeeingPast(views, trial) >= 0.9))
            continue;
        best = trial, bestScore = std::max(bestScore, trialScore);
    }
    return best;
}

/// Erases the elements of `items` whose place in `marked` is set, keeping the others in order.
template <typename Item>
void eraseMarked(std::vector<Item> &items, const std::vector<bool> &marked) {
    size_t kept = 0;
    for (size_t k = 0; k < items.size(); ++k)
        if (!marked[k]) items[kept++] = std::move(items[k]);
    items.resize(kept);
}

/// Whether `candidate` is well outlined (0.8) round a region at most half as light as what surrounds it: a dark card on
/// a lighter desk or cloth, not the shade a phone or a hand casts on a desk, which leaves two thirds of the light (seed
/// 129000 spread-02).
bool isWellOutlinedDarkRegion(const Views &views, const Candidate &candidate) {
    return candidate.score >= 0.8 &&
           views.colourInside(candidate.quad).lightness <= 0.5 * views.colourJustOutside(candidate.quad).lightness;
}

/// The level that best splits the pixels of an 8-bit image darker than or at `ceiling` in two (``otsuSplit``), when
/// there are enough of them (a tenth of the image).
std::optional<int> otsuLevelBelow(const cv::Mat &gray, int ceiling) {
    const docscan::LevelCounts levels(gray);
    const size_t under = std::accumulate(levels.counts.begin(), levels.counts.begin() + ceiling + 1, size_t{0});
    if (static_cast<double>(under) < 0.1 * static_cast<double>(levels.total)) return std::nullopt;
    return otsuSplit(levels.counts, ceiling + 1);
}

/// Proposes outlines from thresholds of each Lab channel, from smooth regions on busy cloth (and on a surface a
/// little rougher than paper: `smoothPatches`, see ``Surface``) and from closed edge maps
/// (the map and its straight lines worked out once, into `colourEdges`), and from hairlines when `views` has the
/// lightness's curvature (see ``edgeLineAlong``).
std::vector<Candidate> propose(const cv::Mat &smallBGR, const cv::Mat &detail, double minAreaFraction, Views &views,
                               std::optional<ColourEdges> &colourEdges, const cv::Mat &smoothPatches) {
    cv::Mat smooth;
    cv::medianBlur(smallBGR, smooth, 5);
    cv::Mat lab;
    cv::cvtColor(smooth, lab, cv::COLOR_BGR2Lab);
    lab.convertTo(views.lab, CV_32FC3);
    const double minArea = minAreaFraction * smallBGR.total();

    std::vector<Candidate> candidates;
    std::vector<cv::Mat> channels;
    cv::split(lab, channels);
    const cv::Mat kernel = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(5, 5));
    const auto addRegions = [&](cv::Mat m) {
        cv::morphologyEx(m, m, cv::MORPH_OPEN, kernel);
        cv::morphologyEx(m, m, cv::MORPH_CLOSE, kernel);
        addOutlines(m, minArea, views, candidates);
    };
    for (int c = 0; c < 3; ++c) {
        cv::Mat mask;
        const double level = cv::threshold(channels[c], mask, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
        addRegions(mask);
        addRegions(255 - mask);
        if (c == 0) {
            // Three tones of lightness (a black card and a white receipt on a grey desk: seed 209000 multi-05, where
            // the card's red logo cut off a corner of what remained) split once leave the darkest with the middle
            // one: the darker tones are split again on their own. Of what that finds, only well outlined dark regions
            // are kept (``isWellOutlinedDarkRegion``): not the black of a card without its green accent bar, which a
            // thumb hides (seed 181000 multi-05, 0.76).
            if (const auto darker = otsuLevelBelow(channels[0], static_cast<int>(level))) {
                const size_t before = candidates.size();
                addRegions(channels[0] <= *darker);
                candidates.erase(std::remove_if(candidates.begin() + before, candidates.end(), [&](const Candidate &dark) {
                    return !isWellOutlinedDarkRegion(views, dark);
                }), candidates.end());
                for (auto it = candidates.begin() + before; it != candidates.end(); ++it) it->darkRegion = true;
            }
        }
    }
    addSmoothRegions(detail, minArea, views, candidates);
    if (!views.texture.empty()) {
        // Paper on woven cloth: the regions smooth at the finest scale, the print closed over.
        cv::Mat paper = views.texture < views.smoothBelow;
        cv::morphologyEx(paper, paper, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3)));
        cv::morphologyEx(paper, paper, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(9, 9)));
        addOutlines(paper, minArea, views, candidates, cv::RETR_EXTERNAL, 3);
    } else if (!smoothPatches.empty()) {
        // Paper on a surface a little rougher than it (``Surface/smoothPatches``), the print closed over.
        cv::Mat paper;
        cv::morphologyEx(smoothPatches, paper, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3)));
        cv::morphologyEx(paper, paper, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(9, 9)));
        const size_t before = candidates.size();
        addOutlines(paper, minArea, views, candidates, cv::RETR_EXTERNAL, 3);
        // Such a patch follows the paper only roughly (its print and a shadow across it eat into it): the four
        // largest outlines (a climb takes a millisecond or two) are also proposed with their corners moved to where
        // they are best outlined (``climbedToOutline``).
        std::vector<Quad> patches;
        for (size_t k = before; k < candidates.size(); ++k) patches.push_back(candidates[k].quad);
        std::sort(patches.begin(), patches.end(), [](const Quad &a, const Quad &b) {
            return std::abs(signedArea(a)) > std::abs(signedArea(b));
        });
        if (patches.size() > 4) patches.resize(4);
        for (const Quad &patch : patches) {
            const Quad climbed = climbedToOutline(views, patch);
            candidates.push_back({climbed, outlineScore(views, climbed), std::abs(signedArea(climbed))});
        }
    }
    if (!colourEdges) {
        colourEdges.emplace();
        colourEdges->edges = cv::Mat::zeros(lab.size(), CV_8U);
        for (int c = 0; c < 3; ++c) {
            cv::Mat e;
            const double low = c == 0 ? 12 : 6;
            cv::Canny(channels[c], e, low, low * 2.5, 3, true);
            colourEdges->edges |= e;
        }
        colourEdges->lines = straightEdges(colourEdges->edges, 14);
    }
    addLineQuads(colourEdges->lines, minArea, views, candidates);
    // A white page on a pale desk lit alike shows its edge as a hairline only, which the median filter erased from the
    // edges above: when hairlines are looked for, quads of the longest of them too.
    if (!views.curvature.empty()) addLineQuads(straightEdges(hairlines(views), 8), minArea, views, candidates);
    cv::Mat edges;
    cv::dilate(colourEdges->edges, edges, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3)));
    addOutlines(edges, minArea, views, candidates, cv::RETR_LIST);
    return candidates;
}

/// A BGR colour in 8-bit Lab, as the working views hold it.
cv::Scalar labOf(const cv::Vec3f &bgr) {
    cv::Mat3b pixel(1, 1, cv::Vec3b(bgr));  // rounded and saturated
    cv::Mat3b lab;
    cv::cvtColor(pixel, lab, cv::COLOR_BGR2Lab);
    return cv::Scalar(lab(0, 0));
}

/// The offset of a document's edge across one place of a side: `strongest`, the offset of the strongest colour edge in
/// `profile` (colours from `-reach` inwards to `reach` outwards, edge strengths in `strength`), or the nearest edge
/// further out (a quarter as strong at least) when what lies between the two is a band of a colour of its own
/// (``bandChroma``), unlike both the paper inside and what lies beyond it: the accent bar printed along a business
/// card's end, whose edge with the paper is the stronger one (a red bar on a light grey desk or on wood). A shadow
/// beside a page darkens the desk without changing its chroma, and the grain or the mottling of a desk keeps the desk's
/// colour. (The nearest, not the outermost: specks of granite beyond a bar make edges too.)
int outerEdgePastBand(const std::vector<cv::Vec3f> &profile, const std::vector<char> &valid,
                      const std::vector<double> &strength, int reach, int strongest) {
    const auto meanColour = [&](int from, int to, cv::Vec3f &mean) {  // offsets, both included
        int n = 0;
        mean = {0, 0, 0};
        for (int o = std::max(from, -reach); o <= std::min(to, reach); ++o)
            if (valid[o + reach]) mean += profile[o + reach], ++n;
        if (n == 0) return false;
        mean *= 1.0f / n;
        return true;
    };
    const double best = strength[strongest + reach];
    std::optional<cv::Scalar> paper;  // the colour inside the strongest edge, converted when first needed
    for (int o = strongest + 4; o <= reach - 2; ++o) {  // the nearest first
        const int k = o + reach;
        if (strength[k] < 0.25 * best || strength[k] < 8 || strength[k] < strength[k - 1] || strength[k] < strength[k + 1]) continue;
        cv::Vec3f band, beyond;
        if (!paper) {
            cv::Vec3f inside;
            if (!meanColour(strongest - 6, strongest - 2, inside)) return strongest;
            paper = labOf(inside);
        }
        if (!meanColour(strongest + 2, o - 2, band) || !meanColour(o + 2, o + 6, beyond)) continue;
        const cv::Scalar bar = labOf(band), desk = labOf(beyond);
        if (chromaOf(bar) >= bandChroma && chromaDistance(bar, *paper) >= bandChroma && chromaDistance(bar, desk) >= bandChroma)
            return o;
    }
    return strongest;
}

/// Moves one side onto the strongest colour edge near it at full resolution; returns nullopt without clear support.
std::optional<Line> refineSide(const cv::Mat &image, cv::Point2d a, cv::Point2d b, cv::Point2d outward, double radius,
                               std::mt19937 &random) {
    constexpr int positions = 64;
    const cv::Point2d along = (b - a) * (1.0 / cv::norm(b - a));
    const int reach = static_cast<int>(std::ceil(radius));
    const auto color = [&](cv::Point2d p, cv::Vec3f &v) {
        // Average of three points along the side, which quietens noise and print.
        cv::Vec3f s0, s1, s2;
        if (!sample<cv::Vec3b>(image, p - along * 2.0, s0) || !sample<cv::Vec3b>(image, p, s1) ||
            !sample<cv::Vec3b>(image, p + along * 2.0, s2))
            return false;
        v = (s0 + s1 + s2) * (1.0f / 3);
        return true;
    };
    std::vector<cv::Point2d> points;
    std::vector<cv::Vec3f> profile(2 * reach + 1);
    std::vector<char> valid(2 * reach + 1);
    for (int i = 0; i < positions; ++i) {
        const double t = 0.05 + 0.9 * (i + 0.5) / positions;
        const cv::Point2d base = a + (b - a) * t;
        for (int o = -reach; o <= reach; ++o) valid[o + reach] = color(base + outward * o, profile[o + reach]);
        double best = 0;
        int bestOffset = 0;
        std::vector<double> strength(2 * reach + 1, 0);
        for (int o = -reach + 2; o <= reach - 2; ++o) {
            const int k = o + reach;
            if (!valid[k - 2] || !valid[k + 2]) continue;
            strength[k] = cv::norm(profile[k + 2] - profile[k - 2]);
            if (strength[k] > best) best = strength[k], bestOffset = o;
        }
        if (best < 8) continue;
        bestOffset = outerEdgePastBand(profile, valid, strength, reach, bestOffset);
        // Sub-pixel peak by a parabola through the neighbours.
        double offset = bestOffset;
        const int k = bestOffset + reach;
        if (k > 0 && k < 2 * reach && strength[k - 1] > 0 && strength[k + 1] > 0) {
            const double l = strength[k - 1], c = strength[k], r = strength[k + 1];
            const double denominator = l - 2 * c + r;
            if (denominator < 0) offset += std::clamp(0.5 * (l - r) / denominator, -0.5, 0.5);
        }
        points.push_back(base + outward * offset);
    }
    if (points.size() < positions / 4) return std::nullopt;
    // RANSAC: the line through two edge points that most others agree with, then least squares on its inliers.
    const double tolerance = std::max(1.5, radius / 12);
    std::uniform_int_distribution<size_t> pick(0, points.size() - 1);
    std::vector<cv::Point2d> bestInliers;
    for (int iteration = 0; iteration < 80; ++iteration) {
        const size_t i = pick(random), j = pick(random);
        if (i == j || cv::norm(points[i] - points[j]) < 1e-6) continue;
        const Line candidate = lineThrough(points[i], points[j]);
        if (std::abs(candidate.normal.dot(outward)) < 0.9) continue;  // must stay nearly parallel to the side
        std::vector<cv::Point2d> inliers;
        for (const auto &p : points)
            if (candidate.distanceTo(p) <= tolerance) inliers.push_back(p);
        if (inliers.size() > bestInliers.size()) bestInliers = std::move(inliers);
    }
    if (bestInliers.size() < std::max<size_t>(10, positions * 3 / 10)) return std::nullopt;
    return fitLine(bestInliers);
}

/// The outline with each side moved onto the strongest straight edge within `radius` pixels of it (found along most of
/// the side, so that a thumb or a shadow over part of it does not pull it), in `image` (8-bit, one or three channels);
/// none when a corner would move more than three radii or the result is not convex.
std::optional<Quad> refinedOutline(const cv::Mat &image, const Quad &quad, double radius) {
    // Only the band around the outline is read, so convert just that region.
    cv::Rect region = cv::boundingRect(std::vector<cv::Point2f>(quad.begin(), quad.end()));
    const int margin = static_cast<int>(std::ceil(radius)) + 6;
    region = cv::Rect(region.x - margin, region.y - margin, region.width + 2 * margin, region.height + 2 * margin) &
             cv::Rect(0, 0, image.cols, image.rows);
    if (region.empty()) return std::nullopt;
    cv::Mat color = image(region);
    if (image.channels() == 1) cv::cvtColor(image(region), color, cv::COLOR_GRAY2BGR);
    const cv::Point2d shift(region.x, region.y);
    const double orientation = signedArea(quad) > 0 ? 1 : -1;
    std::mt19937 random(7);
    std::array<Line, 4> lines;
    for (int side = 0; side < 4; ++side) {
        const cv::Point2d a = quad[side] - shift, b = quad[(side + 1) % 4] - shift;
        const cv::Point2d direction = (b - a) * (1.0 / cv::norm(b - a));
        const cv::Point2d outward = cv::Point2d(direction.y, -direction.x) * orientation;
        auto refined = refineSide(color, a, b, outward, radius, random);
        // A refined side must stay within the search band of the rough one.
        if (refined) {
            const double da = refined->normal.dot(a) - refined->offset, db = refined->normal.dot(b) - refined->offset;
            if (std::abs(da) > radius * 1.5 || std::abs(db) > radius * 1.5) refined.reset();
        }
        lines[side] = refined ? *refined : lineThrough(a, b);
    }
    Quad result;
    for (int i = 0; i < 4; ++i) {
        auto corner = intersect(lines[(i + 3) % 4], lines[i]);
        if (!corner) return std::nullopt;
        result[i] = *corner + shift;
        if (cv::norm(result[i] - quad[i]) > 3 * radius) return std::nullopt;
    }
    if (!isConvex(result)) return std::nullopt;
    return result;
}

/// Whether at least three other well-supported, non-overlapping outlines have about the same size and shape: the cells
/// of a checked or tiled background, each outlined as crisply as the next (0.7 at least). Outlines within `printed`
/// (documents with lines of print, which a cloth's cells are not, and the parts of them) do not count: two cards and
/// the blocks of a receipt are not a pattern. Nor do weak outlines (0.5 to 0.64) that straight edges running on past the
/// documents close between them: three such outlines round a receipt on denim passed a card beside it, and another
/// receipt (lines of print 0.29, just short of the 0.3 of `printed`), for cells of a pattern (seed 97000 multi-01 and
/// multi-08).
bool repeats(const Candidate &candidate, const std::vector<Candidate> &all, const std::vector<Quad> &printed) {
    const auto sides = [](const Quad &q) {
        std::array<double, 2> s{cv::norm(q[0] - q[1]) + cv::norm(q[2] - q[3]), cv::norm(q[1] - q[2]) + cv::norm(q[3] - q[0])};
        if (s[0] > s[1]) std::swap(s[0], s[1]);
        return s;
    };
    const auto mine = sides(candidate.quad);
    std::vector<const Candidate *> alike;
    for (const auto &other : all) {
        if (other.score < 0.7) continue;
        const bool isPrinted = std::any_of(printed.begin(), printed.end(), [&](const Quad &p) {
            return overlapArea(p, other.quad) >= 0.85 * other.area;
        });
        if (isPrinted) continue;
        const auto theirs = sides(other.quad);
        if (std::abs(theirs[0] / mine[0] - 1) > 0.35 || std::abs(theirs[1] / mine[1] - 1) > 0.35) continue;
        bool separate = overlapArea(other.quad, candidate.quad) < 0.2 * candidate.area;
        for (const auto *seen : alike) separate = separate && overlapArea(other.quad, seen->quad) < 0.2 * other.area;
        if (separate) alike.push_back(&other);
    }
    return alike.size() >= 3;
}

/// `document` with a side taken from a near twin where that fits better: each side that steps along less than eight
/// tenths of itself is tried on the line of each side of every outline in `candidates` that overlaps the document by
/// four fifths or more of the two together (a line within 40 degrees of it, its middle at most a tenth of the
/// document's size away), and the best outline that is a rectangle to a camera (85 degrees) and scores 0.05 more than
/// the last is kept, twice over. Two outlines of one receipt on a checked cloth may each follow the cloth's squares
/// past one end and the paper's edge at the other: neither is the receipt, but together they hold its four sides (seed
/// 179000 receipt-06: 0.963 -> 0.996; its text had come out sheared, rows of prices beside the wrong items). Sides
/// that step well stay: a soft cover's edge beyond a page's scores higher and is no page's.
Candidate withSidesFromTwins(const Views &views, Candidate document, const std::vector<Candidate> &candidates) {
    const cv::Size frame = views.lab.size();
    const double size = std::sqrt(document.area);
    std::vector<std::array<Line, 4>> twinSides;
    for (const auto &c : candidates) {
        const double shared = overlapArea(c.quad, document.quad);
        if (shared < 0.8 * (c.area + document.area - shared)) continue;
        std::array<Line, 4> sides;
        for (int k = 0; k < 4; ++k) sides[k] = lineThrough(c.quad[k], c.quad[(k + 1) % 4]);
        twinSides.push_back(sides);
    }
    if (twinSides.empty()) return document;
    constexpr int samples = 32;
    for (int round = 0; round < 2; ++round) {
        std::optional<Candidate> best;
        const double orientation = signedArea(document.quad) > 0 ? 1 : -1;
        std::array<Line, 4> own;
        for (int k = 0; k < 4; ++k) own[k] = lineThrough(document.quad[k], document.quad[(k + 1) % 4]);
        for (int side = 0; side < 4; ++side) {
            const cv::Point2d a = document.quad[side], b = document.quad[(side + 1) % 4];
            if (sideSupport(views, a, b, orientation, samples) >= 0.8 * samples) continue;
            const cv::Point2d middle = 0.5 * (a + b);
            for (const auto &sides : twinSides) {
                for (const Line &line : sides) {
                    if (std::abs(line.normal.dot(own[side].normal)) < std::cos(40 * CV_PI / 180)) continue;
                    const double apart = line.distanceTo(middle);
                    if (apart < 1 || apart > 0.1 * size) continue;
                    std::array<Line, 4> lines = own;
                    lines[side] = line;
                    Quad mixed;
                    bool closed = true;
                    for (int k = 0; k < 4 && closed; ++k) {
                        const auto corner = intersect(lines[(k + 3) % 4], lines[k]);
                        closed = corner.has_value();
                        if (closed) mixed[k] = *corner;
                    }
                    if (!closed || !isConvex(mixed) || isDegenerate(mixed) || rectangleCornerAngle(mixed, frame) < 85) continue;
                    const double score = outlineScore(views, mixed);
                    if (score < document.score + 0.05 || (best && score <= best->score)) continue;
                    best = Candidate{mixed, score, std::abs(signedArea(mixed))};
                }
            }
        }
        if (!best) break;
        document = *best;
    }
    return document;
}

/// The whole of a document of which `piece` outlines only part, a hard shadow's edge (one side of `piece`) cutting
/// the rest off; nothing when no side is such an edge or the sides beside it do not run on past it. The cut side has
/// the same paper on both sides of it in different light (15 levels or more apart along seven tenths of it, the
/// darker keeping a third of the light, its chroma within ``otherChroma``). Either `piece` is the lit part, darker
/// beyond the cut, and no camera sees it as a rectangle (under 85 degrees, see ``rectangleCornerAngle``: the edge
/// slants across the document); or `piece` is the shaded part, lighter beyond the cut, and lighter than the desk
/// beyond another side (half of it or more), as paper is even in shade (seed 129000 spread-06: a phone's shadow
/// across a page whose lit end barely steps from a pale desk; the shaded part, slanted by the camera's tilt, is a
/// rectangle to it). The sides beside the cut are followed past it, as far as three times the longer of them, and a
/// far side closes the outline: the two runs past the cut and the far side must each step along six tenths of
/// itself, and the whole must be a rectangle to a camera (within 3 degrees of square). Of such outlines, the smallest
/// within 0.05 of the best supported is the document: a shadow's own edge beyond it can close an outline as crisp. A
/// document on a desk of its own chroma, darker or lighter than the paper, passes the first test all round, but its
/// sides do not run on past its corners; and a document darker than the desk all round is no shaded piece.
std::optional<Candidate> completedPastShadow(const Views &views, const Quad &piece) {
    const cv::Size frame = views.lab.size();
    if (isDegenerate(piece)) return std::nullopt;
    const bool seenAsRectangle = rectangleCornerAngle(piece, frame) >= 85;
    const double orientation = signedArea(piece) > 0 ? 1 : -1;
    constexpr int samples = 32;
    const auto steps = [&](cv::Point2d a, cv::Point2d b) {
        return sideSupport(views, a, b, orientation, samples) >= 0.6 * samples;
    };
    const auto inFrame = [&](cv::Point2d p) {
        return p.x >= 0 && p.y >= 0 && p.x <= frame.width - 1 && p.y <= frame.height - 1;
    };
    // Along each side, the share of the places where the same paper lies on both sides in different light: lit
    // inside and shaded outside, or the other way round.
    std::array<double, 4> litInside{}, shadedInside{};
    for (int side = 0; side < 4; ++side) {
        int lit = 0, shaded = 0, total = 0;
        pointsAcrossSide(frame, piece[side], piece[(side + 1) % 4], orientation, samples, [&](cv::Point2d in, cv::Point2d out) {
            cv::Vec3f inside, outside;
            if (!sample<cv::Vec3f>(views.lab, in, inside) || !sample<cv::Vec3f>(views.lab, out, outside)) return;
            ++total;
            const float lighter = std::max(inside[0], outside[0]), darker = std::min(inside[0], outside[0]);
            if (lighter - darker < 15 || darker < lighter / 3 ||
                chromaDistance(cv::Scalar(inside), cv::Scalar(outside)) >= otherChroma)
                return;
            (inside[0] > outside[0] ? lit : shaded) += 1;
        });
        if (total < samples / 2) continue;
        litInside[side] = double(lit) / total, shadedInside[side] = double(shaded) / total;
    }
    std::vector<Candidate> found;
    for (int cut = 0; cut < 4; ++cut) {
        const auto litElsewhere = [&] {
            for (int side = 0; side < 4; ++side)
                if (side != cut && litInside[side] >= 0.5) return true;
            return false;
        };
        const bool litPieceCut = litInside[cut] >= 0.7 && !seenAsRectangle;
        const bool shadedPieceCut = shadedInside[cut] >= 0.7 && litElsewhere();
        if (!litPieceCut && !shadedPieceCut) continue;
        const cv::Point2d a = piece[cut], b = piece[(cut + 1) % 4];
        const cv::Point2d before = piece[(cut + 3) % 4], after = piece[(cut + 2) % 4];
        const double lengthBefore = cv::norm(a - before), lengthAfter = cv::norm(b - after);
        const cv::Point2d runA = (a - before) * (1 / lengthBefore), runB = (b - after) * (1 / lengthAfter);
        const double reach = 3 * std::max(lengthBefore, lengthAfter), step = std::max(1.0, reach / 60);
        // The corners that the side through `b` can run on to past the cut, stepping all the way, found once for all
        // the corners on the side through `a`.
        std::vector<cv::Point2d> cornersB;
        for (double tb = step; tb <= reach; tb += step) {
            const cv::Point2d cornerB = b + runB * tb;
            if (!inFrame(cornerB)) break;
            if (steps(cornerB, b)) cornersB.push_back(cornerB);
        }
        for (double ta = step; ta <= reach; ta += step) {
            const cv::Point2d cornerA = a + runA * ta;
            if (!inFrame(cornerA)) break;
            if (!steps(a, cornerA)) continue;
            for (const cv::Point2d &cornerB : cornersB) {
                Quad whole = piece;
                whole[cut] = cornerA, whole[(cut + 1) % 4] = cornerB;
                if (!isConvex(whole) || rectangleCornerAngle(whole, frame) < 87 || !steps(cornerA, cornerB)) continue;
                found.push_back({whole, outlineScore(views, whole), std::abs(signedArea(whole))});
            }
        }
    }
    double bestScore = 0;
    for (const auto &c : found) bestScore = std::max(bestScore, c.score);
    std::optional<Candidate> best;
    for (const auto &c : found)
        if (c.score >= bestScore - 0.05 && (!best || c.area < best->area)) best = c;
    return best;
}

/// The region inside a small-scale outline, rectified from the full-resolution photo to at most 700 pixels. Each
/// pixel is the photo's nearest one: the region is several times smaller than the photo, so bilinear weights (what
/// OpenCV's warp does when asked for area averaging) sample it no better, and take longer.
cv::Mat rectifiedRegion(const cv::Mat &photo, const Quad &quad, double factor) {
    std::vector<cv::Point2f> source;
    for (const auto &p : quad) source.emplace_back(static_cast<float>((p.x + 0.5) * factor - 0.5), static_cast<float>((p.y + 0.5) * factor - 0.5));
    const double width = 0.5 * (cv::norm(source[1] - source[0]) + cv::norm(source[2] - source[3]));
    const double height = 0.5 * (cv::norm(source[3] - source[0]) + cv::norm(source[2] - source[1]));
    const double scale = std::min(1.0, 700.0 / std::max(width, height));
    const cv::Size size(std::max(8, static_cast<int>(width * scale)), std::max(8, static_cast<int>(height * scale)));
    const std::vector<cv::Point2f> target{{0, 0}, {float(size.width - 1), 0}, {float(size.width - 1), float(size.height - 1)}, {0, float(size.height - 1)}};
    cv::Mat region;
    cv::warpPerspective(photo, region, cv::getPerspectiveTransform(source, target), size, cv::INTER_NEAREST);
    return region;
}

/// How textured the surface inside a region is: the lower quartile of the Laplacian magnitude of its lightly smoothed
/// luminance. Paper is smooth between the print; woven cloth, carpet and granite are rough everywhere.
double surfaceRoughness(const cv::Mat &region) {
    cv::Mat smooth, laplacian;
    cv::GaussianBlur(docscan::gray(region), smooth, cv::Size(0, 0), 1.0);
    cv::Laplacian(smooth, laplacian, CV_16S, 3);
    laplacian = cv::abs(laplacian);
    const int margin = std::min(region.cols, region.rows) / 10;
    const cv::Mat inner = laplacian(cv::Rect(margin, margin, region.cols - 2 * margin, region.rows - 2 * margin));
    // The lower quartile: print may cover half of a dense page, but paper shows between it. (The magnitudes are 0 to
    // 32767, so they are ranked as 16-bit values.)
    std::vector<uint16_t> values;
    values.reserve(inner.total());
    for (int y = 0; y < inner.rows; ++y) values.insert(values.end(), inner.ptr<short>(y), inner.ptr<short>(y) + inner.cols);
    return valueOfRank(values, values.size() / 4);
}

/// The share of a region's pixels (its margin left out) that stand out from its prevailing tone by a clear step of
/// lightness, darker or lighter: the print on a document, a few percent even on a sparse card. A shadow or a patch of
/// plain desk, however crisply outlined, has almost none; sensor noise and a soft shading stay within the step.
double markShare(const cv::Mat &region) {
    const cv::Mat luminance = docscan::gray(region);
    const int margin = std::min(region.cols, region.rows) / 10;
    const cv::Mat inner = luminance(cv::Rect(margin, margin, region.cols - 2 * margin, region.rows - 2 * margin));
    const docscan::LevelCounts levels(inner);
    constexpr int step = 40;
    // Light stock with dark print, or the reverse.
    const int paper = levels.valueAtShare(0.9), card = levels.valueAtShare(0.1);
    double darker = 0, lighter = 0;
    for (int v = 0; v < 256; ++v) {
        if (v < paper - step) darker += static_cast<double>(levels.counts[v]);
        if (v > card + step) lighter += static_cast<double>(levels.counts[v]);
    }
    return std::max(darker, lighter) / static_cast<double>(std::max<size_t>(1, inner.total()));
}

/// The block averages of ``shrinkByWholeFactor`` along one row of `rowSums` (each the sum of `k` rows), `k` columns
/// at a time. `Known` is `k` when the compiler knows it (4, for a 12 MP photo's half-size copy), which lets it unroll
/// the sums: twice as fast as the loop over a factor known only when running (`Known` 0).
template <int Known>
void averageBlocks(const uint16_t *rowSums, int width, int k, float scale, uchar *target) {
    const int factor = Known > 0 ? Known : k;
    for (int x = 0; x < width; ++x, rowSums += 3 * factor, target += 3)
        for (int c = 0; c < 3; ++c) {
            uint32_t sum = 0;
            for (int j = 0; j < factor; ++j) sum += rowSums[3 * j + c];
            target[c] = cv::saturate_cast<uchar>(static_cast<float>(sum) * scale);
        }
}

/// Area averaging of 8-bit BGR `source` down to `size` when that is a whole factor k from 3 to 16 both ways (a 12 MP
/// photo's half-size copy to the working size is 4): the same pixels as OpenCV's INTER_AREA, which vectorises only
/// halving and takes two and a half times as long here, by summing k rows at a time and then k columns. False,
/// untouched, otherwise.
bool shrinkByWholeFactor(const cv::Mat &source, cv::Size size, cv::Mat &out) {
    if (source.type() != CV_8UC3 || size.width <= 0 || size.height <= 0) return false;
    const int k = source.cols / size.width;
    if (k < 3 || k > 16 || source.cols != k * size.width || source.rows != k * size.height) return false;
    const float scale = 1.0f / static_cast<float>(k * k);  // as OpenCV's area path computes it
    out.create(size, CV_8UC3);
    const int length = source.cols * 3;
    std::vector<uint16_t> rowSums(length);  // up to 16 * 16 * 255: a block's sum fits in 16 bits
    for (int y = 0; y < size.height; ++y) {
        const uchar *first = source.ptr<uchar>(y * k);
        std::copy(first, first + length, rowSums.begin());
        for (int r = 1; r < k; ++r) {
            const uchar *row = source.ptr<uchar>(y * k + r);
            for (int i = 0; i < length; ++i) rowSums[i] += row[i];
        }
        uchar *target = out.ptr<uchar>(y);
        if (k == 4) averageBlocks<4>(rowSums.data(), size.width, k, scale, target);
        else averageBlocks<0>(rowSums.data(), size.width, k, scale, target);
    }
    return true;
}

}  // namespace

ds_detect_options ds_detect_options_default(void) { return {560, 0.005, 0.5, 1}; }

ds_status ds_refine_quad(const ds_image *image, double corners[8], double search_radius) {
    return guarded("refine_quad", [&]() -> ds_status {
        if (!(search_radius > 0)) return fail(DS_ERROR_INVALID_ARGUMENT, "search radius must be positive");
        Quad quad;
        for (int i = 0; i < 4; ++i) quad[i] = {corners[2 * i], corners[2 * i + 1]};
        if (!isConvex(quad)) return fail(DS_ERROR_INVALID_ARGUMENT, "the outline is not a convex quadrilateral");
        const auto result = refinedOutline(image->mat, quad, search_radius);
        if (!result) return DS_OK;  // keep the rough outline
        for (int i = 0; i < 4; ++i) corners[2 * i] = (*result)[i].x, corners[2 * i + 1] = (*result)[i].y;
        return DS_OK;
    });
}

ds_status ds_detect_documents(const ds_image *image, const ds_detect_options *options, ds_detection *results,
                              int32_t capacity, int32_t *count) {
    *count = 0;
    return guarded("detect_documents", [&]() -> ds_status {
        if (capacity < 0) return fail(DS_ERROR_INVALID_ARGUMENT, "capacity must not be negative");
        if (options->working_size < 64) return fail(DS_ERROR_INVALID_ARGUMENT, "working size must be at least 64");
        const cv::Mat &source = image->mat;
        if (source.cols < 16 || source.rows < 16) return DS_OK;
        cv::Mat color = source.channels() == 3 ? source : cv::Mat();
        if (color.empty()) cv::cvtColor(source, color, cv::COLOR_GRAY2BGR);
        // The working copy, and the copy the fine texture is read from: the photo itself up to 3.5 MP, else the
        // half-size copy that docscan::downscale would pass through on its way to the working size (made here, to be
        // kept).
        const int longest = std::max(color.cols, color.rows);
        const int steps = static_cast<int>(std::ceil(static_cast<double>(longest) / options->working_size));
        cv::Mat small, fine = color;
        double factor;
        if (color.total() > 3500000 && steps >= 4) {
            const cv::Size size(std::max(1, color.cols / steps), std::max(1, color.rows / steps));
            cv::resize(color, fine, cv::Size(color.cols / 2, color.rows / 2), 0, 0, cv::INTER_AREA);
            if (!shrinkByWholeFactor(fine, size, small)) cv::resize(fine, small, size, 0, 0, cv::INTER_AREA);
            factor = static_cast<double>(color.cols) / size.width;
        } else {
            factor = docscan::downscale(color, options->working_size, small);
        }
        Surface surface = wovenSurface(fineTexture(fine, small.size()));
        fine.release();
        // What an outline holds (``rectifiedRegion``): how rough its surface is (``surfaceRoughness``), how much of it
        // is marked (``markShare``) and how strongly its print runs in lines (``docscan::textLineStrength``, ``linesIn``).
        // Measured once per outline: the same outlines are judged again when the choice is made a second time, when
        // it is made with the hairlines, and on the brighter copy of a dark photo (see below). The lines, which take
        // three times as long as the rest (about 11 ms on a region of 700 pixels), only when asked: a well outlined
        // main document needs none.
        struct Held {
            cv::Mat region;
            double roughness, marks;
            std::optional<double> lines;
        };
        std::map<Views::Corners, Held> heldBy;
        const auto held = [&](const Quad &quad) -> Held & {
            const auto key = Views::cornersOf(quad);
            if (const auto known = heldBy.find(key); known != heldBy.end()) return known->second;
            cv::Mat region = rectifiedRegion(color, quad, factor);
            const double roughness = surfaceRoughness(region), marks = markShare(region);
            return heldBy.emplace(key, Held{std::move(region), roughness, marks, std::nullopt}).first->second;
        };
        const auto linesIn = [&](const Quad &quad) {
            Held &measured = held(quad);
            if (!measured.lines) measured.lines = docscan::textLineStrength(measured.region), measured.region.release();
            return *measured.lines;
        };
        // The documents found on a working copy (`small`, or a brighter copy of it: see below).
        const auto documentsOn = [&](const cv::Mat &small) {
            const cv::Mat detail = fineDetail(small);
            Views views;
            if (surface.woven) views.texture = surface.texture, views.smoothBelow = surface.threshold;
            std::optional<ColourEdges> colourEdges;
            // Two outlines of one document cut apart meet within a hundredth of the working image's longer side: a
            // shadow's soft edge leaves a seam a few pixels wide between the lit piece and the shaded one.
            const double seam = 0.01 * std::max(small.cols, small.rows);
            const auto proposed = [&] {
                auto candidates = propose(small, detail, options->min_area_fraction, views, colourEdges, surface.smoothPatches);
                if (surface.woven) {
                    // An outline round woven surface is a patch of the cloth, however crisp the squares that bound it;
                    // but a well outlined dark region that the darker tones' own split found is a dark card, whose
                    // paper shows a camera's noise as the threads of the cloth do (seed 227000 multi-04, a black card
                    // on grey cloth: 22 against the bar of 19).
                    candidates.erase(std::remove_if(candidates.begin(), candidates.end(), [&](const Candidate &c) {
                        return !c.darkRegion && rimTexture(surface.texture, c.quad) >= surface.threshold;
                    }), candidates.end());
                }
                const auto joined = joinedAcrossShadowEdges(views, candidates, seam);
                candidates.insert(candidates.end(), joined.begin(), joined.end());
                return candidates;
            };
            auto allCandidates = proposed();
            const cv::Mat &lab = views.lab;
            // A crisp outline round a region darker than what surrounds it, with no print found in it (marks under 2%,
            // whatever lines the end of a card lying in it makes: seed 197000 multi-01, a phone's shadow with 1.2%), is
            // a shadow (of a phone or a hand, cast on the desk or across a page): however well outlined, it is no
            // document, and must not keep the document it falls across from being chosen. Nor is one with only a
            // little of both kinds of print, weak lines (under 0.15) and few marks (under 5%): a shadow across the
            // corner of a form, which takes in a rule and a few words of it. (Cards dark enough to pass for shadows
            // carry more marks: at least 5% on the generated sets, with lines of 0.11 or more.) Smaller dark regions
            // are the cells and specks of a surface, which the judging below deals with. A shadow is darker than what
            // surrounds it all round (``isDarkerAllRound``).
            //
            // Nor is a document's outline ever crossed by another's, while a shadow's is crossed by the document it
            // falls across. So a region darker all round whose outline cuts across a smaller outline that a camera sees
            // as a rectangle (88 degrees) and that is fairly well outlined (0.8), taking in a fifth to nine tenths of
            // it, is a shadow when the rest of that outline (a twentieth of it or more, clear of both outlines) is
            // clearly lighter (by 20 levels) but no more than twice as light: the same paper in and out of the shade
            // (seed 209000 multi-07, a phone's shadow over a white card on a pale desk, 182 against 218, print of the
            // card's lines 0.2 in it; a dark card on cloth that a patch of the cloth's outline crosses is three times
            // darker than the cloth).
            const auto isShadow = [&](const Candidate &c) {
                if (c.area < 0.04 * lab.total()) return false;
                if (!isDarkerAllRound(lab, c.quad)) return false;
                const double marks = held(c.quad).marks;
                if (marks < 0.02) return true;
                const double lines = linesIn(c.quad);
                if (lines < 0.05 || (lines < 0.15 && marks < 0.05)) return true;
                const double shade = views.colourInside(c.quad).lightness;
                return std::any_of(allCandidates.begin(), allCandidates.end(), [&](const Candidate &crossed) {
                    if (crossed.score < 0.8 || crossed.area >= c.area || rectangleCornerAngle(crossed.quad, lab.size()) < 88)
                        return false;
                    const double shared = overlapArea(crossed.quad, c.quad);
                    if (shared < 0.2 * crossed.area || shared > 0.9 * crossed.area) return false;
                    const RegionColour lit = colourOfPartOutside(lab, crossed.quad, c.quad);
                    return lit.pixels >= 0.05 * crossed.area && lit.lightness >= shade + 20 && shade >= 0.5 * lit.lightness;
                });
            };
            // The documents among `candidates`: of the outlines ``select`` chooses (`chosen`), those that what they hold
            // shows to be documents, put back together where one was cut in pieces.
            struct Found {
                std::vector<Candidate> documents, chosen;
            };
            const auto documentsAmong = [&](const std::vector<Candidate> &candidates) {
                std::vector<Candidate> frames;
                auto chosen = select(candidates, detail, views, options->min_confidence, isShadow, &frames);

                // When several outlines compete, each is judged on what it encloses: printed lines (documents hold text) and
                // surface roughness (paper is smooth between the print; carpet, granite and cloth are rough everywhere).
                struct Judged {
                    Candidate candidate;
                    std::optional<Quad> measured;  // the outline whose region was measured (none when there was nothing
                                                   // to compare: taken as printed and smooth)
                    double roughness;
                    double marks;  // markShare of the region
                    bool plausible;  // well outlined, or outlined enough and printed on (a middling outline round nothing
                                     // printed is a patch of the table)
                    bool framing = false;  // a frame that replaced the shapes it holds (see ``select``)
                    std::vector<Judged> framed = {};  // what a frame replaced, given back when the frame falls short
                };
                const bool compare = chosen.size() > 1 || !frames.empty();
                // How strongly the print of what a judged outline holds runs in lines.
                const auto linesOf = [&](const Judged &j) { return j.measured ? linesIn(*j.measured) : 1.0; };
                const auto judge = [&](const Candidate &candidate) {
                    double roughness = 0, marks = 1;
                    if (compare) roughness = held(candidate.quad).roughness, marks = held(candidate.quad).marks;
                    Judged verdict{candidate, compare ? std::optional(candidate.quad) : std::nullopt, roughness, marks, false};
                    // How well it is outlined, seen past what lies over its edge when it stands out as paper does,
                    // clearly lighter than the surface round it (20 levels on average): a thumb over a close-up card's
                    // end hides a third of its outline (seed 161000 card-06, on woven tiles: 0.559 plain, 0.852 seen
                    // past). On a checked cloth, the pieces of a receipt that its squares cut off are no lighter than the
                    // squares round them, and seeing past would credit them the squares' edges.
                    const double outlined = candidate.score >= 0.8 || lightnessStep(lab, candidate.quad) < 20
                                                ? candidate.score
                                                : std::max(candidate.score, outlineScoreSeeingPast(views, candidate.quad));
                    verdict.plausible = outlined >= 0.8 || (outlined >= 0.6 && linesOf(verdict) >= 0.05) ||
                                        (outlined >= 0.5 && linesOf(verdict) >= 0.25);
                    return verdict;
                };
                // An outline that replaced others but holds no document (a patch of carpet round two cards, outlined by its
                // mottling) gives them back when any of them, or of those they replaced, is one.
                std::function<void(const Candidate &, std::vector<Judged> &)> judgeInto = [&](const Candidate &candidate,
                                                                                           std::vector<Judged> &out) {
                    Judged verdict = judge(candidate);
                    if (!verdict.plausible && !candidate.replaced.empty()) {
                        std::vector<Judged> given;
                        for (const auto &r : candidate.replaced) judgeInto(r, given);
                        if (std::any_of(given.begin(), given.end(), [](const Judged &g) { return g.plausible; })) {
                            out.insert(out.end(), given.begin(), given.end());
                            return;
                        }
                    }
                    out.push_back(std::move(verdict));
                };
                std::vector<Judged> judged;
                for (const auto &candidate : chosen) judgeInto(candidate, judged);
                // A frame that holds print on smooth stock replaces the shapes inside it.
                for (const auto &frame : frames) {
                    const double roughness = held(frame.quad).roughness, marks = held(frame.quad).marks;
                    const auto inside = [&](const Judged &j) { return overlapArea(frame.quad, j.candidate.quad) >= 0.85 * j.candidate.area; };
                    if (!std::any_of(judged.begin(), judged.end(), inside)) continue;
                    if (std::any_of(judged.begin(), judged.end(), [&](const Judged &j) {
                            // (Unless a well outlined frame holds a shadow's outline across its paper.)
                            if (!inside(j) || !j.plausible) return false;
                            if (j.candidate.area * 4 >= frame.area &&
                                !(frame.score >= 0.8 && stripIsLitPaper(views, frame.quad, j.candidate.quad)))
                                return true;
                            // Nor does a poorly outlined frame (under 0.7) replace a printed document (clear lines,
                            // 0.2) outlined nearly all round (0.9), however small in it: the desk round a card in a
                            // phone's shadow, framed by the documents beside it (seed 279000 multi-05: 0.51 round a
                            // card of 0.98 that fills a quarter of it). A block without print (a logo) gives way.
                            return frame.score < 0.7 && j.candidate.score >= 0.9 && linesOf(j) >= 0.2;
                        }))
                        continue;
                    // Nor does a shadow that a document lies in, or a book's grey rim.
                    if (std::any_of(judged.begin(), judged.end(), [&](const Judged &j) {
                            return inside(j) && isShadowAround(views, detail, frame.quad, j.candidate.quad);
                        }))
                        continue;
                    // Less print is enough when what the frame holds is a mere speck of it (a word or a logo on a card whose
                    // print a thumb hides).
                    const double held = std::accumulate(judged.begin(), judged.end(), 0.0, [&](double sum, const Judged &j) {
                        return inside(j) && j.plausible ? sum + j.candidate.area : sum;
                    });
                    const double enoughPrint = held < 0.1 * frame.area ? 0.1 : 0.25;
                    if (roughness > 5 || linesIn(frame.quad) < enoughPrint) continue;
                    std::vector<Judged> framed;
                    std::copy_if(judged.begin(), judged.end(), std::back_inserter(framed), inside);
                    judged.erase(std::remove_if(judged.begin(), judged.end(), inside), judged.end());
                    judged.push_back({frame, frame.quad, roughness, marks, true, true, std::move(framed)});
                }
                // The main document is the largest plausible outline (small crisp shapes, such as the squares of a checked
                // cloth, often score higher than a page whose edge a thumb, a shadow or a pale desk weakens), unless it is
                // rough while a smooth plausible rival exists.
                const double smoothest = std::accumulate(judged.begin(), judged.end(), 1e9, [](double m, const Judged &j) {
                    return j.plausible ? std::min(m, j.roughness) : m;
                });
                size_t main = 0;
                for (size_t k = 1; k < judged.size(); ++k) {
                    const auto better = [&](const Judged &a, const Judged &b) {  // a preferred to b as the main document
                        const bool aRough = a.roughness > 7 && smoothest <= 3, bRough = b.roughness > 7 && smoothest <= 3;
                        if (a.plausible != b.plausible) return a.plausible;
                        if (aRough != bRough) return !aRough;
                        return a.candidate.area > b.candidate.area;
                    };
                    if (better(judged[k], judged[main])) main = k;
                }
                // Further outlines must be plausible, not clearly rougher than the main document, not one cell of a repeating
                // pattern without print (the squares of a gingham cloth, tiles), and either crisply outlined all round or
                // printed on.
                // The outlines judged so far that hold clear lines of print, worked out when first asked.
                std::optional<std::vector<Quad>> printedOutlines;
                const size_t judgedSoFar = judged.size();
                const auto printed = [&]() -> const std::vector<Quad> & {
                    if (!printedOutlines) {
                        printedOutlines.emplace();
                        for (size_t k = 0; k < judgedSoFar; ++k)
                            if (linesOf(judged[k]) >= 0.3) printedOutlines->push_back(judged[k].candidate.quad);
                    }
                    return *printedOutlines;
                };
                std::vector<Candidate> documents{judged.empty() ? Candidate{} : judged[main].candidate};
                if (judged.empty()) documents.clear();
                for (size_t k = 0; k < judged.size(); ++k) {
                    if (k == main) continue;
                    Judged j = judged[k];
                    // (Print too small and dense for paper to show between it makes a page rough too: the far page of a
                    // book photographed at a slant, its print 4 pixels tall in a 2 MP photo, rough as 4 where the near
                    // page is 0; it is printed on (clear lines, 0.3) and meets a document already taken along a whole
                    // side, its gutter. Seed 510000 spread-16, a hard-cover book on gingham.)
                    const auto pageBesideTaken = [&] {
                        return linesOf(j) >= 0.3 && std::any_of(documents.begin(), documents.end(), [&](const Candidate &d) {
                            return joinedAlongSharedSide(d.quad, j.candidate.quad, 2 * seam).has_value();
                        });
                    };
                    if (!j.plausible || (j.roughness > std::max(3.0, 1.5 * judged[main].roughness) && !pageBesideTaken())) continue;
                    if (linesOf(j) < 0.3 && repeats(j.candidate, candidates, printed())) continue;
                    // A printed region that stands out as paper on a dark surface needs less of its outline (a thumb or a
                    // shadow over one side).
                    const double step = lightnessStep(lab, j.candidate.quad);
                    // Nor a region darker than the surface round it, without clear lines of print, that holds three
                    // tones spread wide (``holdsThreeTones``): a block of a checked cloth's squares (seed 187000
                    // prose-06: 28 levels darker than the cloth round it, quartiles 74 and 131 about a median of 112).
                    if (step < 0 && linesOf(j) < 0.3 && holdsThreeTones(lab, j.candidate.quad)) continue;
                    const bool printedPaper = linesOf(j) >= 0.3 && step >= 80;
                    // Smooth, marked stock clearly lighter than the surface (by at least 40 levels on average, to which a
                    // shadow across it or a mid-grey desk can cut the step) is paper even where its print is too faint or too
                    // small to show as lines (a faded receipt under a thumb, a card with a shadow across it). Far lighter
                    // (80 levels, as `printedPaper`), a few lines of print (0.1) are enough in place of the marks: a card
                    // on a black desk under a thumb that hides a third of it, its print smeared by a shaken camera
                    // (seed 135000 multi-02, marks 2.9%, lines 0.13).
                    const bool palePaper = step >= 40 && j.roughness <= 3 && (j.marks >= 0.03 || (step >= 80 && linesOf(j) >= 0.1));
                    // A thumb or a pen over an edge hides it without making the region any less of a document.
                    double outlined = outlineScoreSeeingPast(views, j.candidate.quad);
                    // Paper that barely steps from the desk (a pale desk), smooth, with a card's share of marks, and outlined
                    // nearly all round, is paper too, with weak lines of print (it still needs some: see below).
                    const bool faintlySteppingCard = step > 0 && j.roughness <= 1 && j.marks >= 0.03 && j.marks <= 0.3 && outlined >= 0.85;
                    // Pale stock with a rectangle's corners (none under 70 degrees, however tilted the camera) needs less
                    // too: a thumb over a whole side of a card hides a quarter of its outline. A cell of a checked cloth, cut
                    // off by a document lying across it, has a corner too sharp for that.
                    const bool squarePalePaper = palePaper && smallestAngle(j.candidate.quad) >= 70;
                    // So do clear lines of print (0.4, where a patch of plain desk makes near none) on smooth stock lighter
                    // than the desk round it (by 5 levels: a patch of wood, whose grain makes lines, or a shadow on it is
                    // not), in an outline that a camera sees a rectangle as (its corners within 5 degrees of square,
                    // ``rectangleCornerAngle``): a pale card on a pale desk, lighter by a few levels only along its edges.
                    const bool printedCard = linesOf(j) >= 0.4 && j.roughness <= 2 && step >= 5 &&
                                             rectangleCornerAngle(j.candidate.quad, lab.size()) >= 85;
                    // Smooth stock far darker than the surface round it (by 40 levels on average), with light print on it
                    // (marks over 5% and some lines, where a shadow holds next to none), is a dark card even where a thumb
                    // over it leaves too little of its print to show as clear lines.
                    const bool darkCard = step <= -40 && j.roughness <= 3 && j.marks >= 0.05 && linesOf(j) >= 0.1;
                    // So does marked smooth stock a little lighter than the desk (3 levels), with some lines of print
                    // (0.1) and a rectangle's corners as a camera sees them (85 degrees): a card with a large logo on a
                    // pale desk, whose own outline fades along the sides the light falls on and which a hand's shadow
                    // crosses (seed 155000 multi-08: two cards outlined 0.65 and 0.76, marks 0.56 and 0.80, lines 0.14
                    // and 0.16, the logo's block taking the share of marks past ``faintlySteppingCard``'s bar). A
                    // patch of desk has no marks, a shadow is darker than the desk, and a cell of a cloth is rough.
                    const bool markedCard = step >= 3 && j.roughness <= 2 && j.marks >= 0.05 && linesOf(j) >= 0.1 &&
                                            rectangleCornerAngle(j.candidate.quad, lab.size()) >= 85;
                    // A dark card with a rectangle's corners as a camera sees them (85 degrees) needs as little as a
                    // marked pale one: a thumb over a dark card's end on a brown carpet hides a third of its outline
                    // (seed 281000 multi-02: 0.67 seen past, step -52, marks 0.84, lines 0.23, 89.7 degrees).
                    const bool squareDarkCard = darkCard && rectangleCornerAngle(j.candidate.quad, lab.size()) >= 85;
                    const double outlineNeeded = printedPaper ? 0.55
                                                 : printedCard ? 0.6
                                                 : (squarePalePaper || markedCard || squareDarkCard) ? 0.65
                                                                                                      : 0.75;
                    const auto outlinedEnough = [&] {
                        return outlined >= outlineNeeded && (outlined >= 0.9 || linesOf(j) >= 0.2 || palePaper ||
                                                             faintlySteppingCard || darkCard || markedCard);
                    };
                    // An outline that falls short may be a few pixels off along a side whose edge something over it
                    // pulled away (a thumb across a card's end, which also weakened the outline so that it was kept as a
                    // frame), or that was fitted to a faint edge's shading rather than the edge (a pale card on a pale
                    // desk under a thumb, one side 6 working pixels out at one end: seed 153000 multi-06, 0.686 seen past,
                    // 0.788 moved): its sides are moved onto the edges they run beside, and the outline judged again.
                    if (!outlinedEnough()) {
                        // An outline that replaced others and falls short gives them back to be judged in its place: a
                        // dark card's outline that took in the shadow beside it is weaker than the card's own.
                        if (!j.candidate.replaced.empty()) {
                            for (const auto &r : j.candidate.replaced) judged.push_back(judge(r));
                            continue;
                        }
                        // A frame that still falls short gives back what it held, to be judged in its place (a card on
                        // a pale desk, held by a frame that runs from the edge of one receipt beside it to another's).
                        auto refined = refinedOutline(small, j.candidate.quad, 0.01 * std::max(small.cols, small.rows));
                        if (refined) outlined = outlineScoreSeeingPast(views, *refined);
                        if ((!refined || !outlinedEnough()) && j.candidate.score >= 0.8) {
                            // A well outlined corner pulled further off along a shadow's edge (a receipt under a hand's
                            // shadow on a pale desk, one corner 20 working pixels out: seed 229000 multi-07, outlined
                            // 0.81, its print then sheared out of lines, 0.09) is brought back by climbing onto the
                            // outline, and kept when clear lines of print (0.3) show in it then.
                            refined = climbedToOutline(views, j.candidate.quad);
                            j.measured = *refined;
                            outlined = outlineScoreSeeingPast(views, *refined);
                            if (linesOf(j) < 0.3) refined.reset();
                        }
                        // The outline refined must still be a rectangle to a camera (85 degrees): the strip of a dark
                        // desk between two receipts, outlined along their sides, refines to 84 (seed 285000 multi-01).
                        if (!refined || !outlinedEnough() || rectangleCornerAngle(*refined, lab.size()) < 85) {
                            judged.insert(judged.end(), j.framed.begin(), j.framed.end());
                            continue;
                        }
                        j.candidate = Candidate{*refined, std::max(j.candidate.score, outlineScore(views, *refined)), std::abs(signedArea(*refined))};
                    }
                    // However crisp its outline, a region with no print found in it, or nothing standing out from its tone at
                    // all whatever its line measure makes of noise (a shadow's band beside a book, a pale cell of a cloth), is
                    // a shadow or a patch of the desk, unless it stands out as paper on a dark surface (print too small or
                    // blurred to find), or is pale marked stock crisply outlined all round (a card whose small print a shaken
                    // camera blurred past finding lines in it), or is smooth stock far lighter or darker than the desk (40
                    // levels) and of another colour than the desk just round it, crisply outlined all round as a camera
                    // sees a rectangle (a card on wood whose print shake blurred past finding any; a purple card on grey
                    // cloth whose small light print shows lines of 0.05 only, seed 289000 multi-06; a patch of the desk
                    // itself, lit between two shadows or in a phone's shade, keeps the desk's colour).
                    const auto blankCard = [&] {
                        if (std::abs(step) < 40 || j.roughness > 2 || outlined < 0.95 ||
                            rectangleCornerAngle(j.candidate.quad, lab.size()) < 85)
                            return false;
                        const auto colours = stripColours(views, grown(j.candidate.quad, 6), j.candidate.quad);
                        return colours && chromaDistance(colours->inside, colours->strip) > otherChroma;
                    };
                    if ((linesOf(j) < 0.05 || j.marks < 0.012) && step < 80 && !(palePaper && outlined >= 0.9) && !blankCard())
                        continue;
                    // Nor is a speck a fiftieth of the main document's size without clear print, or darker than the surface
                    // round it, whatever lines its mottling makes (grains of granite, a cluster of dark ones beside a card).
                    if (j.candidate.area < 0.02 * judged[main].candidate.area && (linesOf(j) < 0.2 || step < 0)) continue;
                    // Nor, under 0.08 of its size, is a pale patch with no lines of print at all (under 0.05), however
                    // crisply outlined, unless it stands out as paper on a dark surface (80 levels) or is a piece of a
                    // document already taken, cut off along a side of it (put back together below): the white squares
                    // of a red gingham beside a card (seed 167000 card-02: three at 0.02-0.07 of the card's area, 43-46
                    // levels lighter than the red, their weave passing for a card's marks), where the squares are not
                    // alike enough to count as a pattern, cut by the photo's edge or foreshortened. On paper, the
                    // smallest document of the generated several-document photos has a fifth of the largest's area
                    // (0.195) or more.
                    const auto pieceOfTaken = [&] {
                        return std::any_of(documents.begin(), documents.end(), [&](const Candidate &d) {
                            return joinedAlongSharedSide(d.quad, j.candidate.quad, seam).has_value();
                        });
                    };
                    if (j.candidate.area < 0.08 * judged[main].candidate.area && linesOf(j) < 0.05 && step < 80 &&
                        !pieceOfTaken())
                        continue;
                    // Documents lie side by side: an outline over one already taken (a frame's pages and a shadow's edge can
                    // both be outlines) is part of it, not another document.
                    const bool overlapsTaken = std::any_of(documents.begin(), documents.end(), [&](const Candidate &d) {
                        return overlapsMuch(d.quad, d.area, j.candidate.quad, j.candidate.area);
                    });
                    if (overlapsTaken) continue;
                    // One document cut in two along a line across it is put back together (the pieces meet within `seam`).
                    bool joined = false;
                    for (auto &d : documents) {
                        if (const auto whole = joinedAlongSharedSide(d.quad, j.candidate.quad, seam)) {
                            d = Candidate{*whole, std::min(d.score, j.candidate.score), std::abs(signedArea(*whole))};
                            joined = true;
                            break;
                        }
                    }
                    if (!joined) documents.push_back(j.candidate);
                }
                // A pale card on a pale desk beside the documents found steps from the desk by a few levels only, along the
                // sides its shadow does not darken, and its outline falls just short of the bar (0.45 to 0.5). It is a
                // document all the same when what it holds is one: lines of print (0.3, which a card's few lines make,
                // a shaken camera's smear leaving 0.35 of them: seed 221000 multi-07; a patch of desk makes near none)
                // on smooth stock, within a rectangle's corners (none under 70 degrees, as ``squarePalePaper`` asks),
                // apart from every outline already taken or chosen. (The bar was 0.4 until 2026-11-29; at 0.3 no other
                // photo of 2,376 changed.)
                if (!documents.empty()) {
                    std::vector<Candidate> faint;
                    std::copy_if(candidates.begin(), candidates.end(), std::back_inserter(faint), [&](const Candidate &c) {
                        return c.score >= options->min_confidence - 0.05 && c.score < options->min_confidence;
                    });
                    std::sort(faint.begin(), faint.end(), [](const Candidate &a, const Candidate &b) { return a.score > b.score; });
                    for (const auto &c : faint) {
                        const auto overlaps = [&](const Candidate &d) {
                            return overlapsMuch(d.quad, d.area, c.quad, c.area);
                        };
                        if (std::any_of(documents.begin(), documents.end(), overlaps) ||
                            std::any_of(chosen.begin(), chosen.end(), overlaps) || smallestAngle(c.quad) < 70)
                            continue;
                        if (held(c.quad).roughness > 1 || linesIn(c.quad) < 0.3) continue;
                        documents.push_back(c);
                    }
                }
                // Two documents that together fill nine tenths of one well-supported outline, each lying (nearly: 85
                // hundredths of it) inside it, are its parts: the pages of a book that its gutter's shadow cut in two, one
                // page's outline overshooting the fold, or running out past the page's edge along a hand's shadow over it
                // (seed 215000 spread-02: 0.88 of that page inside the book's outline); a receipt that a phone's shadow
                // cut into a lit and a shadowed part (and a strip too thin to count).
                // Six tenths are enough when the outline is crisp all round but for what lies across its edge and each piece
                // reaches it with three of its corners (a card that a hand's shadow cut into two pieces, the band of shade
                // between them and a thumb over its end in neither); two documents inside a patch of the desk do not.
                for (bool merged = true; merged;) {
                    merged = false;
                    for (size_t a = 0; a < documents.size() && !merged; ++a) {
                        for (size_t b = a + 1; b < documents.size() && !merged; ++b) {
                            const Candidate &first = documents[a], &second = documents[b];
                            const double together = first.area + second.area - overlapArea(first.quad, second.quad);
                            std::optional<Candidate> whole;
                            for (const auto &c : candidates) {
                                if (together < 0.6 * c.area || together > 1.1 * c.area) continue;
                                const double firstInside = overlapArea(c.quad, first.quad);
                                const double secondInside = overlapArea(c.quad, second.quad);
                                if (firstInside < 0.85 * first.area || secondInside < 0.85 * second.area) continue;
                                const double covered = firstInside + secondInside - overlapArea(first.quad, second.quad);
                                if (holdsApartAcrossDesk(views, c.quad, c.area, first.quad, second.quad, covered)) continue;
                                double score = c.score;
                                if (together < 0.9 * c.area) {
                                    const double reach = 0.03 * std::sqrt(c.area);
                                    if (cornersOnOutline(first.quad, c.quad, reach) < 3 || cornersOnOutline(second.quad, c.quad, reach) < 3) continue;
                                    score = std::max(score, outlineScoreSeeingPast(views, c.quad));
                                    if (score < 0.9) continue;
                                } else if (score < 0.75) {
                                    continue;
                                }
                                if (!whole || score > whole->score) whole = Candidate{c.quad, score, c.area};
                            }
                            if (!whole) continue;
                            documents[a] = *whole;
                            documents.erase(documents.begin() + static_cast<ptrdiff_t>(b));
                            merged = true;
                        }
                    }
                }
                // A speck at the photo's edge, a twentieth of the main document's size, that is no piece of another (put
                // back together with it above) and neither lighter nor darker than what surrounds it, whatever lines its
                // mottling makes, is a patch of the surface (of carpet, cut off by the frame): a document that small stands
                // out from the desk it lies on.
                if (!documents.empty()) {
                    const double mainArea = documents.front().area;
                    const double margin = 0.03 * std::max(lab.cols, lab.rows);
                    const auto atEdge = [&](const Quad &quad) {
                        return std::any_of(quad.begin(), quad.end(), [&](const cv::Point2d &p) {
                            return p.x < margin || p.y < margin || p.x > lab.cols - 1 - margin || p.y > lab.rows - 1 - margin;
                        });
                    };
                    documents.erase(std::remove_if(documents.begin() + 1, documents.end(), [&](const Candidate &d) {
                        return d.area < 0.05 * mainArea && atEdge(d.quad) && std::abs(lightnessStep(lab, d.quad)) < 15;
                    }), documents.end());
                }
                // A document that fills six tenths or more of a larger outline and reaches it with three corners or more is
                // a piece of it when that outline is crisp all round (but for what lies across its edge) and clearly crisper
                // than the piece's own: a shadow's or a thumb's slanting edge cut the rest off, and the rest, which no camera
                // sees as a rectangle, scored too low to be a document and be put back with it as above.
                for (size_t k = 0; k < documents.size(); ++k) {
                    Candidate &piece = documents[k];
                    const double pieceScore = outlineScoreSeeingPast(views, piece.quad);
                    std::optional<Candidate> whole;
                    for (const auto &c : candidates) {
                        if (c.area <= 1.05 * piece.area || piece.area < 0.6 * c.area) continue;
                        if (overlapArea(c.quad, piece.quad) < 0.95 * piece.area) continue;
                        if (cornersOnOutline(piece.quad, c.quad, 0.03 * std::sqrt(c.area)) < 3) continue;
                        // Not when what it adds is the desk, or a shadow on it (as ``select`` judges twins and frames).
                        if (stripIsDesk(views, c.quad, piece.quad) || isShadowAround(views, detail, c.quad, piece.quad)) continue;
                        const bool clearOfOthers = std::none_of(documents.begin(), documents.end(), [&](const Candidate &d) {
                            return &d != &piece && overlapsMuch(c.quad, c.area, d.quad, d.area);
                        });
                        if (!clearOfOthers) continue;
                        const double score = outlineScoreSeeingPast(views, c.quad);
                        if (score >= std::max(0.9, pieceScore + 0.1) && (!whole || score > whole->score))
                            whole = Candidate{c.quad, score, c.area};
                    }
                    if (whole) piece = *whole;
                }
                // A hard shadow's edge run across a document from one side to the opposite one leaves its lit part
                // or its shaded part outlined as a document, and the other part as an outline that no camera sees as a
                // rectangle (so scored nothing). The two are put back together when they share the cut side (as above),
                // one is the other's paper in less light (``stripIsLitPaper``), the other part is smooth as paper is (a
                // strip of granite beside a card can match it in colour), and the whole is a rectangle to a camera
                // (85 degrees: documents come within 3 of 90) outlined nearly all round seen past what lies over it (0.8),
                // clear of the other documents.
                for (auto &piece : documents) {
                    std::optional<Candidate> whole;
                    for (const auto &c : candidates) {
                        if (c.area < 0.1 * piece.area || c.area > 3 * piece.area) continue;
                        if (overlapsMuch(c.quad, c.area, piece.quad, piece.area)) continue;
                        const auto joined = joinedAlongSharedSide(piece.quad, c.quad, seam);
                        if (!joined || rectangleCornerAngle(*joined, lab.size()) < 85 ||
                            !(stripIsLitPaper(views, *joined, c.quad) || stripIsLitPaper(views, *joined, piece.quad)) ||
                            held(c.quad).roughness > 3)
                            continue;
                        const double score = outlineScoreSeeingPast(views, *joined), area = std::abs(signedArea(*joined));
                        const bool clearOfOthers = std::none_of(documents.begin(), documents.end(), [&](const Candidate &d) {
                            return &d != &piece && overlapsMuch(*joined, area, d.quad, d.area);
                        });
                        if (score >= 0.8 && clearOfOthers && (!whole || score > whole->score))
                            whole = Candidate{*joined, score, area};
                    }
                    if (whole) piece = *whole;
                }
                // Where no outline of the rest was proposed to be put back with the lit or the shaded part, the rest is
                // looked for along the sides that run on past the shadow's edge (``completedPastShadow``), clear of the
                // other documents.
                for (auto &piece : documents) {
                    const auto whole = completedPastShadow(views, piece.quad);
                    if (!whole) continue;
                    const bool clearOfOthers = std::none_of(documents.begin(), documents.end(), [&](const Candidate &d) {
                        return &d != &piece && overlapsMuch(whole->quad, whole->area, d.quad, d.area);
                    });
                    if (clearOfOthers) piece = *whole;
                }
                // A document cut off along something lying over it (a thumb across a card's corner and much of its
                // side) leaves an outline that no camera sees as a rectangle (under 87 degrees, ``rectangleCornerAngle``),
                // crisply outlined because the thumb steps from the card as sharply as the desk does. An outline that
                // holds it (nearly all of it, adding at most half as much again), is a rectangle to a camera (88
                // degrees) and is outlined nearly all round seen past what lies over it (0.9: a strip of desk taken in
                // shows no step where its side crosses the desk) is the whole document (seed 175000 card-01: a dark card
                // under a thumb, cut along the thumb at 84 degrees and 0.97, the whole card 89 degrees and 0.93 seen past).
                for (auto &piece : documents) {
                    if (rectangleCornerAngle(piece.quad, lab.size()) >= 87) continue;
                    std::optional<Candidate> whole;
                    double wholeScore = 0;
                    for (const auto &c : candidates) {
                        if (c.area <= piece.area || c.area > 1.5 * piece.area) continue;
                        if (overlapArea(c.quad, piece.quad) < 0.95 * piece.area) continue;
                        if (rectangleCornerAngle(c.quad, lab.size()) < 88) continue;
                        const double score = outlineScoreSeeingPast(views, c.quad);
                        if (score < 0.9 || score < wholeScore) continue;
                        const bool clearOfOthers = std::none_of(documents.begin(), documents.end(), [&](const Candidate &d) {
                            return &d != &piece && overlapsMuch(c.quad, c.area, d.quad, d.area);
                        });
                        if (clearOfOthers && (score > wholeScore || c.area < whole->area)) {
                            whole = Candidate{c.quad, score, c.area};
                            wholeScore = score;
                        }
                    }
                    if (whole) piece = *whole;
                }
                // A side poorly outlined (under eight tenths of it stepping) may be better placed on a near twin's.
                for (auto &document : documents) document = withSidesFromTwins(views, document, candidates);
                // The steps above move sides: two documents that now share a whole side, and together make a
                // rectangle to a camera (85 degrees), are the pieces of one that a straight edge cut apart (the
                // boundary of a phone's shadow across a page, which first pulled one piece's corner out along it).
                for (bool joinedAny = true; joinedAny;) {
                    joinedAny = false;
                    for (size_t a = 0; a < documents.size() && !joinedAny; ++a) {
                        for (size_t b = a + 1; b < documents.size() && !joinedAny; ++b) {
                            const auto whole = joinedAlongSharedSide(documents[a].quad, documents[b].quad, seam);
                            if (!whole || rectangleCornerAngle(*whole, lab.size()) < 85) continue;
                            documents[a] = Candidate{*whole, std::min(documents[a].score, documents[b].score), std::abs(signedArea(*whole))};
                            documents.erase(documents.begin() + static_cast<ptrdiff_t>(b));
                            joinedAny = true;
                        }
                    }
                }
                // A band of another colour than a document's paper (``otherChroma``), a tenth of its size or less, lying
                // along its side, is no document of its own but a part of that one which its outline left out: a
                // card's navy accent bar that a thumb over it kept from being taken into the card's outline (seed
                // 237000 card-06; the bar's long edges pass for a line of print). It is dropped.
                std::vector<bool> isBand(documents.size(), false);
                for (size_t k = 0; k < documents.size(); ++k) {
                    const Candidate &band = documents[k];
                    isBand[k] = std::any_of(documents.begin(), documents.end(), [&](const Candidate &d) {
                        return d.area >= 10 * band.area && sideAlongOther(band.quad, d.quad, seam).has_value() &&
                               chromaDistance(views.colourInside(band.quad).mean, views.colourInside(d.quad).mean) > otherChroma;
                    });
                }
                for (size_t k = documents.size(); k-- > 0;)
                    if (isBand[k]) documents.erase(documents.begin() + static_cast<ptrdiff_t>(k));
                return Found{documents, chosen};
            };
            const Found first = documentsAmong(allCandidates);
            auto documents = first.documents;
            // An outline chosen and then found to hold no document (a phone's shadow on the desk beside a book, whose
            // end reaches over a page and so holds some print) may have kept a larger outline that it overlaps from being
            // chosen: the whole spread whose page it reaches. The choice is made again without it (and its near twins),
            // and kept when it covers every document found the first time and more of the photo.
            std::vector<Candidate> dropped;
            for (const auto &c : first.chosen)
                if (std::none_of(documents.begin(), documents.end(), [&](const Candidate &d) {
                        return overlapArea(d.quad, c.quad) >= 0.5 * c.area;
                    }))
                    dropped.push_back(c);
            if (!dropped.empty() && !documents.empty()) {
                std::vector<Candidate> remaining;
                std::copy_if(allCandidates.begin(), allCandidates.end(), std::back_inserter(remaining), [&](const Candidate &c) {
                    return std::none_of(dropped.begin(), dropped.end(), [&](const Candidate &d) {
                        return overlapArea(d.quad, c.quad) >= 0.8 * std::max(d.area, c.area);
                    });
                });
                auto again = documentsAmong(remaining).documents;
                // A document found only now, apart from those found the first time, must be outlined clearly (0.7,
                // seen past what lies over it): a band of a plaid cloth at the photo's edge, whose stripes pass for
                // lines of print, came out once its neighbours were dropped (seed 125000 card-02: 0.60).
                again.erase(std::remove_if(again.begin(), again.end(), [&](const Candidate &a) {
                    return std::none_of(documents.begin(), documents.end(), [&](const Candidate &d) {
                               return overlapsMuch(d.quad, d.area, a.quad, a.area);
                           }) && outlineScoreSeeingPast(views, a.quad) < 0.7;
                }), again.end());
                const auto area = [](const std::vector<Candidate> &found) {
                    return std::accumulate(found.begin(), found.end(), 0.0, [](double sum, const Candidate &c) { return sum + c.area; });
                };
                // Each document found the first time is kept, or taken into a larger outline that adds no desk round
                // it (the lit or shaded desk of ``select``'s judgement): a book round one of its pages, not a patch of
                // the cloth round a book.
                const bool coversEvery = std::all_of(documents.begin(), documents.end(), [&](const Candidate &d) {
                    return std::any_of(again.begin(), again.end(), [&](const Candidate &a) {
                        return overlapArea(a.quad, d.quad) >= 0.85 * d.area &&
                               (a.area <= 1.1 * d.area ||
                                (!stripIsDesk(views, a.quad, d.quad) && !isShadowAround(views, detail, a.quad, d.quad)));
                    });
                });
                if (coversEvery && area(again) > 1.05 * area(documents)) documents = std::move(again);
            }
            // Hairlines are the last resort: a form's drawn boxes and a page's ruled lines are hairlines too. When no
            // document found covers a fiftieth of the photo (the smallest main document of 1,320 generated photos covers
            // 2.8%), the outlines are proposed and judged again with the hairlines as edges (a white page on a pale desk
            // whose lighting leaves no step between them, where a finger's shadow beside it was found), and the larger
            // main document kept.
            const auto largest = [](const std::vector<Candidate> &found) {
                return std::accumulate(found.begin(), found.end(), 0.0, [](double m, const Candidate &c) { return std::max(m, c.area); });
            };
            //
            // On a pale desk, documents that step from it by little (every one found under 30 levels of lightness on
            // average) may lie beside others that step from it by nothing at all. Then the hairline pass runs too, and
            // the documents it finds apart from those found are added (seed 101000 multi-08: a receipt stepping by 13 was
            // found, another receipt and a card beside it were not). Run on every photo of the corpus and fifteen
            // generated sets, this pass added nothing else; about a fifth of photos step by so little.
            const bool tooSmall = largest(documents) < 0.02 * static_cast<double>(lab.total());
            const bool faintOnDesk = !documents.empty() && std::all_of(documents.begin(), documents.end(), [&](const Candidate &d) {
                return std::abs(lightnessStep(lab, d.quad)) < 30;
            });
            if (tooSmall || faintOnDesk) {
                views.curvature = lightnessCurvature(small);
                auto withHairlines = documentsAmong(proposed()).documents;
                if (tooSmall) {
                    if (largest(withHairlines) > largest(documents)) documents = std::move(withHairlines);
                } else {
                    for (auto &found : withHairlines) {
                        const std::vector<Candidate *> overlapped = overlappedBy(documents, found);
                        if (overlapped.empty()) {
                            documents.push_back(std::move(found));
                            continue;
                        }
                        // One found gives way to one at least nine tenths its size (not a box drawn on it) that a
                        // camera sees as a rectangle (88 degrees) and that is outlined nearly all round seen past
                        // what lies over it (0.9) and clearly better (by 0.15): a page whose outline ran off along a
                        // phone's shadow on the desk beside it (seed 185000 prose-10: 0.68 against 1.0).
                        if (rectangleCornerAngle(found.quad, lab.size()) < 88) continue;
                        if (overlapped.size() == 1) {
                            Candidate &piece = *overlapped.front();
                            if (found.area < 0.9 * piece.area) continue;
                            const double seenPast = outlineScoreSeeingPast(views, found.quad);
                            if (seenPast < 0.9) continue;
                            // Or about as well outlined (within 0.02) when what the one found first holds beyond it is
                            // a shadow on the desk (``isShadowAround``): a card whose end lies in a hard shadow, first
                            // outlined along the shadow's edge past its corner (seed 197000 multi-04).
                            // Or when outlined all round (0.95) what it adds to that one is its paper in shade (of
                            // its chroma, 20 levels darker or more but half as light at least): a pale card on a pale
                            // desk with a hard shadow over a corner, whose shaded end shows only as a hairline, the
                            // card put together from its pieces (``joinedAcrossShadowEdges``; seed 297000 multi-01:
                            // the lit piece 0.966, the card 0.983).
                            const double pieceSeenPast = outlineScoreSeeingPast(views, piece.quad);
                            const auto addsPaperInShade = [&] {
                                const auto shade = stripColours(views, found.quad, piece.quad);
                                return seenPast >= 0.95 && shade && shade->stripIsPaperInShade();
                            };
                            if (seenPast >= pieceSeenPast + 0.15 ||
                                (seenPast >= pieceSeenPast - 0.02 &&
                                 (isShadowAround(views, detail, piece.quad, found.quad) || addsPaperInShade())))
                                piece = std::move(found);
                            continue;
                        }
                        // Two found that it holds (nine tenths of each), together 85 hundredths of it or more, are its
                        // pieces when it is outlined all round (0.95 seen past): the pages of a book on a pale desk, one
                        // of them cut short along a line of its print (seed 187000 spread-04: together 0.875 of it; the
                        // page that the piece left out is as pale as the desk, so ``holdsApartAcrossDesk`` cannot tell
                        // it from a band of desk).
                        if (overlapped.size() != 2) continue;
                        const Candidate &first = *overlapped[0], &second = *overlapped[1];
                        const double together = first.area + second.area - overlapArea(first.quad, second.quad);
                        if (overlapArea(found.quad, first.quad) < 0.9 * first.area ||
                            overlapArea(found.quad, second.quad) < 0.9 * second.area || together < 0.85 * found.area ||
                            outlineScoreSeeingPast(views, found.quad) < 0.95)
                            continue;
                        documents.erase(std::remove_if(documents.begin(), documents.end(), [&](const Candidate &d) {
                            return &d == &first || &d == &second;
                        }), documents.end());
                        documents.push_back(std::move(found));
                    }
                }
            }
            // An outline that falls short of being outlined nearly all round (0.9) may have been fitted a few pixels
            // off a document's side (a card on a plaid cloth, two corners 4 and 6 working pixels off: seed 125000
            // card-02, 0.83 where the card's own scores 1.0). Its corners are moved to where it is best outlined
            // (``climbedToOutline``), kept when that makes it a rectangle to a camera (87 degrees) outlined nearly all
            // round, and clearly better (by 0.1).
            for (auto &document : documents) {
                const double score = outlineScore(views, document.quad);
                if (score >= 0.9) continue;
                const Quad climbed = climbedToOutline(views, document.quad);
                const double climbedScore = outlineScore(views, climbed);
                if (climbedScore >= std::max(0.9, score + 0.1) && rectangleCornerAngle(climbed, lab.size()) >= 87)
                    document = Candidate{climbed, climbedScore, std::abs(signedArea(climbed))};
            }
            // An outline short of being outlined all round (0.95) may take in a shadow beyond the document along one
            // side, or stop short of the document along a line across it: the side is moved in to the document's own
            // (``slidInOverShadow``), or else out to it (``grownToOwnSide``) where that takes in no other document
            // (a tenth of either). Unless the grown outline is outlined all round (0.97) and holds each document it
            // overlaps (85 hundredths of it): those are pieces of the same paper, which it replaces (seed 295000
            // receipt-01: a receipt's end in a hard shadow, found on its own beside the lit part, which grown over it
            // is outlined 1.0; the end overshot the receipt a little, 0.89 of it inside).
            std::vector<bool> swallowed(documents.size(), false);
            for (size_t k = 0; k < documents.size(); ++k) {
                Candidate &document = documents[k];
                if (swallowed[k]) continue;
                const double score = outlineScore(views, document.quad);
                if (score >= 0.95) continue;
                std::optional<Quad> moved = slidInOverShadow(views, detail, document.quad, score, linesIn);
                std::vector<size_t> pieces;
                if (!moved) {
                    moved = grownToOwnSide(views, document.quad, score);
                    const double area = moved ? std::abs(signedArea(*moved)) : 0;
                    bool holdsEach = true;
                    for (size_t other = 0; moved && other < documents.size(); ++other) {
                        if (other == k || swallowed[other]) continue;
                        const double overlap = overlapArea(documents[other].quad, *moved);
                        if (overlap <= 0.1 * std::min(documents[other].area, area)) continue;
                        pieces.push_back(other);
                        holdsEach = holdsEach && overlap >= 0.85 * documents[other].area;
                    }
                    if (moved && !pieces.empty() && !(holdsEach && outlineScore(views, *moved) >= 0.97)) moved.reset();
                }
                if (!moved) continue;
                document = Candidate{*moved, outlineScore(views, *moved), std::abs(signedArea(*moved))};
                for (const size_t piece : pieces) swallowed[piece] = true;
            }
            eraseMarked(documents, swallowed);
            // An outline that runs on over a strip of the desk to a straight edge in it is moved in to the document's
            // own edge, and one that stops short of a band of colour along one side (a card's accent bar) out over it.
            // A smaller document that an outline widened so takes in (nine tenths of it) is that document's accent
            // bar, found on its own as well (seed 285000 card-05: a purple bar down a card's end, a tenth of its size,
            // its long edges passing for a line of print): it is dropped.
            std::vector<bool> isBar(documents.size(), false);
            for (size_t k = 0; k < documents.size(); ++k) {
                if (isBar[k]) continue;
                Candidate &document = documents[k];
                if (const auto trimmed = trimmedOffDesk(views, detail, document.quad)) document.quad = ordered(*trimmed);
                const auto widened = widenedOverBand(small, document.quad);
                if (!widened) continue;
                document.quad = ordered(*widened);
                document.area = std::abs(signedArea(document.quad));
                for (size_t b = 0; b < documents.size(); ++b)
                    isBar[b] = isBar[b] || (b != k && documents[b].area < document.area &&
                                            overlapArea(document.quad, documents[b].quad) >= 0.9 * documents[b].area);
            }
            eraseMarked(documents, isBar);
            return documents;
        };
        auto documents = documentsOn(small);
        // On a dark desk (half the working copy darker than 60 of 255), a dark card steps from it by a few levels
        // only (seed 151000 multi-07: a navy card at 18 on a desk at 23), under every threshold the outlines are
        // judged by, which were set on lighter photos. The documents are looked for again on a copy brightened to put
        // the desk's median at 90 (at most four times as bright), and those found there that a camera sees as
        // rectangles (88 degrees, ``rectangleCornerAngle``) are added where they lie apart from every document found
        // (overlapping none by more than 15% of the smaller), or replace the one document they overlap when it is no
        // such rectangle and they hold nine tenths of it (the piece of a dark card that its coloured bar outlined).
        // A sixth of the photos of 30 generated sets are that dark; the pass added three documents there and took
        // none away.
        const double medianLevel = docscan::LevelCounts(docscan::gray(small)).valueAtShare(0.5);
        if (medianLevel < 60) {
            cv::Mat brighter;
            small.convertTo(brighter, -1, std::min(4.0, 90 / std::max(1.0, medianLevel)), 0);
            for (auto &found : documentsOn(brighter)) {
                if (rectangleCornerAngle(found.quad, small.size()) < 88) continue;
                const std::vector<Candidate *> overlapped = overlappedBy(documents, found);
                if (overlapped.empty()) {
                    documents.push_back(std::move(found));
                } else if (overlapped.size() == 1) {
                    Candidate &piece = *overlapped.front();
                    if (rectangleCornerAngle(piece.quad, small.size()) < 87 && overlapArea(piece.quad, found.quad) >= 0.9 * piece.area)
                        piece = std::move(found);
                }
            }
        }
        const int n = std::min<int>(capacity, static_cast<int>(documents.size()));
        for (int k = 0; k < n; ++k) {
            double corners[8];
            for (int i = 0; i < 4; ++i) {
                corners[2 * i] = (documents[k].quad[i].x + 0.5) * factor - 0.5;
                corners[2 * i + 1] = (documents[k].quad[i].y + 0.5) * factor - 0.5;
            }
            if (options->refine) {
                const ds_status status = ds_refine_quad(image, corners, 3 * factor + 6);
                if (status != DS_OK) return status;
            }
            Quad full;
            for (int i = 0; i < 4; ++i) full[i] = {corners[2 * i], corners[2 * i + 1]};
            full = ordered(full);
            for (int i = 0; i < 4; ++i) results[k].corners[2 * i] = full[i].x, results[k].corners[2 * i + 1] = full[i].y;
            results[k].confidence = std::clamp(documents[k].score, 0.0, 1.0);
        }
        *count = n;
        return DS_OK;
    });
}
