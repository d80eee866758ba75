/*
 * bump_detect.c: bump.lua's collision test in doubles (shove{2,3}_bump_detect),
 * for the LuaJIT module lua/shove/bump.lua. Every operation is the one bump
 * makes on Lua numbers, in the same order, so that the module's results
 * match bump's bit for bit: the Minkowski difference of the two boxes, a
 * Liang-Barsky clip of the motion against it (sides in bump's order: low
 * then high, x then y then z), and bump's margin DELTA. Lua's math.min and
 * math.abs become the comparisons below (no fmin: its handling of -0 is not
 * Lua's).
 */
#include <math.h>

#define SHOVE_BUMP_DELTA 1e-10

/* The part of the segment from the origin by `d` inside the box (low
 * corner `lo`, size `size`), kept within [t[0], t[1]]; the normals of the
 * sides where the part starts and ends go to n0 and n1 (0 when the bound
 * given is kept). False when the segment misses. */
static bool SHOVE_IFN(bump_clip)(const double lo[SHOVE_DIM], const double size[SHOVE_DIM],
                                 const double d[SHOVE_DIM], double t[2], double n0[SHOVE_DIM],
                                 double n1[SHOVE_DIM]) {
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        n0[a] = 0.0;
        n1[a] = 0.0;
    }
    SHOVE_AXES_UNROLLED
    for (int side = 0; side < 2 * SHOVE_DIM; ++side) {
        const int a = side / 2;
        const bool high = side % 2 == 1;
        /* bump: p = -d, q = x1 - x on the low side; p = d, q = x + w - x1
         * on the high one, with the segment's start x1 = 0 */
        const double p = high ? d[a] : -d[a];
        const double q = high ? (lo[a] + size[a]) - 0.0 : 0.0 - lo[a];
        if (p == 0.0) {
            if (q <= 0.0) {
                return false;
            }
            continue;
        }
        const double r = q / p;
        if (p < 0.0) {
            if (r > t[1]) {
                return false;
            }
            if (r > t[0]) {
                t[0] = r;
                SHOVE_AXES_UNROLLED
                for (int b = 0; b < SHOVE_DIM; ++b) {
                    n0[b] = b == a ? (high ? 1.0 : -1.0) : 0.0;
                }
            }
        } else {
            if (r < t[0]) {
                return false;
            }
            if (r < t[1]) {
                t[1] = r;
                SHOVE_AXES_UNROLLED
                for (int b = 0; b < SHOVE_DIM; ++b) {
                    n1[b] = b == a ? (high ? 1.0 : -1.0) : 0.0;
                }
            }
        }
    }
    return true;
}

bool SHOVE_FN(bump_detect)(const SHOVE_T(bump_rect) * item, const double goal[SHOVE_DIM],
                           const SHOVE_T(bump_rect) * other, SHOVE_T(bump_hit) * out) {
    if (!item || !goal || !other || !out) {
        return false;
    }
    double d[SHOVE_DIM], lo[SHOVE_DIM], size[SHOVE_DIM];
    bool inside = true;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        d[a] = goal[a] - item->min[a];
        lo[a] = other->min[a] - item->min[a] - item->size[a];
        size[a] = item->size[a] + other->size[a];
        /* bump's rect_containsPoint(lo, size, 0): strictly inside by DELTA */
        inside =
            inside && 0.0 - lo[a] > SHOVE_BUMP_DELTA && lo[a] + size[a] - 0.0 > SHOVE_BUMP_DELTA;
    }
    SHOVE_T(bump_hit) hit;
    double n1[SHOVE_DIM];
    if (inside) {
        /* overlapping: ti is minus the overlap's area (volume) */
        double corner[SHOVE_DIM];
        bool moving = false;
        hit.ti = 0.0;
        SHOVE_AXES_UNROLLED
        for (int a = 0; a < SHOVE_DIM; ++a) {
            /* bump's nearest corner to the origin (ties go to the high side) */
            const double hi = lo[a] + size[a];
            corner[a] = fabs(lo[a] - 0.0) < fabs(hi - 0.0) ? lo[a] : hi;
            const double extent = fabs(corner[a]);
            const double overlap = item->size[a] < extent ? item->size[a] : extent;
            hit.ti = a == 0 ? -overlap : hit.ti * overlap;
            moving = moving || d[a] != 0.0;
        }
        hit.overlaps = true;
        if (!moving) {
            /* out along the axis of the smallest push; bump.lua breaks a
             * tie toward y, bump-3dpd toward the earlier axis (x, then y) */
            int keep = 0;
            for (int a = 1; a < SHOVE_DIM; ++a) {
#if SHOVE_DIM == 2
                const bool smaller = !(fabs(corner[keep]) < fabs(corner[a]));
#else
                const bool smaller = fabs(corner[a]) < fabs(corner[keep]);
#endif
                if (smaller) {
                    keep = a;
                }
            }
            SHOVE_AXES_UNROLLED
            for (int a = 0; a < SHOVE_DIM; ++a) {
                const double push = a == keep ? corner[a] : 0.0;
                hit.normal[a] = push > 0.0 ? 1.0 : (push == 0.0 ? 0.0 : -1.0);
                hit.touch[a] = item->min[a] + push;
            }
        } else {
            /* back along the motion */
            double t[2] = {-HUGE_VAL, 1.0};
            if (!SHOVE_IFN(bump_clip)(lo, size, d, t, hit.normal, n1)) {
                return false;
            }
            SHOVE_AXES_UNROLLED
            for (int a = 0; a < SHOVE_DIM; ++a) {
                hit.touch[a] = item->min[a] + d[a] * t[0];
            }
        }
    } else {
        /* entering during the motion; through a corner or an edge only is
         * no collision */
        double t[2] = {-HUGE_VAL, HUGE_VAL};
        if (!SHOVE_IFN(bump_clip)(lo, size, d, t, hit.normal, n1)) {
            return false;
        }
        if (!(t[0] < 1.0 && fabs(t[0] - t[1]) >= SHOVE_BUMP_DELTA &&
              (0.0 < t[0] + SHOVE_BUMP_DELTA || (0.0 == t[0] && t[1] > 0.0)))) {
            return false;
        }
        hit.ti = t[0];
        hit.overlaps = false;
        SHOVE_AXES_UNROLLED
        for (int a = 0; a < SHOVE_DIM; ++a) {
            hit.touch[a] = item->min[a] + d[a] * t[0];
        }
    }
    *out = hit;
    return true;
}

uint32_t SHOVE_FN(bump_detect_all)(const SHOVE_T(bump_rect) * item, const double goal[SHOVE_DIM],
                                   const SHOVE_T(bump_rect) * rects, const shove_id *ids,
                                   uint32_t count, uint32_t skip, SHOVE_T(bump_hit) * hits,
                                   uint32_t *found) {
    if (!item || !goal || count == 0u || !rects || !ids || !hits || !found) {
        return 0u;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t index = ids[i].index;
        if (index != skip && SHOVE_FN(bump_detect)(item, goal, &rects[index], &hits[k])) {
            found[k] = i;
            k += 1u;
        }
    }
    return k;
}

/* bump's rect_getSquareDistance: squared distance between the centres. */
static double SHOVE_IFN(bump_square_distance)(const SHOVE_T(bump_rect) * a,
                                              const SHOVE_T(bump_rect) * b) {
    double sum = 0.0;
    SHOVE_AXES_UNROLLED
    for (int i = 0; i < SHOVE_DIM; ++i) {
        const double d = a->min[i] - b->min[i] + (a->size[i] - b->size[i]) / 2.0;
        sum = i == 0 ? d * d : sum + d * d;
    }
    return sum;
}

/* The module's query box for a projection: the motion's bounding box, each
 * coordinate v moved outward by |v| * pad_rel + pad_abs, in doubles, then
 * rounded to floats (as the module's Lua code does for its own queries). */
static shove_aabb SHOVE_IFN(bump_query_box)(const SHOVE_T(bump_rect) * from,
                                            const double goal[SHOVE_DIM], double pad_rel,
                                            double pad_abs) {
    shove_aabb box;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        const double lo = goal[a] < from->min[a] ? goal[a] : from->min[a];
        const double far_goal = goal[a] + from->size[a];
        const double far_from = from->min[a] + from->size[a];
        const double hi = far_goal > far_from ? far_goal : far_from;
        box.min.raw[a] = (float)(lo - (fabs(lo) * pad_rel + pad_abs));
        box.max.raw[a] = (float)(hi + (fabs(hi) * pad_rel + pad_abs));
    }
    return box;
}

/* bump's slide response to the collision `col` (its hit and `from` set) of
 * the rect `from` moving to `to`: writes the collision's move and slide,
 * then starts the next projection from the touch point toward the slide. */
static void SHOVE_IFN(bump_slide)(SHOVE_T(bump_col) * col, SHOVE_T(bump_rect) * from,
                                  double to[SHOVE_DIM]) {
    bool moving = false;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        col->move[a] = to[a] - from->min[a];
        moving = moving || col->move[a] != 0.0;
    }
    /* on along the surface, to the goal on the other axes */
#if SHOVE_DIM == 2
    /* bump.lua: a normal with x = 0 keeps the touch's y; without motion
     * the slide is the touch */
    int keep = SHOVE_DIM - 1;
    SHOVE_AXES_UNROLLED
    for (int a = SHOVE_DIM - 1; a >= 0; --a) {
        if (col->hit.normal[a] != 0.0) {
            keep = a;
        }
    }
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        col->slide[a] = moving && a != keep ? to[a] : col->hit.touch[a];
    }
#else
    /* bump-3dpd: the touch on the normal's axes, the goal on the others;
     * without motion the slide is the goal (a resting overlap stays) */
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        col->slide[a] = moving && col->hit.normal[a] != 0.0 ? col->hit.touch[a] : to[a];
    }
#endif
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        from->min[a] = col->hit.touch[a];
        to[a] = col->slide[a];
    }
}

/* The candidate a move meets first, in bump's order: the earlier hit, then
 * the nearer rect (bump's sort of its collisions). */
typedef struct SHOVE_T(bump_pick) {
    uint32_t best; /* UINT32_MAX while nothing is met */
    SHOVE_T(bump_hit) hit;
    double distance;
} SHOVE_T(bump_pick);

/* Test the move of `from` to `to` against `other` (item `index`) and keep it
 * in `p` when it comes first. */
static inline void SHOVE_IFN(bump_pick_consider)(SHOVE_T(bump_pick) * p,
                                                 const SHOVE_T(bump_rect) * from,
                                                 const double to[SHOVE_DIM],
                                                 const SHOVE_T(bump_rect) * other, uint32_t index) {
    SHOVE_T(bump_hit) hit;
    if (!SHOVE_FN(bump_detect)(from, to, other, &hit)) {
        return;
    }
    const double distance = SHOVE_IFN(bump_square_distance)(from, other);
    if (p->best == UINT32_MAX || hit.ti < p->hit.ti ||
        (hit.ti == p->hit.ti && distance < p->distance)) {
        p->best = index;
        p->hit = hit;
        p->distance = distance;
    }
}

/* Record the picked collision as cols[*k] and slide `from` / `to` by it. */
static inline void SHOVE_IFN(bump_pick_take)(const SHOVE_T(bump_pick) * p, SHOVE_T(bump_col) * cols,
                                             uint32_t *k, SHOVE_T(bump_rect) * from,
                                             double to[SHOVE_DIM]) {
    SHOVE_T(bump_col) *col = &cols[*k];
    *k += 1u;
    col->other = p->best;
    col->hit = p->hit;
    col->from = *from;
    SHOVE_IFN(bump_slide)(col, from, to);
}

uint32_t SHOVE_FN(bump_check)(const shove_world *w, const SHOVE_T(bump_rect) * rects,
                              uint32_t rect_count, uint32_t self, const double goal[SHOVE_DIM],
                              double pad_rel, double pad_abs, shove_id *ids, uint32_t id_capacity,
                              SHOVE_T(bump_col) * cols, uint32_t col_capacity,
                              double actual[SHOVE_DIM]) {
    if (!w || !rects || !goal || !ids || !cols || !actual || self >= rect_count) {
        return 0u;
    }
    SHOVE_T(bump_rect) from = rects[self];
    double to[SHOVE_DIM];
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        to[a] = goal[a];
    }
    uint32_t k = 0;
    for (;;) {
        const shove_aabb box = SHOVE_IFN(bump_query_box)(&from, to, pad_rel, pad_abs);
        const size_t n = SHOVE_FN(query_box)(w, box, UINT64_MAX, ids, id_capacity);
        if (n > id_capacity) {
            return UINT32_MAX;
        }
        /* the first collision in bump's order, among the items not met yet */
        SHOVE_T(bump_pick) pick = {.best = UINT32_MAX};
        for (size_t i = 0; i < n; ++i) {
            const uint32_t index = ids[i].index;
            bool met = index == self || index >= rect_count;
            for (uint32_t j = 0; j < k && !met; ++j) {
                met = cols[j].other == index;
            }
            if (!met) {
                SHOVE_IFN(bump_pick_consider)(&pick, &from, to, &rects[index], index);
            }
        }
        if (pick.best == UINT32_MAX) {
            break;
        }
        if (k == col_capacity) {
            return UINT32_MAX;
        }
        SHOVE_IFN(bump_pick_take)(&pick, cols, &k, &from, to);
    }
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        actual[a] = to[a];
    }
    return k;
}
