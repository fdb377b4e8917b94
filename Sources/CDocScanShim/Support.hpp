// Internal to the shim: the image handle, the thread-local error message and the exception guard that every exported
// function runs inside.
#pragma once

#include "CDocScanShim.h"

#include <opencv2/core.hpp>

#include <array>
#include <new>
#include <string>
#include <utility>

struct ds_image {
    cv::Mat mat;  // CV_8UC1 or CV_8UC3 (BGR), continuous or not
};

struct ds_buffer {
    std::vector<uchar> bytes;
};

namespace docscan {

/// Records `message` as the calling thread's last error and returns `status`.
ds_status fail(ds_status status, std::string message);

/// Runs `body` and converts every exception into a status and message; nothing escapes.
template <typename Body>
ds_status guarded(const char *function, Body &&body) noexcept {
    try {
        return std::forward<Body>(body)();
    } catch (const cv::Exception &error) {
        if (error.code == cv::Error::StsNoMem) {
            return fail(DS_ERROR_OUT_OF_MEMORY, std::string(function) + ": out of memory");
        }
        return fail(DS_ERROR_INTERNAL, std::string(function) + ": OpenCV: " + error.err);
    } catch (const std::bad_alloc &) {
        return fail(DS_ERROR_OUT_OF_MEMORY, std::string(function) + ": out of memory");
    } catch (const std::exception &error) {
        return fail(DS_ERROR_INTERNAL, std::string(function) + ": " + error.what());
    } catch (...) {
        return fail(DS_ERROR_INTERNAL, std::string(function) + ": unknown C++ exception");
    }
}

/// Hands a new image to the caller through `out`.
inline ds_status emit(cv::Mat mat, ds_image **out) {
    *out = new ds_image{std::move(mat)};
    return DS_OK;
}

/// Luminance of a BGR or gray image as one 8-bit channel (shares data when already gray).
cv::Mat gray(const cv::Mat &mat);

/// Downscales so that the longer side is at most `longSide`, by an integer factor when that is close (OpenCV's fast
/// area path), returning the factor applied (≥ 1).
double downscale(const cv::Mat &source, int longSide, cv::Mat &result);

/// How strongly the ink of a region forms lines of text: the share of its best projection's energy in fine structure
/// (0...1): near 0 for texture, noise, shading or blank paper, clearly above for printed lines.
double textLineStrength(const cv::Mat &region);

/// Whether the print is lighter than its paper (light text on a dark or pale coloured card), judged on a 400-pixel
/// copy: the pixels that depart from their neighbourhood's median are mostly lighter.
bool isLightOnDark(const cv::Mat &image);

/// How many pixels of an 8-bit one-channel image hold each value, for its quantiles.
struct LevelCounts {
    std::array<size_t, 256> counts{};
    size_t total = 0;

    /// The counts of `gray`'s pixels.
    explicit LevelCounts(const cv::Mat &gray);

    /// The smallest value that `share` of the pixels (0...1) are at or below; 255 when none is.
    int valueAtShare(double share) const;
};

}  // namespace docscan
