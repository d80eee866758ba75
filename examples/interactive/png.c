/*
 * png.c: PNG writer. The image data is compressed with deflate's fixed
 * Huffman codes and a greedy LZ77 (one candidate per 3-byte hash), which is
 * plenty for flat-coloured diagrams: long runs become matches at distance 3
 * (the pixel to the left) or one row up.
 */
#include "png.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bit_writer {
    uint8_t *data;
    size_t size, capacity;
    uint32_t bits; /* pending bits, LSB first */
    int count;
    int failed;
} bit_writer;

static void put_byte(bit_writer *b, uint8_t v) {
    if (b->size == b->capacity) {
        const size_t cap = b->capacity ? 2 * b->capacity : 65536;
        uint8_t *p = realloc(b->data, cap);
        if (!p) {
            b->failed = 1;
            return;
        }
        b->data = p;
        b->capacity = cap;
    }
    b->data[b->size++] = v;
}

/* Deflate packs values LSB first... */
static void put_bits(bit_writer *b, uint32_t value, int n) {
    b->bits |= value << b->count;
    b->count += n;
    while (b->count >= 8) {
        put_byte(b, (uint8_t)(b->bits & 0xFFu));
        b->bits >>= 8;
        b->count -= 8;
    }
}

/* ...but Huffman codes MSB first. */
static void put_code(bit_writer *b, uint32_t code, int n) {
    uint32_t r = 0;
    for (int i = 0; i < n; ++i) {
        r |= ((code >> i) & 1u) << (n - 1 - i);
    }
    put_bits(b, r, n);
}

/* Fixed literal / length code of symbol s (RFC 1951, 3.2.6). */
static void put_symbol(bit_writer *b, int s) {
    if (s < 144) {
        put_code(b, 0x30u + (uint32_t)s, 8);
    } else if (s < 256) {
        put_code(b, 0x190u + (uint32_t)(s - 144), 9);
    } else if (s < 280) {
        put_code(b, (uint32_t)(s - 256), 7);
    } else {
        put_code(b, 0xC0u + (uint32_t)(s - 280), 8);
    }
}

static const uint16_t len_base[29] = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
                                      15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
                                      67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t dist_base[30] = {
    1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                       6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

static void put_match(bit_writer *b, int length, int distance) {
    int i = 28;
    while (len_base[i] > length) {
        --i;
    }
    put_symbol(b, 257 + i);
    put_bits(b, (uint32_t)(length - len_base[i]), len_extra[i]);
    int d = 29;
    while (dist_base[d] > distance) {
        --d;
    }
    put_code(b, (uint32_t)d, 5);
    put_bits(b, (uint32_t)(distance - dist_base[d]), dist_extra[d]);
}

enum { HASH_BITS = 15, WINDOW = 32768, MAX_MATCH = 258 };

static uint32_t hash3(const uint8_t *p) {
    return ((uint32_t)p[0] * 506832829u ^ (uint32_t)p[1] * 2654435761u ^ (uint32_t)p[2] * 40503u) >>
           (32 - HASH_BITS);
}

/* One fixed-Huffman block holding all of `in`, inside a zlib stream. */
static int deflate_fixed(const uint8_t *in, size_t n, bit_writer *b) {
    int32_t *head = malloc(sizeof(int32_t) << HASH_BITS);
    if (!head) {
        return -1;
    }
    for (size_t i = 0; i < ((size_t)1 << HASH_BITS); ++i) {
        head[i] = -1;
    }
    put_byte(b, 0x78); /* deflate, 32 KiB window */
    put_byte(b, 0x01); /* no dictionary, check bits */
    put_bits(b, 1, 1); /* final block */
    put_bits(b, 1, 2); /* fixed Huffman */
    size_t i = 0;
    while (i < n) {
        int best = 0;
        if (i + 3 <= n) {
            const uint32_t h = hash3(in + i);
            const int32_t cand = head[h];
            head[h] = (int32_t)i;
            if (cand >= 0 && i - (size_t)cand <= WINDOW) {
                const size_t limit = (n - i < MAX_MATCH) ? n - i : MAX_MATCH;
                size_t len = 0;
                while (len < limit && in[(size_t)cand + len] == in[i + len]) {
                    ++len;
                }
                if (len >= 3) {
                    best = (int)len;
                    put_match(b, best, (int)(i - (size_t)cand));
                }
            }
        }
        if (best == 0) {
            put_symbol(b, in[i]);
            ++i;
            continue;
        }
        /* Index the positions inside the match too, so runs chain on. */
        for (size_t k = 1; k < (size_t)best && i + k + 3 <= n; ++k) {
            head[hash3(in + i + k)] = (int32_t)(i + k);
        }
        i += (size_t)best;
    }
    put_symbol(b, 256);
    if (b->count > 0) {
        put_bits(b, 0, 8 - b->count);
    }
    uint32_t s1 = 1, s2 = 0; /* Adler-32 of the uncompressed data */
    for (size_t k = 0; k < n; ++k) {
        s1 = (s1 + in[k]) % 65521u;
        s2 = (s2 + s1) % 65521u;
    }
    const uint32_t adler = (s2 << 16) | s1;
    for (int k = 3; k >= 0; --k) {
        put_byte(b, (uint8_t)(adler >> (8 * k)));
    }
    free(head);
    return b->failed ? -1 : 0;
}

static uint32_t crc_table[256];

static uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t n) {
    if (crc_table[1] == 0) {
        for (uint32_t i = 0; i < 256; ++i) {
            uint32_t c = i;
            for (int k = 0; k < 8; ++k) {
                c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            }
            crc_table[i] = c;
        }
    }
    for (size_t i = 0; i < n; ++i) {
        crc = crc_table[(crc ^ p[i]) & 0xFFu] ^ (crc >> 8);
    }
    return crc;
}

static void put_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static int write_chunk(FILE *f, const char *type, const uint8_t *data, size_t n) {
    uint8_t head[8];
    put_be32(head, (uint32_t)n);
    memcpy(head + 4, type, 4);
    uint32_t crc = crc32_update(0xFFFFFFFFu, (const uint8_t *)type, 4);
    crc = crc32_update(crc, data, n) ^ 0xFFFFFFFFu;
    uint8_t tail[4];
    put_be32(tail, crc);
    return fwrite(head, 1, 8, f) == 8 && (n == 0 || fwrite(data, 1, n, f) == n) &&
                   fwrite(tail, 1, 4, f) == 4
               ? 0
               : -1;
}

int png_write(const char *path, const uint32_t *pixels, int width, int height) {
    if (!path || !pixels || width <= 0 || height <= 0) {
        return -1;
    }
    const size_t stride = 1 + 3 * (size_t)width; /* filter byte, then RGB */
    uint8_t *raw = malloc(stride * (size_t)height);
    if (!raw) {
        return -1;
    }
    for (int y = 0; y < height; ++y) {
        uint8_t *row = raw + stride * (size_t)y;
        row[0] = 0; /* filter: none */
        for (int x = 0; x < width; ++x) {
            const uint32_t p = pixels[(size_t)y * (size_t)width + (size_t)x];
            row[1 + 3 * x] = (uint8_t)(p >> 16);
            row[2 + 3 * x] = (uint8_t)(p >> 8);
            row[3 + 3 * x] = (uint8_t)p;
        }
    }
    bit_writer b = {0};
    int rc = deflate_fixed(raw, stride * (size_t)height, &b);
    free(raw);
    FILE *f = rc == 0 ? fopen(path, "wb") : NULL;
    if (f) {
        static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
        uint8_t ihdr[13];
        put_be32(ihdr, (uint32_t)width);
        put_be32(ihdr + 4, (uint32_t)height);
        ihdr[8] = 8;  /* bits per channel */
        ihdr[9] = 2;  /* RGB */
        ihdr[10] = 0; /* deflate */
        ihdr[11] = 0; /* adaptive filters */
        ihdr[12] = 0; /* no interlace */
        rc = (fwrite(signature, 1, 8, f) == 8 && write_chunk(f, "IHDR", ihdr, 13) == 0 &&
              write_chunk(f, "IDAT", b.data, b.size) == 0 && write_chunk(f, "IEND", NULL, 0) == 0)
                 ? 0
                 : -1;
        if (fclose(f) != 0) {
            rc = -1;
        }
    } else {
        rc = -1;
    }
    free(b.data);
    return rc;
}
