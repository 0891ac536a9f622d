// Thin C layer over libpng and libjpeg(-turbo): both report errors by longjmp or exit(), which Swift
// cannot handle, so all decoding that can fail happens here.
#include "CImageShim.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

static void set_message(stockroom_gray_image *out, const char *text) {
    snprintf(out->message, sizeof out->message, "%s", text);
}

// 0 when the size is within the limits; otherwise 2 with a message naming the limit.
static int check_size(stockroom_gray_image *out, size_t width, size_t height, int max_side, size_t max_pixels) {
    if (width == 0 || height == 0) {
        set_message(out, "the picture declares an empty size");
        return 1;
    }
    if (width > (size_t)max_side || height > (size_t)max_side) {
        snprintf(out->message, sizeof out->message, "the picture is %zu x %zu pixels; each side may be at most %d", width, height, max_side);
        return 2;
    }
    if (width * height > max_pixels) {
        snprintf(out->message, sizeof out->message, "the picture is %zu x %zu pixels; at most %zu megapixels are accepted", width, height,
                 max_pixels / 1000000);
        return 2;
    }
    return 0;
}

int stockroom_load_png(const unsigned char *data, size_t length, int max_side, size_t max_pixels, stockroom_gray_image *out) {
    memset(out, 0, sizeof *out);
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, length)) {
        set_message(out, image.message[0] ? image.message : "not a PNG file");
        png_image_free(&image);
        return 1;
    }
    // libpng has parsed IHDR; nothing is allocated for the pixels yet.
    int size_status = check_size(out, image.width, image.height, max_side, max_pixels);
    if (size_status != 0) {
        png_image_free(&image);
        return size_status;
    }
    image.format = PNG_FORMAT_RGBA;
    size_t count = (size_t)image.width * image.height;
    unsigned char *rgba = malloc(count * 4);
    if (!rgba) {
        set_message(out, "out of memory");
        png_image_free(&image);
        return 1;
    }
    if (!png_image_finish_read(&image, NULL, rgba, 0, NULL)) {
        set_message(out, image.message[0] ? image.message : "corrupt PNG data");
        free(rgba);
        png_image_free(&image);
        return 1;
    }
    unsigned char *gray = malloc(count);
    if (!gray) {
        set_message(out, "out of memory");
        free(rgba);
        png_image_free(&image);
        return 1;
    }
    for (size_t i = 0; i < count; i++) {
        const unsigned char *p = rgba + 4 * i;
        unsigned a = p[3];
        unsigned r = (p[0] * a + 255 * (255 - a) + 127) / 255;
        unsigned g = (p[1] * a + 255 * (255 - a) + 127) / 255;
        unsigned b = (p[2] * a + 255 * (255 - a) + 127) / 255;
        gray[i] = (unsigned char)((r * 299 + g * 587 + b * 114 + 500) / 1000);
    }
    free(rgba);
    out->width = (int)image.width;
    out->height = (int)image.height;
    out->pixels = gray;
    png_image_free(&image);
    return 0;
}

struct shim_jpeg_error {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    stockroom_gray_image *out;
};

// A progressive JPEG may hold thousands of tiny scans, each costing a pass over the whole picture
// (libjpeg-turbo's advice: refuse more than a few hundred).
static const int max_scans = 1000;

static void shim_jpeg_progress(j_common_ptr cinfo) {
    if (cinfo->is_decompressor && ((j_decompress_ptr)cinfo)->input_scan_number > max_scans) {
        struct shim_jpeg_error *err = (struct shim_jpeg_error *)cinfo->err;
        set_message(err->out, "the JPEG file has too many progressive scans");
        longjmp(err->jump, 1);
    }
}

static void shim_jpeg_error_exit(j_common_ptr cinfo) {
    struct shim_jpeg_error *err = (struct shim_jpeg_error *)cinfo->err;
    char buffer[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, buffer);
    set_message(err->out, buffer);
    longjmp(err->jump, 1);
}

static void shim_jpeg_emit_message(j_common_ptr cinfo, int level) {
    // Warnings (level -1) such as "premature end of data" are counted by libjpeg; we check them after decoding.
    if (level < 0) cinfo->err->num_warnings++;
}

int stockroom_load_jpeg(const unsigned char *data, size_t length, int max_side, size_t max_pixels, stockroom_gray_image *out) {
    memset(out, 0, sizeof *out);
    struct jpeg_decompress_struct cinfo;
    struct shim_jpeg_error jerr;
    struct jpeg_progress_mgr progress;
    // Volatile: modified between setjmp and longjmp.
    unsigned char *volatile gray = NULL;
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = jpeg_std_error(&jerr.base);
    jerr.base.error_exit = shim_jpeg_error_exit;
    jerr.base.emit_message = shim_jpeg_emit_message;
    jerr.out = out;
    if (setjmp(jerr.jump)) {
        jpeg_destroy_decompress(&cinfo);
        free(gray);
        out->pixels = NULL;
        if (!out->message[0]) set_message(out, "corrupt JPEG data");
        return 1;
    }
    jpeg_create_decompress(&cinfo);
    if (length == 0) {
        set_message(out, "empty JPEG data");
        jpeg_destroy_decompress(&cinfo);
        return 1;
    }
    memset(&progress, 0, sizeof progress);
    progress.progress_monitor = shim_jpeg_progress;
    cinfo.progress = &progress;
    jpeg_mem_src(&cinfo, data, (unsigned long)length);
    jpeg_read_header(&cinfo, TRUE);
    // The frame header is parsed; jpeg_start_decompress would allocate for the whole picture.
    int size_status = check_size(out, cinfo.image_width, cinfo.image_height, max_side, max_pixels);
    if (size_status != 0) {
        jpeg_destroy_decompress(&cinfo);
        return size_status;
    }
    if (cinfo.num_components == 4) {
        set_message(out, "CMYK JPEG images are not supported");
        jpeg_destroy_decompress(&cinfo);
        return 1;
    }
    cinfo.out_color_space = JCS_GRAYSCALE;
    jpeg_start_decompress(&cinfo);
    size_t w = cinfo.output_width, h = cinfo.output_height;
    if (w == 0 || h == 0 || w * h > max_pixels || w > (size_t)max_side || h > (size_t)max_side || cinfo.output_components != 1) {
        set_message(out, "JPEG dimensions out of range");
        jpeg_destroy_decompress(&cinfo);
        return 1;
    }
    gray = malloc(w * h);
    if (!gray) {
        set_message(out, "out of memory");
        jpeg_destroy_decompress(&cinfo);
        return 1;
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = gray + (size_t)cinfo.output_scanline * w;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    long warnings = jerr.base.num_warnings;
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    if (warnings > 0) {
        set_message(out, "truncated or corrupt JPEG data");
        free(gray);
        return 1;
    }
    out->width = (int)w;
    out->height = (int)h;
    out->pixels = gray;
    return 0;
}

void stockroom_image_free(stockroom_gray_image *image) {
    if (!image) return;
    free(image->pixels);
    image->pixels = NULL;
}
