#ifndef STOCKROOM_CIMAGESHIM_H
#define STOCKROOM_CIMAGESHIM_H

#include <stddef.h>

/// A decoded 8-bit grayscale image owned by the shim; release it with `stockroom_image_free`.
typedef struct stockroom_gray_image {
    int width;
    int height;
    unsigned char *pixels;
    /// Error text when a load function returns non-zero.
    char message[256];
} stockroom_gray_image;

/// Decodes a PNG from memory into grayscale (alpha composited onto white, ITU-R 601 luma).
/// The size in the header is checked against `max_side` (each side) and `max_pixels` (width × height) before any
/// pixel memory is allocated.
/// Returns 0 on success, 2 when the picture is too large, 1 for any other failure; on failure `out->message`
/// explains and `out->pixels` is NULL.
int stockroom_load_png(const unsigned char *data, size_t length, int max_side, size_t max_pixels, stockroom_gray_image *out);

/// Decodes a JPEG from memory into grayscale. Corrupt or truncated data fails instead of exiting. The size is
/// checked as for PNG right after the header is read, before decompression starts; a progressive file with more
/// than 1000 scans is refused.
/// Returns 0 on success, 2 when the picture is too large, 1 for any other failure.
int stockroom_load_jpeg(const unsigned char *data, size_t length, int max_side, size_t max_pixels, stockroom_gray_image *out);

/// Frees the pixels of an image filled by a load function (safe on a failed or zeroed image).
void stockroom_image_free(stockroom_gray_image *image);

#endif
