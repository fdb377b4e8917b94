// Internal to the shim: image file decoding and encoding on the system codec libraries.
#pragma once

#include <opencv2/core.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace docscan {

/// The bytes are not a decodable image; the message says why.
struct DecodeError : std::runtime_error {
    explicit DecodeError(const std::string &message);
};

/// Decodes JPEG, PNG, TIFF, WebP or BMP bytes into 8-bit gray or BGR pixels in stored orientation.
/// Throws DecodeError for damaged or unsupported data.
cv::Mat decode(const unsigned char *bytes, size_t length);

/// Encodes 8-bit gray or BGR pixels as PNG or JPEG (quality 1...100).
void encode(const cv::Mat &mat, bool jpeg, int quality, std::vector<uchar> &out);

/// Blends BGRA pixels onto white paper.
cv::Mat compositeOnWhite(const cv::Mat &bgra);

}  // namespace docscan
