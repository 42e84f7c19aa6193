#ifndef CZLIB_H
#define CZLIB_H

#include <zlib.h>

// zlib's init functions are macros Swift cannot call; these are the same calls as functions.

/// inflateInit2 with `window_bits` (15 zlib, -15 raw deflate, 31 gzip).
int czlib_inflate_init(z_stream *stream, int window_bits);

/// deflateInit2 with `level`, `window_bits` (15 zlib, 31 gzip), memory level 8, the default strategy.
int czlib_deflate_init(z_stream *stream, int level, int window_bits);

#endif
