/*
 * png.h: a small PNG writer (no zlib needed) for the playground's
 * screenshots and the demo's picture (examples/demo/). Pixels are
 * 0xAARRGGBB, row after row; the file is 8-bit RGB.
 */
#ifndef PLAYGROUND_PNG_H
#define PLAYGROUND_PNG_H

#include <stdint.h>

/* Writes `pixels` (width * height, top row first) to `path`. Returns 0 on
 * success, -1 when the file cannot be written or memory runs out. */
int png_write(const char *path, const uint32_t *pixels, int width, int height);

#endif
