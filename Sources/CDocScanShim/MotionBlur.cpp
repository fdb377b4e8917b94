// Motion blur: finding a straight camera shake in a photo and undoing it; and undoing a lens's defocus.
//
// A shake of length L along direction θ multiplies the photo's spectrum by sinc(L u), where u is the frequency along
// θ: the spectrum goes dark along parallel lines at u = 1/L, 2/L, ... whatever the scene. The estimate averages the
// power spectrum of many tiles (in linear light, where the blur happened), takes for each direction the profile of the
// log spectrum along it, and looks for that comb of notches. The blur is then divided out with a Wiener filter, again
// in linear light.
#include "Support.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <vector>

using docscan::emit;
using docscan::fail;
using docscan::guarded;

namespace {

constexpr double pi = 3.14159265358979323846;
constexpr double decodingGamma = 2.2;

/// 8-bit values to linear light.
const std::array<float, 256> &linearTable() {
    static const std::array<float, 256> table = [] {
        std::array<float, 256> t{};
        for (int v = 0; v < 256; ++v) t[v] = static_cast<float>(std::pow(v / 255.0, decodingGamma));
        return t;
    }();
    return table;
}

cv::Mat toLinear(const cv::Mat &channel8) {
    const auto &table = linearTable();
    cv::Mat out(channel8.size(), CV_32F);
    for (int y = 0; y < channel8.rows; ++y) {
        const uchar *s = channel8.ptr<uchar>(y);
        float *d = out.ptr<float>(y);
        for (int x = 0; x < channel8.cols; ++x) d[x] = table[s[x]];
    }
    return out;
}

/// Linear light back to 8-bit values, through a fine table.
cv::Mat fromLinear(const cv::Mat &linear) {
    constexpr int steps = 4096;
    static const std::vector<uchar> table = [] {
        std::vector<uchar> t(steps + 1);
        for (int i = 0; i <= steps; ++i)
            t[i] = cv::saturate_cast<uchar>(255.0 * std::pow(double(i) / steps, 1.0 / decodingGamma) + 0.5);
        return t;
    }();
    cv::Mat out(linear.size(), CV_8U);
    for (int y = 0; y < linear.rows; ++y) {
        const float *s = linear.ptr<float>(y);
        uchar *d = out.ptr<uchar>(y);
        for (int x = 0; x < linear.cols; ++x) d[x] = table[std::clamp(int(s[x] * steps + 0.5f), 0, steps)];
    }
    return out;
}

/// The log power spectrum of `region` (8-bit gray or colour), averaged over Hann-windowed tiles of `size` pixels that
/// hold some structure, in linear light, with zero frequency at (size/2, size/2). Empty when too few tiles hold
/// structure.
cv::Mat averagedLogSpectrum(const cv::Mat &region, int size) {
    cv::Mat window;
    cv::createHanningWindow(window, cv::Size(size, size), CV_32F);
    std::vector<cv::Point> origins;
    for (int y = 0; y + size <= region.rows; y += size / 2)
        for (int x = 0; x + size <= region.cols; x += size / 2) origins.emplace_back(x, y);
    // Enough tiles for a smooth average; more only cost time.
    constexpr size_t maximumTiles = 40;
    const size_t stride = std::max<size_t>(1, (origins.size() + maximumTiles - 1) / maximumTiles);
    cv::Mat sum = cv::Mat::zeros(size, size, CV_32F);
    int used = 0;
    for (size_t i = 0; i < origins.size(); i += stride) {
        cv::Mat tile = toLinear(docscan::gray(region(cv::Rect(origins[i], cv::Size(size, size)))));
        cv::Scalar mean, deviation;
        cv::meanStdDev(tile, mean, deviation);
        if (deviation[0] < 0.02) continue;  // blank paper or plain background: no edges to see the blur in
        tile = (tile - mean[0]).mul(window);
        cv::Mat spectrum;
        cv::dft(tile, spectrum, cv::DFT_COMPLEX_OUTPUT);
        std::vector<cv::Mat> parts;
        cv::split(spectrum, parts);
        cv::Mat power;
        cv::magnitude(parts[0], parts[1], power);
        sum += power.mul(power);
        ++used;
    }
    if (used < 4) return {};
    cv::Mat logSpectrum;
    cv::log(sum / used + 1e-12, logSpectrum);
    // Zero frequency to the centre.
    const int h = size / 2;
    cv::Mat shifted(size, size, CV_32F);
    logSpectrum(cv::Rect(0, 0, h, h)).copyTo(shifted(cv::Rect(h, h, h, h)));
    logSpectrum(cv::Rect(h, h, h, h)).copyTo(shifted(cv::Rect(0, 0, h, h)));
    logSpectrum(cv::Rect(h, 0, h, h)).copyTo(shifted(cv::Rect(0, h, h, h)));
    logSpectrum(cv::Rect(0, h, h, h)).copyTo(shifted(cv::Rect(h, 0, h, h)));
    return shifted;
}

float sample(const cv::Mat &image, double x, double y) {
    const int x0 = int(std::floor(x)), y0 = int(std::floor(y));
    const double fx = x - x0, fy = y - y0;
    const float *r0 = image.ptr<float>(y0), *r1 = image.ptr<float>(y0 + 1);
    return float((1 - fy) * ((1 - fx) * r0[x0] + fx * r0[x0 + 1]) + fy * ((1 - fx) * r1[x0] + fx * r1[x0 + 1]));
}

/// How much a direction's loss of fine detail along it (natural log of power) counts beside the depth of its comb
/// when choosing the shake's direction. On 880 generated photos (the corpus and seeds 27000-63000; a Python copy of
/// this search) the direction chosen was within 8° of the recorded shake on 148 of the 220 shaken ones, against 133
/// for the comb alone.
constexpr double anisotropyWeight = 0.2;
/// The shortest comb, in pixels, whose direction's loss of detail counts: shorter combs are print's own strokes.
constexpr double anisotropyBonusMinimumLength = 3.0;
/// The shallowest comb whose direction's loss of detail counts: a shallower one is never acted on, and choosing it
/// for print's own loss of detail along its lines would hide a real shake's comb (seed 31000's form-06).
constexpr double anisotropyBonusMinimumDepth = 0.09;

/// Frequencies (cycles per pixel) of the profiles.
constexpr double profileStart = 0.01, profileStep = 0.0025, profileEnd = 0.49;

/// The log spectrum along direction `degrees`, averaged across it: one value per frequency from `profileStart` to
/// `profileEnd` in steps of `profileStep`.
std::vector<double> spectrumProfile(const cv::Mat &logSpectrum, double degrees) {
    const double size = logSpectrum.cols, t = degrees * pi / 180;
    const double ex = std::cos(t), ey = std::sin(t);
    std::vector<double> profile;
    for (double u = profileStart; u < profileEnd; u += profileStep) {
        double sum = 0;
        int count = 0;
        for (double v = -0.35; v <= 0.35; v += 0.005) {
            const double fx = u * ex - v * ey, fy = u * ey + v * ex;
            if (std::abs(fx) >= 0.49 || std::abs(fy) >= 0.49) continue;
            sum += sample(logSpectrum, fx * size + size / 2, fy * size + size / 2);
            ++count;
        }
        profile.push_back(count ? sum / count : 0);
    }
    return profile;
}

/// `profile` with its slow trend removed, so that notches show as negative values.
std::vector<double> detrended(const std::vector<double> &profile) {
    constexpr int half = 15;
    std::vector<double> out(profile.size());
    for (int i = 0; i < int(profile.size()); ++i) {
        double sum = 0;
        for (int k = -half; k <= half; ++k) sum += profile[std::clamp(i + k, 0, int(profile.size()) - 1)];
        out[i] = profile[i] - sum / (2 * half + 1);
    }
    return out;
}

double valueAt(const std::vector<double> &profile, double u) {
    const double position = (u - profileStart) / profileStep;
    const int i = std::clamp(int(position), 0, int(profile.size()) - 2);
    const double f = std::clamp(position - i, 0.0, 1.0);
    return (1 - f) * profile[i] + f * profile[i + 1];
}

/// The two bands of low frequencies (cycles per pixel) whose difference measures how fast a profile falls off:
/// below the first notch of any shake under 10 pixels, where print still has power well above the noise.
constexpr double lowBandStart = 0.02, lowBandEnd = 0.05, nextBandEnd = 0.10;

/// The mean of `value(u)` over the profile's frequencies in [`from`, `to`).
template <typename Value> double bandMean(double from, double to, Value value) {
    double sum = 0;
    int count = 0;
    for (double u = profileStart; u < profileEnd; u += profileStep)
        if (u >= from && u < to) sum += value(u), ++count;
    return count ? sum / count : 0;
}

/// How much more a shake of `length` pixels darkens the band `lowBandEnd`-`nextBandEnd` than the band below it
/// (natural log of power): the mean of log sinc² over each, floored at the noise a photo's spectrum sinks to.
double expectedFallOff(double length) {
    static constexpr double noiseFloor = -4;
    auto logSinc2 = [length](double u) {
        const double x = pi * length * u, sinc = x == 0 ? 1 : std::sin(x) / x;
        return std::max(noiseFloor, std::log(sinc * sinc + 1e-12));
    };
    return bandMean(lowBandStart, lowBandEnd, logSinc2) - bandMean(lowBandEnd, nextBandEnd, logSinc2);
}

/// The longest shake whose fall-off at low frequencies the photo shows: along a shake the spectrum falls off faster
/// than across it (by ``expectedFallOff``), and `measuredFallOff` is how much faster it does along the direction
/// measured. A comb's notches alone cannot tell a shake from one two or three times as long, whose comb holds the
/// same notches among others: the corpus's multi-03, shaken by 5 pixels, showed its deepest comb at 15, and its
/// receipt's print echoed every stroke once that was divided out. Any length whose fall-off is under 1.5 is
/// allowed (print's own structure differs along and across by that much), and any up to four times the measured one:
/// over the 85 shakes removed from the corpus and 14 generated sets, the 11 whose length predicted more than 1.5
/// (about 10 pixels or longer) showed at least a third of it (0.34-0.91), multi-03's 15 pixels 0.04.
double longestShakeShown(double measuredFallOff) {
    // ``expectedFallOff`` of each length the comb search tries, computed once: every direction asks.
    static const std::vector<double> fallOffs = [] {
        std::vector<double> table;
        for (double length = 2.0; length < 16.0; length += 0.05) table.push_back(expectedFallOff(length));
        return table;
    }();
    const double allowed = std::max(1.5, 4 * measuredFallOff);
    double length = 2.0;
    for (const double fallOff : fallOffs) {
        if (fallOff > allowed) return length;
        length += 0.05;
    }
    return 16.0;
}

struct Comb {
    double depth = 0;  // mean detrended log power at the notches (negative)
    double length = 0;
};

/// The shake length, at most `longest`, whose notches (1/L, 2/L, 3/L below 0.47 cycles per pixel) are darkest in the
/// profile.
Comb deepestComb(const std::vector<double> &profile, double longest) {
    Comb best;
    for (double length = 2.0; length < 16.0 && length <= longest; length += 0.05) {
        double sum = 0;
        int count = 0;
        for (int n = 1; n <= 3 && n / length < 0.47; ++n, ++count) sum += valueAt(profile, n / length);
        if (count && sum / count < best.depth) best = {sum / count, length};
    }
    return best;
}

/// The log spectrum's fine detail (0.2 to 0.45 cycles per pixel) by direction, gathered once so that the wedge
/// round any direction costs a few hundred additions.
class DirectionalPower {
public:
    explicit DirectionalPower(const cv::Mat &logSpectrum) : sums(bins, 0.0), counts(bins, 0) {
        const int size = logSpectrum.cols;
        for (int y = 0; y < size; ++y)
            for (int x = 0; x < size; ++x) {
                const double fx = double(x - size / 2) / size, fy = double(y - size / 2) / size;
                const double r = std::hypot(fx, fy);
                if (r <= 0.2 || r >= 0.45) continue;
                const double degrees = std::fmod(std::atan2(fy, fx) * 180 / pi + 360.0, 180.0);
                const int bin = std::min(bins - 1, int(degrees * binsPerDegree));
                sums[bin] += logSpectrum.at<float>(y, x);
                ++counts[bin];
            }
    }

    /// Mean log power in a wedge of ±10° round `degrees`.
    double wedge(double degrees) const {
        double sum = 0;
        int count = 0;
        for (int bin = 0; bin < bins; ++bin) {
            double difference = std::fmod((bin + 0.5) / binsPerDegree - degrees + 360.0 * 4, 180.0);
            difference = std::min(difference, 180 - difference);
            if (difference >= 10) continue;
            sum += sums[bin];
            count += counts[bin];
        }
        return count ? sum / count : 0;
    }

    /// How much more fine detail lies across `degrees` than along it: what a shake along `degrees` takes away.
    double anisotropy(double degrees) const { return wedge(degrees + 90) - wedge(degrees); }

private:
    static constexpr int binsPerDegree = 4, bins = 180 * binsPerDegree;
    std::vector<double> sums;
    std::vector<int> counts;
};

/// An anti-aliased line of `length` pixels along `degrees`, summing to 1.
cv::Mat lineKernel(double length, double degrees) {
    constexpr int oversampling = 8;
    const int size = int(std::ceil(length)) + 3;
    cv::Mat fine = cv::Mat::zeros(size * oversampling, size * oversampling, CV_32F);
    const double t = degrees * pi / 180, centre = size * oversampling / 2.0;
    const int steps = int(length * oversampling * 2) + 1;
    for (int i = 0; i < steps; ++i) {
        const double s = (double(i) / (steps - 1) - 0.5) * length * oversampling;
        fine.at<float>(int(centre + s * std::sin(t)), int(centre + s * std::cos(t))) += 1;
    }
    cv::Mat kernel;
    cv::resize(fine, kernel, cv::Size(size, size), 0, 0, cv::INTER_AREA);
    return kernel / cv::sum(kernel)[0];
}

/// A uniform disk of `radius` pixels, its rim anti-aliased, summing to 1: the blur of a lens focused a little off.
cv::Mat diskKernel(double radius) {
    constexpr int oversampling = 8;
    const int half = int(std::ceil(radius)), size = 2 * half + 1;
    cv::Mat fine(size * oversampling, size * oversampling, CV_32F);
    for (int y = 0; y < fine.rows; ++y)
        for (int x = 0; x < fine.cols; ++x) {
            const double dx = (x + 0.5) / oversampling - half - 0.5, dy = (y + 0.5) / oversampling - half - 0.5;
            fine.at<float>(y, x) = dx * dx + dy * dy <= radius * radius ? 1.0f : 0.0f;
        }
    cv::Mat kernel;
    cv::resize(fine, kernel, cv::Size(size, size), 0, 0, cv::INTER_AREA);
    return kernel / cv::sum(kernel)[0];
}

/// The Wiener filter conj(K) / (|K|² + nsr) of `kernel`, as a complex spectrum of `size` × `size`.
cv::Mat wienerFilter(const cv::Mat &kernel, int size, double nsr) {
    cv::Mat psf = cv::Mat::zeros(size, size, CV_32F);
    const int half = kernel.cols / 2;
    for (int y = 0; y < kernel.rows; ++y)  // centred on the origin, wrapping round
        for (int x = 0; x < kernel.cols; ++x)
            psf.at<float>((y - half + size) % size, (x - half + size) % size) = kernel.at<float>(y, x);
    cv::Mat filter;
    cv::dft(psf, filter, cv::DFT_COMPLEX_OUTPUT);
    for (int y = 0; y < size; ++y) {
        auto *k = filter.ptr<cv::Vec2f>(y);
        for (int x = 0; x < size; ++x) {
            const float scale = 1.0f / (k[x][0] * k[x][0] + k[x][1] * k[x][1] + float(nsr));
            k[x] = cv::Vec2f(k[x][0] * scale, -k[x][1] * scale);
        }
    }
    return filter;
}

/// One 8-bit channel with the kernel divided out, in linear light. The channel is processed in blocks with a margin
/// wide enough for the filter's ringing to die out, so memory stays small whatever the photo's size; the channel's
/// own edges are reflected.
cv::Mat deconvolveChannel(const cv::Mat &channel, const cv::Mat &kernel, double nsr) {
    const int margin = std::max(48, 4 * kernel.cols);
    const int size = cv::getOptimalDFTSize(1024 + 2 * margin);
    const int block = size - 2 * margin;
    const cv::Mat filter = wienerFilter(kernel, size, nsr);
    cv::Mat padded;
    cv::copyMakeBorder(channel, padded, margin, size, margin, size, cv::BORDER_REFLECT);
    cv::Mat out(channel.size(), CV_8U);
    for (int top = 0; top < channel.rows; top += block)
        for (int left = 0; left < channel.cols; left += block) {
            const cv::Mat tile = toLinear(padded(cv::Rect(left, top, size, size)));
            cv::Mat spectrum;
            cv::dft(tile, spectrum, cv::DFT_COMPLEX_OUTPUT);
            cv::mulSpectrums(spectrum, filter, spectrum, 0);
            cv::Mat restored;
            cv::dft(spectrum, restored, cv::DFT_INVERSE | cv::DFT_REAL_OUTPUT | cv::DFT_SCALE);
            const int width = std::min(block, channel.cols - left), height = std::min(block, channel.rows - top);
            fromLinear(restored(cv::Rect(margin, margin, width, height))).copyTo(out(cv::Rect(left, top, width, height)));
        }
    return out;
}

bool validRegion(const cv::Mat &image, const int32_t region[4]) {
    return region[2] > 0 && region[3] > 0 && region[0] >= 0 && region[1] >= 0 &&
           region[0] + region[2] <= image.cols && region[1] + region[3] <= image.rows;
}

}  // namespace

ds_status ds_estimate_motion_blur(const ds_image *image, const int32_t region[4], ds_motion_blur *by_comb,
                                  ds_motion_blur *by_detail) {
    *by_comb = ds_motion_blur{};
    if (by_detail) *by_detail = ds_motion_blur{};
    return guarded("estimate_motion_blur", [&]() -> ds_status {
        if (!validRegion(image->mat, region)) return fail(DS_ERROR_INVALID_ARGUMENT, "the region is outside the image");
        const cv::Mat area = image->mat(cv::Rect(region[0], region[1], region[2], region[3]));
        const int tile = std::min(area.cols, area.rows) >= 512 ? 256 : 128;
        if (std::min(area.cols, area.rows) < tile) return DS_OK;
        const cv::Mat logSpectrum = averagedLogSpectrum(area, tile);
        if (logSpectrum.empty()) return DS_OK;
        const DirectionalPower power(logSpectrum);
        // Each direction's profile and deepest comb, found once for both measures.
        std::map<int, std::vector<double>> profiles;
        auto profileAt = [&](int degrees) -> const std::vector<double> & {
            degrees = ((degrees % 180) + 180) % 180;
            auto found = profiles.find(degrees);
            if (found == profiles.end()) found = profiles.emplace(degrees, spectrumProfile(logSpectrum, degrees)).first;
            return found->second;
        };
        std::map<int, Comb> combs;
        auto combAt = [&](int degrees) -> const Comb & {
            auto found = combs.find(degrees);
            if (found == combs.end()) {
                const std::vector<double> &along = profileAt(degrees), &across = profileAt(degrees + 90);
                auto excess = [&](double u) { return valueAt(along, u) - valueAt(across, u); };
                const double fallOff =
                    bandMean(lowBandStart, lowBandEnd, excess) - bandMean(lowBandEnd, nextBandEnd, excess);
                found = combs.emplace(degrees, deepestComb(detrended(along), longestShakeShown(fallOff))).first;
            }
            return found->second;
        };
        // The direction with the highest score, searched every 3° and then to the degree round the best.
        auto search = [&](auto score, ds_motion_blur *out) {
            int bestDegrees = 0;
            double bestScore = 0;
            auto consider = [&](int degrees) {
                const double value = score(combAt(degrees), degrees);
                if (value > bestScore) bestDegrees = degrees, bestScore = value;
            };
            for (int degrees = 0; degrees < 180; degrees += 3) consider(degrees);
            const int coarse = bestDegrees;
            for (int degrees = coarse - 2; degrees <= coarse + 2; degrees += 1) consider(degrees);
            const Comb best = bestScore > 0 ? combAt(bestDegrees) : Comb{};
            out->length = best.length;
            out->angle_degrees = std::fmod(bestDegrees + 180, 180);
            out->notch_depth = -best.depth;
            // A shake darkens the fine detail along it; print alone is about as fine both ways.
            out->anisotropy = power.anisotropy(bestDegrees);
        };
        search([](const Comb &comb, int) { return comb.depth < 0 ? -comb.depth : 0.0; }, by_comb);
        if (!by_detail) return DS_OK;
        // The same with a bonus for the fine detail missing along a direction: print has combs of its own along its
        // lines and across them (strokes, letter pitch), but a shake also darkens everything finer along its
        // direction. Combs shorter than a stroke is wide, or too shallow to act on, get no bonus: print alone loses
        // detail along its lines.
        search(
            [&](const Comb &comb, int degrees) {
                if (comb.depth >= 0) return 0.0;
                if (comb.length < anisotropyBonusMinimumLength || -comb.depth < anisotropyBonusMinimumDepth)
                    return -comb.depth;
                return -comb.depth + anisotropyWeight * std::max(0.0, power.anisotropy(degrees));
            },
            by_detail);
        return DS_OK;
    });
}

ds_status ds_remove_motion_blur(const ds_image *image, double length, double angle_degrees, const int32_t region[4],
                                ds_image **out) {
    *out = nullptr;
    return guarded("remove_motion_blur", [&]() -> ds_status {
        if (!validRegion(image->mat, region)) return fail(DS_ERROR_INVALID_ARGUMENT, "the region is outside the image");
        if (!(length >= 1 && length <= 64)) return fail(DS_ERROR_INVALID_ARGUMENT, "the blur length is out of range");
        const cv::Mat kernel = lineKernel(length, angle_degrees);
        // A little regularisation: enough to keep sensor noise from swamping the notches of the spectrum.
        constexpr double noiseToSignal = 0.02;
        cv::Mat result = image->mat.clone();
        cv::Mat area = result(cv::Rect(region[0], region[1], region[2], region[3]));
        std::vector<cv::Mat> channels;
        cv::split(area, channels);
        for (cv::Mat &channel : channels) channel = deconvolveChannel(channel, kernel, noiseToSignal);
        cv::merge(channels, area);
        return emit(std::move(result), out);
    });
}

ds_status ds_remove_defocus(const ds_image *image, double radius, ds_image **out) {
    *out = nullptr;
    return guarded("remove_defocus", [&]() -> ds_status {
        if (!(radius >= 0.5 && radius <= 16))
            return fail(DS_ERROR_INVALID_ARGUMENT,
                        "the defocus radius " + std::to_string(radius) + " is outside 0.5...16 pixels");
        const cv::Mat kernel = diskKernel(radius);
        // A disk's spectrum has rings of zeros; more regularisation than for a shake keeps them from ringing.
        constexpr double noiseToSignal = 0.02;
        std::vector<cv::Mat> channels;
        cv::split(image->mat, channels);
        for (cv::Mat &channel : channels) channel = deconvolveChannel(channel, kernel, noiseToSignal);
        cv::Mat result;
        cv::merge(channels, result);
        return emit(std::move(result), out);
    });
}
