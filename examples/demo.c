/*
 * demo.c: casts a box through a few obstacles in 2D, prints each hit and
 * writes out/demo.svg showing the path. (The block-world demo replaces this
 * once the voxel layer exists.)
 *
 * Usage: demo [output-directory]
 */
#include <stdio.h>

#include <shove/shove.h>

static const shove2_aabb obstacles[] = {
    {{{4, 0}}, {{5, 3}}},
    {{{7, -2}}, {{8, 1}}},
    {{{-1, -3}}, {{12, -2}}},
};
enum { OBSTACLE_COUNT = sizeof obstacles / sizeof obstacles[0] };

static void svg_box(FILE *f, shove2_aabb b, const char *style) {
    /* y grows downward in SVG: flip it, 40 px per unit, origin at (40, 200) */
    fprintf(f, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' style='%s'/>\n",
            40 + 40 * b.min.x, 200 - 40 * b.max.y, 40 * (b.max.x - b.min.x),
            40 * (b.max.y - b.min.y), style);
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    shove2_aabb mover = {{{0, 0}}, {{1, 1}}};
    const vec2s casts[] = {{{10, 1}}, {{3, -4}}, {{0, 6}}};

    char path[512];
    snprintf(path, sizeof path, "%s/demo.svg", dir);
    FILE *svg = fopen(path, "w");
    if (!svg) {
        perror(path);
        return 1;
    }
    fprintf(svg, "<svg xmlns='http://www.w3.org/2000/svg' width='560' height='360'>\n");
    for (int i = 0; i < OBSTACLE_COUNT; ++i) {
        svg_box(svg, obstacles[i], "fill:#888;stroke:#333");
    }
    for (size_t c = 0; c < sizeof casts / sizeof casts[0]; ++c) {
        svg_box(svg, mover, "fill:none;stroke:#06c;stroke-width:2");
        float best_t = 1.0f;
        int best = -1;
        shove2_hit best_hit = {0};
        for (int i = 0; i < OBSTACLE_COUNT; ++i) {
            shove2_hit hit;
            if (shove2_sweep_aabb(mover, casts[c], obstacles[i], &hit) && hit.t < best_t) {
                best_t = hit.t;
                best = i;
                best_hit = hit;
            }
        }
        const vec2s moved = {{casts[c].x * best_t, casts[c].y * best_t}};
        printf("cast %zu by (%g, %g): ", c, casts[c].x, casts[c].y);
        if (best >= 0) {
            printf("hits obstacle %d at t = %.4f, normal (%g, %g)\n", best, best_t,
                   best_hit.normal.x, best_hit.normal.y);
        } else {
            printf("free\n");
        }
        fprintf(svg, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' style='stroke:#c60'/>\n",
                40 + 40 * (mover.min.x + 0.5), 200 - 40 * (mover.min.y + 0.5),
                40 + 40 * (mover.min.x + 0.5 + moved.x), 200 - 40 * (mover.min.y + 0.5 + moved.y));
        mover.min.x += moved.x;
        mover.min.y += moved.y;
        mover.max.x += moved.x;
        mover.max.y += moved.y;
    }
    svg_box(svg, mover, "fill:#06c;opacity:0.5");
    fprintf(svg, "</svg>\n");
    fclose(svg);
    printf("wrote %s\n", path);
    return 0;
}
