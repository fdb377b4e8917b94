// CDocScanShim: DocScan's plain C boundary over OpenCV.
//
// Swift imports only this header. Everything behind it is C++ (OpenCV), and no C++ exception ever crosses it: every
// function catches everything and turns it into a `ds_status` plus a thread-local message, read with
// `ds_last_error_message()` straight after the failing call on the same thread.
//
// Ownership: a function that hands out a `ds_image *` or `ds_buffer *` through an out-parameter transfers ownership to
// the caller, who frees it exactly once with `ds_image_free` / `ds_buffer_free`. Inputs are borrowed for the duration of
// the call. Images are immutable after creation, so one image may be read from several threads at once.

#ifndef CDOCSCANSHIM_H
#define CDOCSCANSHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#define DS_EXTERN extern "C"
#else
#define DS_EXTERN extern
#endif

#pragma clang assume_nonnull begin

/// Result of every fallible shim call.
typedef enum ds_status {
    DS_OK = 0,
    /// An argument was out of range (the message says which).
    DS_ERROR_INVALID_ARGUMENT = 1,
    /// The bytes are not an image OpenCV can decode, or the image is damaged.
    DS_ERROR_DECODE = 2,
    /// Encoding an image failed.
    DS_ERROR_ENCODE = 3,
    /// Memory could not be allocated.
    DS_ERROR_OUT_OF_MEMORY = 4,
    /// OpenCV or the C++ runtime failed in an unexpected way.
    DS_ERROR_INTERNAL = 5,
} ds_status;

/// The message describing the last failure on the calling thread. Valid until the next shim call on that thread.
DS_EXTERN const char *ds_last_error_message(void);

/// Caps the number of threads OpenCV uses in this process (1 = run everything on the calling thread, 0 = OpenCV's
/// default).
DS_EXTERN void ds_set_thread_count(int32_t count);

// MARK: - Images

/// An immutable 8-bit image with 1 (gray) or 3 (blue, green, red) interleaved channels.
typedef struct ds_image ds_image;

/// Decodes JPEG, PNG, TIFF, WebP or BMP bytes into an 8-bit gray or BGR image, ignoring any EXIF orientation (apply it
/// with `ds_image_orient`). 16-bit samples are scaled to 8 bits, alpha is composited onto white, CMYK is converted.
DS_EXTERN ds_status ds_image_decode(const void *bytes, size_t length, ds_image *_Nullable *_Nonnull out);

/// Copies `height` rows of `width * channels` bytes, `bytes_per_row` apart, into a new image (channels 1 or 3).
DS_EXTERN ds_status ds_image_create(int32_t width, int32_t height, int32_t channels, const void *pixels,
                                    size_t bytes_per_row, ds_image *_Nullable *_Nonnull out);

/// Frees an image; NULL is ignored.
DS_EXTERN void ds_image_free(ds_image *_Nullable image);

DS_EXTERN int32_t ds_image_width(const ds_image *image);
DS_EXTERN int32_t ds_image_height(const ds_image *image);
DS_EXTERN int32_t ds_image_channels(const ds_image *image);
/// The first pixel row, valid while `image` lives; rows are `ds_image_bytes_per_row` bytes apart.
DS_EXTERN const void *ds_image_pixels(const ds_image *image);
DS_EXTERN size_t ds_image_bytes_per_row(const ds_image *image);

/// Output encodings for `ds_image_encode`.
typedef enum ds_encoding {
    DS_ENCODING_PNG = 0,
    DS_ENCODING_JPEG = 1,
} ds_encoding;

/// An owned byte buffer.
typedef struct ds_buffer ds_buffer;
DS_EXTERN const void *ds_buffer_bytes(const ds_buffer *buffer);
DS_EXTERN size_t ds_buffer_length(const ds_buffer *buffer);
/// Frees a buffer; NULL is ignored.
DS_EXTERN void ds_buffer_free(ds_buffer *_Nullable buffer);

/// Encodes an image. `quality` is the JPEG quality (1...100) or the PNG compression level (0...9).
DS_EXTERN ds_status ds_image_encode(const ds_image *image, ds_encoding encoding, int32_t quality,
                                    ds_buffer *_Nullable *_Nonnull out);

/// Applies an EXIF orientation (1...8) to the pixels: the result is what a viewer honouring the tag shows.
DS_EXTERN ds_status ds_image_orient(const ds_image *image, int32_t exif_orientation, ds_image *_Nullable *_Nonnull out);

/// Resizes with area averaging when shrinking and bilinear interpolation when enlarging.
DS_EXTERN ds_status ds_image_resize(const ds_image *image, int32_t width, int32_t height,
                                    ds_image *_Nullable *_Nonnull out);

/// Converts to one gray channel (a gray image is copied).
DS_EXTERN ds_status ds_image_to_gray(const ds_image *image, ds_image *_Nullable *_Nonnull out);

/// How a warp samples the source between its pixels.
typedef enum ds_sampling {
    /// Bilinear interpolation: smooth, blurring a stroke by up to half a pixel.
    DS_SAMPLING_LINEAR = 0,
    /// Cubic interpolation: as sharp as the source, with a slight overshoot along strong edges.
    DS_SAMPLING_CUBIC = 1,
} ds_sampling;

/// Renders `width` x `height` pixels of the image through the projective map `homography` (row-major 3x3, from source
/// pixels to output pixels, pixel centres at integer coordinates), sampled as `sampling` says (after area averaging
/// where the output shrinks the source by half or more). Outside the source, the nearest edge pixel repeats.
DS_EXTERN ds_status ds_image_warp(const ds_image *image, const double homography[_Nonnull 9], int32_t width,
                                  int32_t height, ds_sampling sampling, ds_image *_Nullable *_Nonnull out);

// MARK: - Document detection

/// One document outline found in a photo.
typedef struct ds_detection {
    /// Corners x0,y0 … x3,y3 in source pixels: top-left, top-right, bottom-right, bottom-left as seen in the photo.
    double corners[8];
    /// 0...1: the share of the outline along which the colour changes across the edge, weighted by the shape's
    /// plausibility.
    double confidence;
} ds_detection;

/// Tuning for `ds_detect_documents`; `ds_detect_options_default()` gives the defaults.
typedef struct ds_detect_options {
    /// Longer side, in pixels, of the downscaled copy searched for outlines (default 560).
    int32_t working_size;
    /// Smallest document, as a fraction of the photo's area (default 0.005).
    double min_area_fraction;
    /// Weakest outline accepted as a document, 0...1 (default 0.5).
    double min_confidence;
    /// Non-zero: refine corners against the full-resolution edges (default 1).
    int32_t refine;
} ds_detect_options;

DS_EXTERN ds_detect_options ds_detect_options_default(void);

/// Finds up to `capacity` document outlines in a photo, best first. `*count` receives how many were found (0 when none
/// qualifies: the caller decides on a fallback).
DS_EXTERN ds_status ds_detect_documents(const ds_image *image, const ds_detect_options *options,
                                        ds_detection *results, int32_t capacity, int32_t *count);

/// Moves each corner of a rough outline (x0,y0 … x3,y3, convex, in source pixels) onto the document edges at full
/// resolution, searching up to `search_radius` pixels across each side. Sides without clear support keep their
/// position.
DS_EXTERN ds_status ds_refine_quad(const ds_image *image, double corners[_Nonnull 8], double search_radius);

// MARK: - Illumination

/// Output rendering of `ds_flatten_illumination`.
typedef enum ds_light_mode {
    DS_LIGHT_COLOR = 0,
    DS_LIGHT_GRAY = 1,
    /// Black and white, thresholded locally (Sauvola) after flattening.
    DS_LIGHT_BLACK_AND_WHITE = 2,
    /// One gray channel for a text recognizer: flattened like the others, but only the paper itself turns white, so
    /// faint and blurred strokes keep every shade for the recognizer's own binarisation.
    DS_LIGHT_READING = 3,
} ds_light_mode;

/// Divides out the paper's illumination (gradients, soft and hard shadows) so that paper becomes uniformly white and
/// ink keeps its contrast.
DS_EXTERN ds_status ds_flatten_illumination(const ds_image *image, ds_light_mode mode,
                                            ds_image *_Nullable *_Nonnull out);

// MARK: - Motion blur

/// The straight camera shake that best explains a photo's spectrum, and how clearly the spectrum shows it.
typedef struct ds_motion_blur {
    /// Length of the smear, in pixels (2...16).
    double length;
    /// Direction of the smear, degrees from the x axis towards the y axis (0...180).
    double angle_degrees;
    /// How dark the spectrum's notches at 1/length, 2/length... are against their surroundings (natural log of power;
    /// a shake gives about 0.2 or more).
    double notch_depth;
    /// How much more fine detail the photo holds across the smear than along it (natural log of power; a shake gives
    /// about 0.6 or more, print alone about as much either way).
    double anisotropy;
} ds_motion_blur;

/// Measures the straight camera shake that best explains the pixels inside `region` (x, y, width, height), in linear
/// light, two ways from one spectrum: `by_comb` takes the direction whose comb of notches is darkest; `by_detail`
/// (skipped when null) counts a fifth of the fine detail missing along each direction too. Every photo gets an
/// answer; `notch_depth` and `anisotropy` say whether it is real. A region with too little structure gives all zeros.
DS_EXTERN ds_status ds_estimate_motion_blur(const ds_image *image, const int32_t region[_Nonnull 4],
                                            ds_motion_blur *by_comb, ds_motion_blur *_Nullable by_detail);

/// Divides a straight smear of `length` pixels along `angle_degrees` out of the pixels inside `region` (Wiener
/// deconvolution in linear light); the rest of the image is copied unchanged.
DS_EXTERN ds_status ds_remove_motion_blur(const ds_image *image, double length, double angle_degrees,
                                          const int32_t region[_Nonnull 4], ds_image *_Nullable *_Nonnull out);

/// Divides the blur of a lens focused a little off (a uniform disk of `radius` pixels, 0.5...16) out of the whole image
/// (Wiener deconvolution in linear light).
DS_EXTERN ds_status ds_remove_defocus(const ds_image *image, double radius, ds_image *_Nullable *_Nonnull out);

// MARK: - Text layout analysis

/// Direction and residual rotation of the text lines on a flat page.
typedef struct ds_text_layout {
    /// Clockwise quarter turns (0...3) that make the text upright.
    int32_t quarter_turns;
    /// Rotation of the text lines after those quarter turns, in degrees, counter-clockwise positive (−12...12):
    /// rotating the upright page clockwise by this much levels the lines.
    double skew_degrees;
    /// 0...1: how clearly the text lines run in the chosen direction (0 when the page holds too little text).
    double line_confidence;
    /// 0...1: how clearly the text reads this way up rather than turned half round (the strength of the cues,
    /// capped at 1).
    double upright_confidence;
} ds_text_layout;

/// The longer side, in pixels, a flat page of `width` × `height` is analysed at: 1000, more for a page longer and
/// narrower than A4 (up to 2500 for a till receipt), so that its print is no smaller than an A4 page's.
DS_EXTERN int32_t ds_analysis_size(int32_t width, int32_t height);

/// Finds the text direction and skew of a flat page (larger pages are downscaled to ds_analysis_size).
DS_EXTERN ds_status ds_analyze_text_layout(const ds_image *page, ds_text_layout *out);

/// A book gutter found on a flat, upright spread.
typedef struct ds_gutter {
    /// Non-zero when the image is a two-page spread.
    int32_t found;
    /// Horizontal position of the gutter at the top and bottom rows, in pixels.
    double top_x;
    double bottom_x;
    /// 0...1.
    double confidence;
} ds_gutter;

/// Looks for the gutter of an open book: a vertical fold near the middle, darker than the pages beside it, crossed by
/// no text, with text on both sides.
DS_EXTERN ds_status ds_find_gutter(const ds_image *page, ds_gutter *out);

/// Looks for a border along the sides of a flat document, such as a book's cover and page block around its pages: a
/// band darker than the paper inside. `insets` receives the band widths (left, top, right, bottom) in pixels, and
/// `*bordered_sides` a bit for each side (1 left, 2 top, 4 right, 8 bottom) with a band a few pixels wide or more, and
/// that bit shifted left by 4 when the band is far darker than the paper (a cover or a page block, not shade); it is
/// zero when the paper's edge cannot be told on some side.
DS_EXTERN ds_status ds_find_inner_page(const ds_image *document, double insets[_Nonnull 4], int32_t *bordered_sides);

#pragma clang assume_nonnull end

#endif // CDOCSCANSHIM_H
