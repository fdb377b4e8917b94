#include "Support.hpp"

#include <opencv2/imgproc.hpp>

#include <cmath>

namespace {
thread_local std::string lastErrorMessage;
}

ds_status docscan::fail(ds_status status, std::string message) {
    lastErrorMessage = std::move(message);
    return status;
}

const char *ds_last_error_message(void) { return lastErrorMessage.c_str(); }

void ds_set_thread_count(int32_t count) {
    try {
        cv::setNumThreads(count <= 0 ? -1 : count);
    } catch (...) {
    }
}

cv::Mat docscan::gray(const cv::Mat &mat) {
    if (mat.channels() == 1) return mat;
    cv::Mat result;
    cv::cvtColor(mat, result, cv::COLOR_BGR2GRAY);
    return result;
}

double docscan::downscale(const cv::Mat &source, int longSide, cv::Mat &result) {
    const int longest = std::max(source.cols, source.rows);
    if (longest <= longSide) {
        result = source;
        return 1.0;
    }
    const int factor = static_cast<int>(std::ceil(static_cast<double>(longest) / longSide));
    const cv::Size size(std::max(1, source.cols / factor), std::max(1, source.rows / factor));
    if (factor >= 4) {
        // Area averaging of the whole photo at once takes 10 ms for 12 MP; halving first (OpenCV's fast 2 × 2 path)
        // and then averaging the rest gives nearly the same pixels in two thirds of the time.
        cv::Mat half;
        cv::resize(source, half, cv::Size(source.cols / 2, source.rows / 2), 0, 0, cv::INTER_AREA);
        cv::resize(half, result, size, 0, 0, cv::INTER_AREA);
    } else {
        cv::resize(source, result, size, 0, 0, cv::INTER_AREA);
    }
    return static_cast<double>(source.cols) / size.width;
}

/// Whether the print is lighter than its paper (light text on a dark card). Each pixel is compared with the median of
/// its neighbourhood, which is the local paper whatever the shadows; print shows up as the minority that departs from
/// it, and its sign gives the polarity. Large bright or dark objects (a thumb, a shadow) change few medians.
bool docscan::isLightOnDark(const cv::Mat &image) {
    cv::Mat small;
    docscan::downscale(docscan::gray(image), 400, small);
    const int kernel = std::max(15, (std::max(small.cols, small.rows) / 8) | 1);
    cv::Mat paper;
    cv::medianBlur(small, paper, kernel);
    // White print on a pale pink card departs from it by only 25-40 levels once downscaled; noise and JPEG
    // artefacts depart both ways alike.
    constexpr int departure = 24;
    long lighter = 0, darker = 0;
    for (int y = 0; y < small.rows; ++y) {
        const uchar *v = small.ptr<uchar>(y), *p = paper.ptr<uchar>(y);
        for (int x = 0; x < small.cols; ++x) {
            lighter += v[x] > p[x] + departure;
            darker += v[x] + departure < p[x];
        }
    }
    return lighter > 3 * darker && lighter > static_cast<long>(small.total()) / 200;
}

docscan::LevelCounts::LevelCounts(const cv::Mat &gray) : total(gray.total()) {
    for (int y = 0; y < gray.rows; ++y) {
        const uchar *row = gray.ptr<uchar>(y);
        for (int x = 0; x < gray.cols; ++x) ++counts[row[x]];
    }
}

int docscan::LevelCounts::valueAtShare(double share) const {
    const double wanted = share * static_cast<double>(total);
    size_t seen = 0;
    for (int value = 0; value < 256; ++value)
        if (static_cast<double>(seen += counts[value]) >= wanted) return value;
    return 255;
}
