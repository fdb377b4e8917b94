// Image decoding and encoding straight on libjpeg, libpng, libtiff and libwebp (and a small BMP reader), instead of
// OpenCV's imgcodecs: Debian's imgcodecs links GDAL and about 140 shared libraries, which made every process start
// (even `docscan --help`) load them. Decoders return 8-bit gray or BGR; alpha is composited onto white.
#include "Codecs.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <jpeglib.h>
#include <jerror.h>
#include <png.h>
#include <tiffio.h>
#include <webp/decode.h>

namespace docscan {

DecodeError::DecodeError(const std::string &message) : std::runtime_error(message) {}

namespace {

// MARK: JPEG

struct JPEGErrorManager {
    jpeg_error_mgr base;
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    bool endedEarly;
};

void jpegErrorExit(j_common_ptr info) {
    auto *manager = reinterpret_cast<JPEGErrorManager *>(info->err);
    info->err->format_message(info, manager->message);
    std::longjmp(manager->jump, 1);
}

void jpegMessage(j_common_ptr info, int level) {
    auto *manager = reinterpret_cast<JPEGErrorManager *>(info->err);
    // Warnings (level -1) are silent, except that running out of data means the file is truncated.
    if (level < 0 && info->err->msg_code == JWRN_JPEG_EOF) manager->endedEarly = true;
}

/// Decodes with libjpeg. All objects with destructors live in the caller, so the longjmp from libjpeg's error handler
/// never skips one.
bool decodeJPEGInto(const unsigned char *bytes, size_t length, cv::Mat &result, std::string &error) {
    jpeg_decompress_struct info;
    JPEGErrorManager manager;
    info.err = jpeg_std_error(&manager.base);
    manager.base.error_exit = jpegErrorExit;
    manager.base.emit_message = jpegMessage;
    manager.endedEarly = false;
    if (setjmp(manager.jump)) {
        jpeg_destroy_decompress(&info);
        error = std::string("damaged JPEG data (") + manager.message + ")";
        return false;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, bytes, static_cast<unsigned long>(length));
    jpeg_save_markers(&info, JPEG_APP0 + 14, 0xFFFF);  // Adobe marker, for CMYK polarity
    jpeg_read_header(&info, TRUE);
    const bool cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
    const bool gray = info.jpeg_color_space == JCS_GRAYSCALE;
    info.out_color_space = cmyk ? JCS_CMYK : (gray ? JCS_GRAYSCALE : JCS_EXT_BGR);
    jpeg_start_decompress(&info);
    const int channels = info.output_components;
    cv::Mat decoded(static_cast<int>(info.output_height), static_cast<int>(info.output_width), CV_8UC(channels));
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = decoded.ptr<uchar>(static_cast<int>(info.output_scanline));
        jpeg_read_scanlines(&info, &row, 1);
    }
    const bool adobeInverted = info.saw_Adobe_marker;
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    if (manager.endedEarly) {
        error = "the JPEG data ends early (truncated file)";
        return false;
    }
    if (cmyk) {
        // Adobe writes CMYK inverted (0 = full ink); without its marker the values are plain.
        cv::Mat bgr(decoded.rows, decoded.cols, CV_8UC3);
        for (int y = 0; y < decoded.rows; ++y) {
            const uchar *s = decoded.ptr<uchar>(y);
            uchar *d = bgr.ptr<uchar>(y);
            for (int x = 0; x < decoded.cols; ++x, s += 4, d += 3) {
                const int c = adobeInverted ? s[0] : 255 - s[0], m = adobeInverted ? s[1] : 255 - s[1];
                const int yy = adobeInverted ? s[2] : 255 - s[2], k = adobeInverted ? s[3] : 255 - s[3];
                d[0] = static_cast<uchar>(yy * k / 255);
                d[1] = static_cast<uchar>(m * k / 255);
                d[2] = static_cast<uchar>(c * k / 255);
            }
        }
        decoded = bgr;
    }
    result = decoded;
    return true;
}

cv::Mat decodeJPEG(const unsigned char *bytes, size_t length) {
    cv::Mat result;
    std::string error;
    if (!decodeJPEGInto(bytes, length, result, error)) throw DecodeError(error);
    return result;
}

// MARK: PNG

cv::Mat decodePNG(const unsigned char *bytes, size_t length) {
    png_image image;
    std::memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, bytes, length))
        throw DecodeError(std::string("damaged PNG data (") + image.message + ")");
    const bool color = (image.format & PNG_FORMAT_FLAG_COLOR) != 0;
    // Formats without alpha make libpng composite transparent pixels onto the background given below.
    image.format = color ? PNG_FORMAT_BGR : PNG_FORMAT_GRAY;
    cv::Mat decoded(static_cast<int>(image.height), static_cast<int>(image.width), color ? CV_8UC3 : CV_8UC1);
    png_color white{255, 255, 255};
    if (!png_image_finish_read(&image, &white, decoded.data, static_cast<png_int_32>(decoded.step[0]), nullptr)) {
        const std::string message = image.message;
        png_image_free(&image);
        throw DecodeError("damaged PNG data (" + message + ")");
    }
    if (image.warning_or_error & PNG_IMAGE_ERROR) throw DecodeError("damaged PNG data");
    return decoded;
}

// MARK: TIFF

struct MemoryFile {
    const unsigned char *bytes;
    size_t length;
    size_t position;
};

thread_local std::string tiffMessage;

void tiffError(const char *module, const char *format, va_list arguments) {
    char buffer[512];
    std::vsnprintf(buffer, sizeof buffer, format, arguments);
    tiffMessage = buffer;
    (void)module;
}

void tiffWarning(const char *, const char *, va_list) {}

tsize_t tiffRead(thandle_t handle, tdata_t buffer, tsize_t size) {
    auto *file = static_cast<MemoryFile *>(handle);
    const size_t count = std::min(static_cast<size_t>(size), file->length - std::min(file->position, file->length));
    std::memcpy(buffer, file->bytes + file->position, count);
    file->position += count;
    return static_cast<tsize_t>(count);
}
tsize_t tiffWrite(thandle_t, tdata_t, tsize_t) { return 0; }
toff_t tiffSeek(thandle_t handle, toff_t offset, int whence) {
    auto *file = static_cast<MemoryFile *>(handle);
    const size_t base = whence == SEEK_SET ? 0 : (whence == SEEK_CUR ? file->position : file->length);
    file->position = base + offset;
    return file->position;
}
int tiffClose(thandle_t) { return 0; }
toff_t tiffSize(thandle_t handle) { return static_cast<MemoryFile *>(handle)->length; }
int tiffMap(thandle_t, tdata_t *, toff_t *) { return 0; }
void tiffUnmap(thandle_t, tdata_t, toff_t) {}

cv::Mat decodeTIFF(const unsigned char *bytes, size_t length) {
    static const bool handlersInstalled = [] {
        TIFFSetErrorHandler(tiffError);
        TIFFSetWarningHandler(tiffWarning);
        return true;
    }();
    (void)handlersInstalled;
    tiffMessage.clear();
    MemoryFile file{bytes, length, 0};
    TIFF *tiff = TIFFClientOpen("image", "rm", &file, tiffRead, tiffWrite, tiffSeek, tiffClose, tiffSize, tiffMap,
                                tiffUnmap);
    if (!tiff) throw DecodeError("damaged TIFF data (" + tiffMessage + ")");
    uint32_t width = 0, height = 0;
    uint16_t orientation = ORIENTATION_TOPLEFT, samples = 1, photometric = PHOTOMETRIC_MINISBLACK;
    TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &width);
    TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &height);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_ORIENTATION, &orientation);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_PHOTOMETRIC, &photometric);
    std::vector<uint32_t> raster(static_cast<size_t>(width) * height);
    // Ask for the stored orientation: DocScan applies the Orientation tag itself, as for every format.
    const int ok = width > 0 && height > 0 &&
                   TIFFReadRGBAImageOriented(tiff, width, height, raster.data(), orientation, 0);
    TIFFClose(tiff);
    if (!ok) throw DecodeError("damaged or unsupported TIFF data (" + tiffMessage + ")");
    const bool gray = samples == 1 && (photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE);
    cv::Mat decoded(static_cast<int>(height), static_cast<int>(width), gray ? CV_8UC1 : CV_8UC3);
    for (uint32_t y = 0; y < height; ++y) {
        uchar *d = decoded.ptr<uchar>(static_cast<int>(y));
        for (uint32_t x = 0; x < width; ++x) {
            const uint32_t p = raster[static_cast<size_t>(y) * width + x];
            const int a = TIFFGetA(p);
            const auto over = [a](int v) { return static_cast<uchar>((v * a + 255 * (255 - a)) / 255); };
            if (gray) {
                d[x] = over(TIFFGetR(p));
            } else {
                d[3 * x] = over(TIFFGetB(p));
                d[3 * x + 1] = over(TIFFGetG(p));
                d[3 * x + 2] = over(TIFFGetR(p));
            }
        }
    }
    return decoded;
}

// MARK: WebP

cv::Mat decodeWebP(const unsigned char *bytes, size_t length) {
    WebPBitstreamFeatures features;
    if (WebPGetFeatures(bytes, length, &features) != VP8_STATUS_OK) throw DecodeError("damaged WebP data");
    if (features.has_animation) throw DecodeError("animated WebP images are not supported");
    if (!features.has_alpha) {
        cv::Mat decoded(features.height, features.width, CV_8UC3);
        if (!WebPDecodeBGRInto(bytes, length, decoded.data, decoded.total() * 3, static_cast<int>(decoded.step[0])))
            throw DecodeError("damaged WebP data");
        return decoded;
    }
    cv::Mat withAlpha(features.height, features.width, CV_8UC4);
    if (!WebPDecodeBGRAInto(bytes, length, withAlpha.data, withAlpha.total() * 4, static_cast<int>(withAlpha.step[0])))
        throw DecodeError("damaged WebP data");
    return compositeOnWhite(withAlpha);
}

// MARK: BMP

uint32_t readLE(const unsigned char *p, int bytes) {
    uint32_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

/// Uncompressed BMPs (1, 4, 8 bits with a palette; 16, 24, 32 bits, with or without bit-field masks).
cv::Mat decodeBMP(const unsigned char *b, size_t length) {
    if (length < 54) throw DecodeError("damaged BMP data (header too short)");
    const uint32_t dataOffset = readLE(b + 10, 4), headerSize = readLE(b + 14, 4);
    const int32_t width = static_cast<int32_t>(readLE(b + 18, 4)), rawHeight = static_cast<int32_t>(readLE(b + 22, 4));
    const int bits = static_cast<int>(readLE(b + 28, 2));
    const uint32_t compression = readLE(b + 30, 4);
    if (width <= 0 || rawHeight == 0 || headerSize < 40) throw DecodeError("damaged BMP data (bad header)");
    if (compression != 0 && compression != 3) throw DecodeError("compressed (RLE) BMP images are not supported");
    const bool bottomUp = rawHeight > 0;
    const int height = std::abs(rawHeight);
    const size_t rowBytes = ((static_cast<size_t>(width) * bits + 31) / 32) * 4;
    if (dataOffset > length || rowBytes * height > length - dataOffset) throw DecodeError("the BMP data ends early");
    uint32_t masks[3] = {0x00FF0000, 0x0000FF00, 0x000000FF};
    if (bits == 16) masks[0] = 0x7C00, masks[1] = 0x03E0, masks[2] = 0x001F;
    if (compression == 3) {
        const size_t at = headerSize == 40 ? 54 : 14 + 40;  // masks follow a 40-byte header, or sit inside a V4/V5 one
        if (at + 12 > length) throw DecodeError("damaged BMP data (bit masks)");
        for (int i = 0; i < 3; ++i) masks[i] = readLE(b + at + 4 * i, 4);
    }
    const unsigned char *palette = b + 14 + headerSize;
    const size_t paletteEntries = (dataOffset - 14 - headerSize) / 4;
    const auto channel = [](uint32_t value, uint32_t mask) -> uchar {
        if (mask == 0) return 0;
        int shift = 0;
        while (!((mask >> shift) & 1)) ++shift;
        const uint32_t maximum = mask >> shift;
        return static_cast<uchar>(((value & mask) >> shift) * 255 / maximum);
    };
    cv::Mat decoded(height, width, CV_8UC3);
    for (int y = 0; y < height; ++y) {
        const unsigned char *row = b + dataOffset + rowBytes * (bottomUp ? height - 1 - y : y);
        uchar *d = decoded.ptr<uchar>(y);
        for (int x = 0; x < width; ++x, d += 3) {
            if (bits <= 8) {
                const int perByte = 8 / bits;
                const int index = (row[x / perByte] >> (8 - bits * (x % perByte + 1))) & ((1 << bits) - 1);
                if (static_cast<size_t>(index) >= paletteEntries) throw DecodeError("damaged BMP data (palette)");
                std::memcpy(d, palette + 4 * index, 3);  // palette entries are blue, green, red, reserved
            } else if (bits == 24) {
                std::memcpy(d, row + 3 * x, 3);
            } else if (bits == 16 || bits == 32) {
                const uint32_t v = readLE(row + x * (bits / 8), bits / 8);
                d[0] = channel(v, masks[2]), d[1] = channel(v, masks[1]), d[2] = channel(v, masks[0]);
            } else {
                throw DecodeError("BMP images with " + std::to_string(bits) + " bits per pixel are not supported");
            }
        }
    }
    return decoded;
}

// MARK: Encoding

struct PNGWriteState {
    std::vector<uchar> *out;
    std::jmp_buf jump;
    char message[200];
    bool outOfMemory;
};

void pngWriteError(png_structp png, png_const_charp message) {
    auto *state = static_cast<PNGWriteState *>(png_get_error_ptr(png));
    std::snprintf(state->message, sizeof state->message, "%s", message);
    std::longjmp(state->jump, 1);
}

void pngWriteWarning(png_structp, png_const_charp) {}

void pngAppend(png_structp png, png_bytep data, png_size_t length) {
    auto *state = static_cast<PNGWriteState *>(png_get_io_ptr(png));
    if (state->outOfMemory) return;
    try {
        state->out->insert(state->out->end(), data, data + length);
    } catch (...) {  // never unwind through libpng's C frames; reported once the image is written
        state->outOfMemory = true;
    }
}

void pngFlush(png_structp) {}

/// Writes `mat` (gray or BGR) as PNG with libpng's own writer, so that the image is compressed once, at zlib `level`
/// (0-9), with the cheap "sub" and "up" row filters only. The simplified API compressed a page twice (once to learn
/// the size) and tried every filter on every row: three quarters of `docscan scan --no-ocr`'s time on a page went
/// there.
void encodePNG(const cv::Mat &mat, int level, std::vector<uchar> &out) {
    PNGWriteState state{&out, {}, {0}, false};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, pngWriteError, pngWriteWarning);
    if (!png) throw std::runtime_error("PNG encoding failed: out of memory");
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, nullptr);
        throw std::runtime_error("PNG encoding failed: out of memory");
    }
    out.clear();
    out.reserve(mat.total() * mat.channels() / 8 + 1024);  // a page of paper and print packs to about a tenth
    if (setjmp(state.jump)) {
        png_destroy_write_struct(&png, &info);
        throw std::runtime_error(std::string("PNG encoding failed: ") + state.message);
    }
    png_set_write_fn(png, &state, pngAppend, pngFlush);
    png_set_compression_level(png, std::clamp(level, 0, 9));
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB | PNG_FILTER_UP);
    png_set_IHDR(png, info, static_cast<png_uint_32>(mat.cols), static_cast<png_uint_32>(mat.rows), 8,
                 mat.channels() == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_write_info(png, info);
    if (mat.channels() == 3) png_set_bgr(png);
    for (int y = 0; y < mat.rows; ++y) png_write_row(png, const_cast<png_bytep>(mat.ptr<uchar>(y)));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    if (state.outOfMemory) throw std::runtime_error("PNG encoding failed: out of memory");
}

struct JPEGWriteFailure {
    jpeg_error_mgr base;
    std::jmp_buf jump;
};

void jpegWriteExit(j_common_ptr info) { std::longjmp(reinterpret_cast<JPEGWriteFailure *>(info->err)->jump, 1); }

bool encodeJPEGInto(const cv::Mat &mat, int quality, unsigned char **buffer, unsigned long *size) {
    jpeg_compress_struct info;
    JPEGWriteFailure failure;
    info.err = jpeg_std_error(&failure.base);
    failure.base.error_exit = jpegWriteExit;
    if (setjmp(failure.jump)) {
        jpeg_destroy_compress(&info);
        return false;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, buffer, size);
    info.image_width = static_cast<JDIMENSION>(mat.cols);
    info.image_height = static_cast<JDIMENSION>(mat.rows);
    info.input_components = mat.channels();
    info.in_color_space = mat.channels() == 3 ? JCS_EXT_BGR : JCS_GRAYSCALE;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = const_cast<uchar *>(mat.ptr<uchar>(static_cast<int>(info.next_scanline)));
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    return true;
}

void encodeJPEG(const cv::Mat &mat, int quality, std::vector<uchar> &out) {
    unsigned char *buffer = nullptr;
    unsigned long size = 0;
    const bool ok = encodeJPEGInto(mat, quality, &buffer, &size);
    if (ok) out.assign(buffer, buffer + size);
    std::free(buffer);
    if (!ok) throw std::runtime_error("JPEG encoding failed");
}

}  // namespace

cv::Mat compositeOnWhite(const cv::Mat &bgra) {
    cv::Mat bgr(bgra.rows, bgra.cols, CV_8UC3);
    for (int y = 0; y < bgra.rows; ++y) {
        const uchar *s = bgra.ptr<uchar>(y);
        uchar *d = bgr.ptr<uchar>(y);
        for (int x = 0; x < bgra.cols; ++x, s += 4, d += 3) {
            const int a = s[3];
            for (int c = 0; c < 3; ++c) d[c] = static_cast<uchar>((s[c] * a + 255 * (255 - a)) / 255);
        }
    }
    return bgr;
}

cv::Mat decode(const unsigned char *bytes, size_t length) {
    const auto startsWith = [&](const char *signature, size_t n, size_t at = 0) {
        return length >= at + n && std::memcmp(bytes + at, signature, n) == 0;
    };
    if (startsWith("\xFF\xD8\xFF", 3)) return decodeJPEG(bytes, length);
    if (startsWith("\x89PNG\r\n\x1A\n", 8)) return decodePNG(bytes, length);
    if (startsWith("II*\0", 4) || startsWith("MM\0*", 4)) return decodeTIFF(bytes, length);
    if (startsWith("RIFF", 4) && startsWith("WEBP", 4, 8)) return decodeWebP(bytes, length);
    if (startsWith("BM", 2)) return decodeBMP(bytes, length);
    throw DecodeError("not a JPEG, PNG, TIFF, WebP or BMP image");
}

void encode(const cv::Mat &mat, bool jpeg, int quality, std::vector<uchar> &out) {
    if (jpeg) {
        encodeJPEG(mat, quality, out);
    } else {
        encodePNG(mat, quality, out);
    }
}

}  // namespace docscan
