#ifndef CSHA256_H
#define CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// FIPS 180-4 SHA-256 state. In C so digests stay fast in unoptimised debug builds, where
/// the echo server and the demo hash tens of megabytes.
typedef struct {
    uint32_t state[8];
    uint64_t length;
    uint8_t pending[64];
    size_t pending_count;
} httpser_sha256;

void httpser_sha256_init(httpser_sha256 *context);
void httpser_sha256_update(httpser_sha256 *context, const void *bytes, size_t count);
void httpser_sha256_final(httpser_sha256 *context, uint8_t digest[32]);

#endif
