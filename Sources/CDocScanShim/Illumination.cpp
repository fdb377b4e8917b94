// Illumination flattening: the paper's brightness is estimated with a morphological closing (a maximum filter that
// removes ink, followed by a minimum filter that puts shadow boundaries back where they were), and the page is divided
// by it. A closing keeps step edges in place, so hard shadow edges are removed as cleanly as soft gradients.
#include "Support.hpp"

#include <opencv2/imgproc.hpp>

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

/// Maps flattened values so that paper is pure white and ink keeps (and gains a little) contrast.
cv::Mat toneCurve() {
    cv::Mat lut(1, 256, CV_8U);
    constexpr double white = 0.88, black = 0.08, gamma = 1.3;
    for (int v = 0; v < 256; ++v) {
        const double x = std::clamp((v / 255.0 - black) / (white - black), 0.0, 1.0);
        lut.at<uchar>(v) = cv::saturate_cast<uchar>(255.0 * std::pow(x, gamma));
    }
    return lut;
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
        cv::divide(work, cv::max(background, 1), flat, 255.0);
        if (mode == DS_LIGHT_BLACK_AND_WHITE) {
            const int window = std::max(15, (std::max(flat.cols, flat.rows) / 60) | 1);
            return emit(sauvola(flat, window, 0.2), out);
        }
        cv::LUT(flat, toneCurve(), flat);
        return emit(std::move(flat), out);
    });
}
