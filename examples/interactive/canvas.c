/*
 * canvas.c: rectangles, lines, discs, arrows and a 3x5 bitmap font.
 */
#include "canvas.h"

#include <math.h>
#include <stddef.h>

void canvas_clip(canvas *c, int x0, int y0, int x1, int y1) {
    c->clip_x0 = x0 < 0 ? 0 : x0;
    c->clip_y0 = y0 < 0 ? 0 : y0;
    c->clip_x1 = x1 > c->width ? c->width : x1;
    c->clip_y1 = y1 > c->height ? c->height : y1;
}

static void blend(canvas *c, int x, int y, uint32_t rgba) {
    if (x < c->clip_x0 || y < c->clip_y0 || x >= c->clip_x1 || y >= c->clip_y1) {
        return;
    }
    uint32_t *p = &c->pixels[(size_t)y * (size_t)c->width + (size_t)x];
    const uint32_t a = rgba & 0xFFu;
    const uint32_t src[3] = {rgba >> 24, (rgba >> 16) & 0xFFu, (rgba >> 8) & 0xFFu};
    const uint32_t dst[3] = {(*p >> 16) & 0xFFu, (*p >> 8) & 0xFFu, *p & 0xFFu};
    uint32_t out = 0xFF000000u;
    for (int k = 0; k < 3; ++k) {
        const uint32_t v = (src[k] * a + dst[k] * (255u - a) + 127u) / 255u;
        out |= v << (16 - 8 * k);
    }
    *p = out;
}

void canvas_fill_rect(canvas *c, float x0, float y0, float x1, float y1, uint32_t rgba) {
    const int ix0 = (int)lroundf(fminf(x0, x1)), ix1 = (int)lroundf(fmaxf(x0, x1));
    const int iy0 = (int)lroundf(fminf(y0, y1)), iy1 = (int)lroundf(fmaxf(y0, y1));
    for (int y = iy0 < c->clip_y0 ? c->clip_y0 : iy0; y < iy1 && y < c->clip_y1; ++y) {
        for (int x = ix0 < c->clip_x0 ? c->clip_x0 : ix0; x < ix1 && x < c->clip_x1; ++x) {
            blend(c, x, y, rgba);
        }
    }
}

void canvas_rect(canvas *c, float x0, float y0, float x1, float y1, uint32_t rgba) {
    const float lx = fminf(x0, x1), hx = fmaxf(x0, x1) - 1.0f;
    const float ly = fminf(y0, y1), hy = fmaxf(y0, y1) - 1.0f;
    canvas_fill_rect(c, lx, ly, hx + 1.0f, ly + 1.0f, rgba);
    canvas_fill_rect(c, lx, hy, hx + 1.0f, hy + 1.0f, rgba);
    canvas_fill_rect(c, lx, ly + 1.0f, lx + 1.0f, hy, rgba);
    canvas_fill_rect(c, hx, ly + 1.0f, hx + 1.0f, hy, rgba);
}

void canvas_line(canvas *c, float x0, float y0, float x1, float y1, uint32_t rgba) {
    if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1)) {
        return;
    }
    int ax = (int)lroundf(x0), ay = (int)lroundf(y0);
    const int bx = (int)lroundf(x1), by = (int)lroundf(y1);
    const int dx = bx > ax ? bx - ax : ax - bx, dy = by > ay ? ay - by : by - ay;
    const int sx = ax < bx ? 1 : -1, sy = ay < by ? 1 : -1;
    int err = dx + dy;
    for (int guard = 0; guard < 100000; ++guard) { /* Bresenham */
        blend(c, ax, ay, rgba);
        if (ax == bx && ay == by) {
            break;
        }
        const int e2 = 2 * err;
        if (e2 >= dy) {
            err += dy;
            ax += sx;
        }
        if (e2 <= dx) {
            err += dx;
            ay += sy;
        }
    }
}

void canvas_disc(canvas *c, float x, float y, float radius, uint32_t rgba) {
    const int r = (int)ceilf(radius);
    const int cx = (int)lroundf(x), cy = (int)lroundf(y);
    for (int j = -r; j <= r; ++j) {
        for (int i = -r; i <= r; ++i) {
            if ((float)(i * i + j * j) <= radius * radius) {
                blend(c, cx + i, cy + j, rgba);
            }
        }
    }
}

void canvas_arrow(canvas *c, float x0, float y0, float x1, float y1, uint32_t rgba) {
    const float dx = x1 - x0, dy = y1 - y0;
    const float len = sqrtf(dx * dx + dy * dy);
    if (!(len > 0.5f)) {
        return;
    }
    const float ux = dx / len, uy = dy / len, head = fminf(6.0f, len * 0.5f);
    /* two pixels thick along the shaft, for legibility */
    canvas_line(c, x0, y0, x1, y1, rgba);
    canvas_line(c, x0 + uy, y0 - ux, x1 + uy, y1 - ux, rgba);
    canvas_line(c, x1, y1, x1 - head * (ux - 0.5f * uy), y1 - head * (uy + 0.5f * ux), rgba);
    canvas_line(c, x1, y1, x1 - head * (ux + 0.5f * uy), y1 - head * (uy - 0.5f * ux), rgba);
}

/* 3x5 glyphs, one row per 3 bits (top row in the high bits). */
typedef struct glyph {
    char ch;
    uint16_t rows;
} glyph;

#define G(a, b, c, d, e) (uint16_t)((a << 12) | (b << 9) | (c << 6) | (d << 3) | e)
static const glyph font[] = {
    {'A', G(2, 5, 7, 5, 5)}, {'B', G(6, 5, 6, 5, 6)}, {'C', G(3, 4, 4, 4, 3)},
    {'D', G(6, 5, 5, 5, 6)}, {'E', G(7, 4, 6, 4, 7)}, {'F', G(7, 4, 6, 4, 4)},
    {'G', G(3, 4, 5, 5, 3)}, {'H', G(5, 5, 7, 5, 5)}, {'I', G(7, 2, 2, 2, 7)},
    {'J', G(1, 1, 1, 5, 2)}, {'K', G(5, 5, 6, 5, 5)}, {'L', G(4, 4, 4, 4, 7)},
    {'M', G(5, 7, 7, 5, 5)}, {'N', G(6, 5, 5, 5, 5)}, {'O', G(2, 5, 5, 5, 2)},
    {'P', G(6, 5, 6, 4, 4)}, {'Q', G(2, 5, 5, 6, 3)}, {'R', G(6, 5, 6, 5, 5)},
    {'S', G(3, 4, 2, 1, 6)}, {'T', G(7, 2, 2, 2, 2)}, {'U', G(5, 5, 5, 5, 7)},
    {'V', G(5, 5, 5, 5, 2)}, {'W', G(5, 5, 7, 7, 5)}, {'X', G(5, 5, 2, 5, 5)},
    {'Y', G(5, 5, 2, 2, 2)}, {'Z', G(7, 1, 2, 4, 7)}, {'0', G(7, 5, 5, 5, 7)},
    {'1', G(2, 6, 2, 2, 7)}, {'2', G(6, 1, 2, 4, 7)}, {'3', G(6, 1, 2, 1, 6)},
    {'4', G(5, 5, 7, 1, 1)}, {'5', G(7, 4, 6, 1, 6)}, {'6', G(3, 4, 7, 5, 7)},
    {'7', G(7, 1, 2, 2, 2)}, {'8', G(7, 5, 7, 5, 7)}, {'9', G(7, 5, 7, 1, 6)},
    {'.', G(0, 0, 0, 0, 2)}, {',', G(0, 0, 0, 2, 4)}, {':', G(0, 2, 0, 2, 0)},
    {'-', G(0, 0, 7, 0, 0)}, {'+', G(0, 2, 7, 2, 0)}, {'=', G(0, 7, 0, 7, 0)},
    {'/', G(1, 1, 2, 4, 4)}, {'(', G(1, 2, 2, 2, 1)}, {')', G(4, 2, 2, 2, 4)},
    {'[', G(3, 2, 2, 2, 3)}, {']', G(6, 2, 2, 2, 6)}, {'<', G(1, 2, 4, 2, 1)},
    {'>', G(4, 2, 1, 2, 4)}, {'_', G(0, 0, 0, 0, 7)}, {'!', G(2, 2, 2, 0, 2)},
    {'?', G(6, 1, 2, 0, 2)}, {'%', G(5, 1, 2, 4, 5)}, {'\'', G(2, 2, 0, 0, 0)},
    {'*', G(5, 2, 7, 2, 5)}, {'#', G(5, 7, 5, 7, 5)},
};
#undef G

static uint16_t glyph_rows(char ch) {
    if (ch >= 'a' && ch <= 'z') {
        ch = (char)(ch - 'a' + 'A');
    }
    for (size_t i = 0; i < sizeof font / sizeof font[0]; ++i) {
        if (font[i].ch == ch) {
            return font[i].rows;
        }
    }
    return 0; /* space and anything unknown */
}

int canvas_text_width(const char *text, int scale) {
    int n = 0;
    for (const char *p = text; *p; ++p) {
        ++n;
    }
    return n * 4 * scale;
}

int canvas_text(canvas *c, int x, int y, int scale, const char *text, uint32_t rgba) {
    for (const char *p = text; *p; ++p) {
        const uint16_t rows = glyph_rows(*p);
        for (int r = 0; r < 5; ++r) {
            for (int col = 0; col < 3; ++col) {
                if (rows & (1u << ((4 - r) * 3 + (2 - col)))) {
                    canvas_fill_rect(c, (float)(x + col * scale), (float)(y + r * scale),
                                     (float)(x + (col + 1) * scale), (float)(y + (r + 1) * scale),
                                     rgba);
                }
            }
        }
        x += 4 * scale;
    }
    return x;
}
