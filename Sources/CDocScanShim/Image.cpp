// Decoding, encoding and the geometric operations on ds_image.
#include "Codecs.hpp"
#include "Support.hpp"

#include <opencv2/imgproc.hpp>

using docscan::emit;
using docscan::fail;
using docscan::guarded;


ds_status ds_image_decode(const void *bytes, size_t length, ds_image **out) {
    *out = nullptr;
    return guarded("decode", [&]() -> ds_status {
        if (length == 0) return fail(DS_ERROR_DECODE, "the file is empty");
        try {
            return emit(docscan::decode(static_cast<const unsigned char *>(bytes), length), out);
        } catch (const docscan::DecodeError &error) {
            return fail(DS_ERROR_DECODE, error.what());
        }
    });
}

ds_status ds_image_create(int32_t width, int32_t height, int32_t channels, const void *pixels, size_t bytes_per_row,
                          ds_image **out) {
    *out = nullptr;
    return guarded("create", [&]() -> ds_status {
        if (width <= 0 || height <= 0) return fail(DS_ERROR_INVALID_ARGUMENT, "image size must be positive");
        if (channels != 1 && channels != 3) return fail(DS_ERROR_INVALID_ARGUMENT, "channels must be 1 or 3");
        if (bytes_per_row < static_cast<size_t>(width) * channels)
            return fail(DS_ERROR_INVALID_ARGUMENT, "bytes per row is smaller than a row of pixels");
        const cv::Mat borrowed(height, width, CV_8UC(channels), const_cast<void *>(pixels), bytes_per_row);
        return emit(borrowed.clone(), out);
    });
}

void ds_image_free(ds_image *image) { delete image; }

int32_t ds_image_width(const ds_image *image) { return image->mat.cols; }
int32_t ds_image_height(const ds_image *image) { return image->mat.rows; }
int32_t ds_image_channels(const ds_image *image) { return image->mat.channels(); }
const void *ds_image_pixels(const ds_image *image) { return image->mat.data; }
size_t ds_image_bytes_per_row(const ds_image *image) { return image->mat.step[0]; }

const void *ds_buffer_bytes(const ds_buffer *buffer) { return buffer->bytes.data(); }
size_t ds_buffer_length(const ds_buffer *buffer) { return buffer->bytes.size(); }
void ds_buffer_free(ds_buffer *buffer) { delete buffer; }

ds_status ds_image_encode(const ds_image *image, ds_encoding encoding, int32_t quality, ds_buffer **out) {
    *out = nullptr;
    return guarded("encode", [&]() -> ds_status {
        if (encoding != DS_ENCODING_PNG && encoding != DS_ENCODING_JPEG)
            return fail(DS_ERROR_INVALID_ARGUMENT, "unknown encoding");
        auto buffer = std::make_unique<ds_buffer>();
        try {
            docscan::encode(image->mat, encoding == DS_ENCODING_JPEG, std::clamp(quality, 1, 100), buffer->bytes);
        } catch (const std::runtime_error &error) {
            return fail(DS_ERROR_ENCODE, error.what());
        }
        *out = buffer.release();
        return DS_OK;
    });
}

ds_status ds_image_orient(const ds_image *image, int32_t orientation, ds_image **out) {
    *out = nullptr;
    return guarded("orient", [&]() -> ds_status {
        const cv::Mat &m = image->mat;
        cv::Mat r;
        switch (orientation) {
            case 1: r = m.clone(); break;
            case 2: cv::flip(m, r, 1); break;                      // mirrored horizontally
            case 3: cv::rotate(m, r, cv::ROTATE_180); break;
            case 4: cv::flip(m, r, 0); break;                      // mirrored vertically
            case 5: cv::transpose(m, r); break;                    // mirrored along the main diagonal
            case 6: cv::rotate(m, r, cv::ROTATE_90_CLOCKWISE); break;
            case 7: cv::transpose(m, r); cv::rotate(r, r, cv::ROTATE_180); break;  // anti-diagonal
            case 8: cv::rotate(m, r, cv::ROTATE_90_COUNTERCLOCKWISE); break;
            default: return fail(DS_ERROR_INVALID_ARGUMENT, "EXIF orientation must be 1...8");
        }
        return emit(std::move(r), out);
    });
}

ds_status ds_image_resize(const ds_image *image, int32_t width, int32_t height, ds_image **out) {
    *out = nullptr;
    return guarded("resize", [&]() -> ds_status {
        if (width <= 0 || height <= 0) return fail(DS_ERROR_INVALID_ARGUMENT, "image size must be positive");
        const bool shrinking = width * static_cast<int64_t>(height) < image->mat.total();
        cv::Mat r;
        cv::resize(image->mat, r, cv::Size(width, height), 0, 0, shrinking ? cv::INTER_AREA : cv::INTER_LINEAR);
        return emit(std::move(r), out);
    });
}

ds_status ds_image_to_gray(const ds_image *image, ds_image **out) {
    *out = nullptr;
    return guarded("to_gray", [&]() -> ds_status {
        cv::Mat g = docscan::gray(image->mat);
        return emit(g.data == image->mat.data ? g.clone() : g, out);
    });
}

ds_status ds_image_warp(const ds_image *image, const double homography[9], int32_t width, int32_t height,
                        ds_sampling sampling, ds_image **out) {
    *out = nullptr;
    return guarded("warp", [&]() -> ds_status {
        if (width <= 0 || height <= 0) return fail(DS_ERROR_INVALID_ARGUMENT, "output size must be positive");
        if (sampling != DS_SAMPLING_LINEAR && sampling != DS_SAMPLING_CUBIC)
            return fail(DS_ERROR_INVALID_ARGUMENT, "unknown sampling");
        const cv::Matx33d forward(homography);
        cv::Matx33d inverse;
        if (cv::invert(forward, inverse) == 0) return fail(DS_ERROR_INVALID_ARGUMENT, "the homography is singular");
        // When the output is much smaller than the region it shows, shrink the source first (area averaging) so that
        // the sampling does not alias fine print.
        std::vector<cv::Point2d> corners{{0, 0}, {double(width), 0}, {double(width), double(height)}, {0, double(height)}};
        std::vector<cv::Point2d> mapped;
        cv::perspectiveTransform(corners, mapped, inverse);
        std::vector<cv::Point2f> mappedF(mapped.begin(), mapped.end());
        const double sourceArea = std::abs(cv::contourArea(mappedF));
        const int factor = static_cast<int>(std::floor(std::sqrt(sourceArea / (double(width) * height))));
        cv::Mat source = image->mat;
        if (factor >= 2) {
            // Shrink only the region the output shows (plus a margin for interpolation).
            cv::Rect region = cv::boundingRect(mappedF);
            region = cv::Rect(region.x - 2 * factor, region.y - 2 * factor, region.width + 4 * factor,
                              region.height + 4 * factor) &
                     cv::Rect(0, 0, source.cols, source.rows);
            if (region.width / factor > 0 && region.height / factor > 0) {
                cv::Mat shrunk;
                cv::resize(source(region), shrunk, cv::Size(region.width / factor, region.height / factor), 0, 0,
                           cv::INTER_AREA);
                // small = (source - origin - (f-1)/2) / f, so output -> small is S * inverse with S that affine map.
                const double f = static_cast<double>(region.width) / shrunk.cols;
                const double g = static_cast<double>(region.height) / shrunk.rows;
                const cv::Matx33d toSmall(1 / f, 0, -(region.x + (f - 1) / 2) / f, 0, 1 / g,
                                          -(region.y + (g - 1) / 2) / g, 0, 0, 1);
                inverse = toSmall * inverse;
                source = shrunk;
            }
        }
        cv::Mat r;
        const int interpolation = sampling == DS_SAMPLING_CUBIC ? cv::INTER_CUBIC : cv::INTER_LINEAR;
        cv::warpPerspective(source, r, inverse, cv::Size(width, height), interpolation | cv::WARP_INVERSE_MAP,
                            cv::BORDER_REPLICATE);
        return emit(std::move(r), out);
    });
}
