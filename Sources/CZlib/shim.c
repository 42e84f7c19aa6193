#include "CZlib.h"

int czlib_inflate_init(z_stream *stream, int window_bits) {
    return inflateInit2(stream, window_bits);
}

int czlib_deflate_init(z_stream *stream, int level, int window_bits) {
    return deflateInit2(stream, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY);
}
