#include "CImageCodecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void httpser_image_free(void *pointer) { free(pointer); }

static void set_error(char *error, size_t error_size, const char *message) {
    if (error && error_size > 0) {
        snprintf(error, error_size, "%s", message);
    }
}

#if defined(__linux__) && __has_include(<png.h>) && __has_include(<jpeglib.h>)

#include <png.h>
#include <jpeglib.h>
#include <jerror.h>

/* ---------- PNG ---------- */

struct png_source {
    const uint8_t *data;
    size_t size;
    size_t offset;
};

struct png_failure {
    jmp_buf jump;
    char message[256];
};

static void png_read_from_memory(png_structp png, png_bytep out, png_size_t count) {
    struct png_source *source = (struct png_source *)png_get_io_ptr(png);
    if (source->size - source->offset < count) {
        png_error(png, "the PNG data ends early");
    }
    memcpy(out, source->data + source->offset, count);
    source->offset += count;
}

static void png_on_error(png_structp png, png_const_charp message) {
    struct png_failure *failure = (struct png_failure *)png_get_error_ptr(png);
    snprintf(failure->message, sizeof failure->message, "%s", message);
    longjmp(failure->jump, 1);
}

static void png_on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

int httpser_png_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                       uint8_t **pixels, uint32_t *width, uint32_t *height, char *error, size_t error_size) {
    *pixels = NULL;
    struct png_failure failure;
    failure.message[0] = 0;
    struct png_source source = {data, size, 0};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &failure, png_on_error, png_on_warning);
    if (!png) {
        set_error(error, error_size, "libpng could not start");
        return HTTPSER_IMAGE_NO_MEMORY;
    }
    png_infop info = png_create_info_struct(png);
    /* volatile: these change between setjmp and a possible longjmp. */
    uint8_t *volatile buffer = NULL;
    png_bytep *volatile rows = NULL;
    volatile int status = HTTPSER_IMAGE_INVALID;
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        set_error(error, error_size, "libpng could not start");
        return HTTPSER_IMAGE_NO_MEMORY;
    }
    if (setjmp(failure.jump)) {
        free(buffer);
        free(rows);
        png_destroy_read_struct(&png, &info, NULL);
        set_error(error, error_size, failure.message[0] ? failure.message : "invalid PNG data");
        return status;
    }
    png_set_read_fn(png, &source, png_read_from_memory);
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info);
    png_uint_32 h = png_get_image_height(png, info);
    if ((uint64_t)w * (uint64_t)h > max_pixels) {
        status = HTTPSER_IMAGE_TOO_LARGE;
        png_error(png, "the image has more pixels than allowed");
    }
    /* Normalise every colour type and depth to 8-bit RGBA. */
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t stride = (size_t)w * 4;
    if (png_get_rowbytes(png, info) != stride) {
        png_error(png, "unexpected PNG row layout");
    }
    status = HTTPSER_IMAGE_NO_MEMORY;
    buffer = (uint8_t *)malloc(stride * (size_t)h);
    rows = (png_bytep *)malloc(sizeof(png_bytep) * (size_t)h);
    if (!buffer || !rows) {
        png_error(png, "out of memory for the pixels");
    }
    status = HTTPSER_IMAGE_INVALID;
    for (png_uint_32 y = 0; y < h; y++) {
        rows[y] = buffer + (size_t)y * stride;
    }
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    *pixels = buffer;
    *width = w;
    *height = h;
    return HTTPSER_IMAGE_OK;
}

/* ---------- JPEG ---------- */

struct jpeg_failure {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    /* Warnings about corrupt or truncated data end the decode (libjpeg would fill gray). */
    int strict;
};

static void jpeg_on_error(j_common_ptr info) {
    struct jpeg_failure *failure = (struct jpeg_failure *)info->err;
    (*info->err->format_message)(info, failure->message);
    longjmp(failure->jump, 1);
}

static void jpeg_on_message(j_common_ptr info) { (void)info; }

/* libjpeg reports damaged data as warnings (level -1) and goes on, filling what it could not
   read with gray. In strict mode every warning about the image data is an error; the ones
   about metadata alone (JFIF revision, Adobe transform code, ICC marker, stray bytes before
   a marker) are not. */
static void jpeg_on_emit(j_common_ptr info, int level) {
    struct jpeg_failure *failure = (struct jpeg_failure *)info->err;
    if (level >= 0) return;
    info->err->num_warnings++;
    int code = info->err->msg_code;
    if (!failure->strict || code == JWRN_JFIF_MAJOR || code == JWRN_ADOBE_XFORM || code == JWRN_BOGUS_ICC ||
        code == JWRN_EXTRANEOUS_DATA) {
        return;
    }
    (*info->err->format_message)(info, failure->message);
    longjmp(failure->jump, 1);
}

int httpser_jpeg_decode(const uint8_t *data, size_t size, uint64_t max_pixels, int strict,
                        uint8_t **pixels, uint32_t *width, uint32_t *height, char *error, size_t error_size) {
    *pixels = NULL;
    struct jpeg_decompress_struct info;
    struct jpeg_failure failure;
    failure.message[0] = 0;
    failure.strict = strict;
    info.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = jpeg_on_error;
    failure.manager.output_message = jpeg_on_message;
    failure.manager.emit_message = jpeg_on_emit;
    uint8_t *volatile buffer = NULL;
    uint8_t *volatile row = NULL;
    volatile int status = HTTPSER_IMAGE_INVALID;
    if (setjmp(failure.jump)) {
        free(buffer);
        free(row);
        jpeg_destroy_decompress(&info);
        set_error(error, error_size, failure.message[0] ? failure.message : "invalid JPEG data");
        return status;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    if ((uint64_t)info.image_width * (uint64_t)info.image_height > max_pixels) {
        status = HTTPSER_IMAGE_TOO_LARGE;
        snprintf(failure.message, sizeof failure.message, "the image has more pixels than allowed");
        longjmp(failure.jump, 1);
    }
    /* CMYK and YCCK (libjpeg turns YCCK into CMYK) are converted to RGB below; Adobe's
       encoders store the channels inverted, and say so with their marker. */
    int cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
    int inverted = cmyk && info.saw_Adobe_marker;
    info.out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    jpeg_start_decompress(&info);
    uint32_t w = info.output_width;
    uint32_t h = info.output_height;
    int components = info.output_components;
    if (components != (cmyk ? 4 : 3) || (uint64_t)w * (uint64_t)h > max_pixels) {
        snprintf(failure.message, sizeof failure.message, "unexpected JPEG output layout");
        longjmp(failure.jump, 1);
    }
    status = HTTPSER_IMAGE_NO_MEMORY;
    buffer = (uint8_t *)malloc((size_t)w * (size_t)h * 4);
    row = (uint8_t *)malloc((size_t)w * (size_t)components);
    if (!buffer || !row) {
        snprintf(failure.message, sizeof failure.message, "out of memory for the pixels");
        longjmp(failure.jump, 1);
    }
    status = HTTPSER_IMAGE_INVALID;
    while (info.output_scanline < h) {
        uint32_t y = info.output_scanline;
        JSAMPROW rows[1] = {row};
        if (jpeg_read_scanlines(&info, rows, 1) != 1) {
            snprintf(failure.message, sizeof failure.message, "the JPEG data ends early");
            longjmp(failure.jump, 1);
        }
        uint8_t *target = buffer + (size_t)y * w * 4;
        if (cmyk) {
            for (uint32_t x = 0; x < w; x++) {
                unsigned c = row[4 * x], m = row[4 * x + 1], yl = row[4 * x + 2], k = row[4 * x + 3];
                if (!inverted) {
                    c = 255 - c; m = 255 - m; yl = 255 - yl; k = 255 - k;
                }
                /* Inverted values: R = (1 - C)(1 - K) = c' k' scaled to 0...255. */
                target[4 * x] = (uint8_t)((c * k + 127) / 255);
                target[4 * x + 1] = (uint8_t)((m * k + 127) / 255);
                target[4 * x + 2] = (uint8_t)((yl * k + 127) / 255);
                target[4 * x + 3] = 0xFF;
            }
        } else {
            for (uint32_t x = 0; x < w; x++) {
                target[4 * x] = row[3 * x];
                target[4 * x + 1] = row[3 * x + 1];
                target[4 * x + 2] = row[3 * x + 2];
                target[4 * x + 3] = 0xFF;
            }
        }
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    free(row);
    *pixels = buffer;
    *width = w;
    *height = h;
    return HTTPSER_IMAGE_OK;
}

int httpser_jpeg_encode_rgb(const uint8_t *rgb, uint32_t width, uint32_t height, int quality,
                            uint8_t **output, size_t *output_size, char *error, size_t error_size) {
    return httpser_jpeg_encode(rgb, width, height, 0, quality, output, output_size, error, error_size);
}

int httpser_jpeg_encode(const uint8_t *samples, uint32_t width, uint32_t height, int color_space, int quality,
                        uint8_t **output, size_t *output_size, char *error, size_t error_size) {
    struct jpeg_compress_struct info;
    struct jpeg_failure failure;
    failure.message[0] = 0;
    info.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = jpeg_on_error;
    failure.manager.output_message = jpeg_on_message;
    unsigned char *volatile buffer = NULL;
    unsigned long length = 0;
    if (setjmp(failure.jump)) {
        jpeg_destroy_compress(&info);
        free(buffer);
        set_error(error, error_size, failure.message);
        return HTTPSER_IMAGE_INVALID;
    }
    jpeg_create_compress(&info);
    unsigned char *target = NULL;
    jpeg_mem_dest(&info, &target, &length);
    int components = color_space == 0 ? 3 : 4;
    info.image_width = width;
    info.image_height = height;
    info.input_components = components;
    info.in_color_space = color_space == 0 ? JCS_RGB : JCS_CMYK;
    jpeg_set_defaults(&info);
    if (color_space == 2) jpeg_set_colorspace(&info, JCS_YCCK);
    jpeg_set_quality(&info, quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < height) {
        JSAMPROW rows[1] = {(JSAMPROW)(samples + (size_t)info.next_scanline * width * (size_t)components)};
        jpeg_write_scanlines(&info, rows, 1);
    }
    jpeg_finish_compress(&info);
    buffer = target;
    jpeg_destroy_compress(&info);
    *output = buffer;
    *output_size = (size_t)length;
    return HTTPSER_IMAGE_OK;
}

#else

int httpser_png_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                       uint8_t **pixels, uint32_t *width, uint32_t *height, char *error, size_t error_size) {
    (void)data; (void)size; (void)max_pixels; (void)width; (void)height;
    *pixels = NULL;
    set_error(error, error_size, "PNG decoding is not built on this platform");
    return HTTPSER_IMAGE_UNSUPPORTED;
}

int httpser_jpeg_decode(const uint8_t *data, size_t size, uint64_t max_pixels, int strict,
                        uint8_t **pixels, uint32_t *width, uint32_t *height, char *error, size_t error_size) {
    (void)data; (void)size; (void)max_pixels; (void)strict; (void)width; (void)height;
    *pixels = NULL;
    set_error(error, error_size, "JPEG decoding is not built on this platform");
    return HTTPSER_IMAGE_UNSUPPORTED;
}

int httpser_jpeg_encode_rgb(const uint8_t *rgb, uint32_t width, uint32_t height, int quality,
                            uint8_t **output, size_t *output_size, char *error, size_t error_size) {
    return httpser_jpeg_encode(rgb, width, height, 0, quality, output, output_size, error, error_size);
}

int httpser_jpeg_encode(const uint8_t *samples, uint32_t width, uint32_t height, int color_space, int quality,
                        uint8_t **output, size_t *output_size, char *error, size_t error_size) {
    (void)samples; (void)width; (void)height; (void)color_space; (void)quality;
    *output = NULL;
    *output_size = 0;
    set_error(error, error_size, "JPEG encoding is not built on this platform");
    return HTTPSER_IMAGE_UNSUPPORTED;
}

#endif
