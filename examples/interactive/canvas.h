/*
 * canvas.h: software drawing into a 0xAARRGGBB pixel buffer, so the
 * playground renders the same pictures in a window and headless.
 */
#ifndef PLAYGROUND_CANVAS_H
#define PLAYGROUND_CANVAS_H

#include <stdint.h>

typedef struct canvas {
    uint32_t *pixels; /* width * height, top row first */
    int width, height;
    int clip_x0, clip_y0, clip_x1, clip_y1; /* drawing stays inside [x0, x1) x [y0, y1) */
} canvas;

/* Colours are 0xRRGGBBAA (shove's debug-draw convention); alpha blends. */
void canvas_clip(canvas *c, int x0, int y0, int x1, int y1);
void canvas_fill_rect(canvas *c, float x0, float y0, float x1, float y1, uint32_t rgba);
void canvas_rect(canvas *c, float x0, float y0, float x1, float y1, uint32_t rgba);
void canvas_line(canvas *c, float x0, float y0, float x1, float y1, uint32_t rgba);
void canvas_disc(canvas *c, float x, float y, float radius, uint32_t rgba);
/* An arrow from (x0, y0) to (x1, y1) with a small head. */
void canvas_arrow(canvas *c, float x0, float y0, float x1, float y1, uint32_t rgba);
/* Text in a 3x5 pixel font scaled by `scale`; returns the x after it. */
int canvas_text(canvas *c, int x, int y, int scale, const char *text, uint32_t rgba);
int canvas_text_width(const char *text, int scale);

#endif
