// Illumination flattening: the paper's brightness is estimated with a morphological closing (a maximum filter that
// removes ink, followed by a minimum filter that puts shadow boundaries back where they were), and the page is divided
// by it. A closing keeps step edges in place, so hard shadow edges are removed as cleanly as soft gradients.
#include "Support.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

using docscan::emit;
using docscan::fail;
using docscan::guarded;

namespace {

/// Paper brightness at every pixel of `work` (same size and channels).
cv::Mat paperBrightness(const cv::Mat &work) {
    cv::Mat small;
    docscan::downscale(work, 900, small);
    // Larger than a stroke and a small character, smaller than a shadow: about 1/60 of the page.
    int kernel = std::max(small.cols, small.rows) / 60;
    kernel = std::max(7, kernel | 1);
    cv::Mat background;
    cv::morphologyEx(small, background, cv::MORPH_CLOSE,
                     cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(kernel, kernel)));
    cv::medianBlur(background, background, 5);
    cv::GaussianBlur(background, background, cv::Size(0, 0), 1.5);
    cv::Mat full;
    cv::resize(background, full, work.size(), 0, 0, cv::INTER_LINEAR);
    return full;
}

/// The tone curve applied after flattening: paper becomes pure white and ink keeps (and gains a little) contrast.
double tone(double flattened) {
    constexpr double white = 0.88, black = 0.08, gamma = 1.3;
    const double x = std::clamp((flattened - black) / (white - black), 0.0, 1.0);
    return std::pow(x, gamma);
}

/// value × 255 / paper, then the tone curve, in one pass through a 256 × 256 table indexed by (paper, value).
void divideAndTone(const cv::Mat &work, const cv::Mat &paper, cv::Mat &out) {
    static const std::vector<uchar> table = [] {
        std::vector<uchar> t(256 * 256);
        for (int p = 0; p < 256; ++p)
            for (int v = 0; v < 256; ++v)
                t[p * 256 + v] = cv::saturate_cast<uchar>(255.0 * tone(std::min(1.0, v / std::max(1.0, double(p)))));
        return t;
    }();
    out.create(work.size(), work.type());
    const int rowLength = work.cols * work.channels();
    for (int y = 0; y < work.rows; ++y) {
        const uchar *v = work.ptr<uchar>(y), *p = paper.ptr<uchar>(y);
        uchar *o = out.ptr<uchar>(y);
        for (int i = 0; i < rowLength; ++i) o[i] = table[p[i] * 256 + v[i]];
    }
}

/// Sauvola's local threshold: ink where the value is below mean * (1 + k * (deviation / 128 - 1)) of its window.
cv::Mat sauvola(const cv::Mat &gray, int window, double k) {
    cv::Mat value, mean, squareMean;
    gray.convertTo(value, CV_32F);
    cv::boxFilter(value, mean, CV_32F, cv::Size(window, window), cv::Point(-1, -1), true, cv::BORDER_REPLICATE);
    cv::boxFilter(value.mul(value), squareMean, CV_32F, cv::Size(window, window), cv::Point(-1, -1), true,
                  cv::BORDER_REPLICATE);
    cv::Mat deviation;
    cv::sqrt(cv::max(squareMean - mean.mul(mean), 0), deviation);
    const cv::Mat threshold = mean.mul(1 + k * (deviation / 128.0 - 1));
    cv::Mat ink = value < threshold;
    return 255 - ink;
}

}  // namespace

ds_status ds_flatten_illumination(const ds_image *image, ds_light_mode mode, ds_image **out) {
    *out = nullptr;
    return guarded("flatten_illumination", [&]() -> ds_status {
        if (mode != DS_LIGHT_COLOR && mode != DS_LIGHT_GRAY && mode != DS_LIGHT_BLACK_AND_WHITE)
            return fail(DS_ERROR_INVALID_ARGUMENT, "unknown light mode");
        const cv::Mat work = mode == DS_LIGHT_COLOR ? image->mat : docscan::gray(image->mat);
        const cv::Mat background = paperBrightness(work);
        cv::Mat flat;
        if (mode == DS_LIGHT_BLACK_AND_WHITE) {
            cv::divide(work, cv::max(background, 1), flat, 255.0);
            const int window = std::max(15, (std::max(flat.cols, flat.rows) / 60) | 1);
            return emit(sauvola(flat, window, 0.2), out);
        }
        divideAndTone(work, background, flat);
        return emit(std::move(flat), out);
    });
}
