#ifndef CIMAGECODECS_H
#define CIMAGECODECS_H

#include <stddef.h>
#include <stdint.h>

/// Results of the decoders: 0 on success, otherwise one of these with a message in `error`.
enum {
    HTTPSER_IMAGE_OK = 0,
    HTTPSER_IMAGE_INVALID = 1,
    HTTPSER_IMAGE_TOO_LARGE = 2,
    HTTPSER_IMAGE_UNSUPPORTED = 3,
    HTTPSER_IMAGE_NO_MEMORY = 4
};

/// Decodes PNG or JPEG bytes into RGBA8 pixels (row-major, 4 bytes a pixel).
/// Library errors that would longjmp are caught here and returned as codes; images with more
/// than `max_pixels` pixels are refused before any pixel memory is allocated.
/// On success `*pixels` must be released with `httpser_image_free`.
int httpser_png_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                       uint8_t **pixels, uint32_t *width, uint32_t *height, char *error, size_t error_size);
/// `strict`: libjpeg's warnings about corrupt or truncated image data are errors (otherwise
/// it fills what it could not read with gray). CMYK and YCCK images are converted to RGBA.
int httpser_jpeg_decode(const uint8_t *data, size_t size, uint64_t max_pixels, int strict,
                        uint8_t **pixels, uint32_t *width, uint32_t *height, char *error, size_t error_size);

/// Encodes RGB8 pixels as a baseline JPEG (tests generate images with it).
int httpser_jpeg_encode_rgb(const uint8_t *rgb, uint32_t width, uint32_t height, int quality,
                            uint8_t **output, size_t *output_size, char *error, size_t error_size);
/// Encodes samples as a JPEG in a colour space: 0 RGB (3 samples a pixel), 1 CMYK or 2 YCCK
/// (4 samples a pixel, CMYK as libjpeg writes it, with an Adobe marker).
int httpser_jpeg_encode(const uint8_t *samples, uint32_t width, uint32_t height, int color_space, int quality,
                        uint8_t **output, size_t *output_size, char *error, size_t error_size);

void httpser_image_free(void *pointer);

#endif
