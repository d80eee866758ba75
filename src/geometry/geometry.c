/*
 * geometry.c: boxes, the slab sweep and rays. Template: see dim.h.
 */
#include <math.h>

#include "geometry/geometry.h"

bool SHOVE_IFN(vec_is_finite)(shove_vec v) {
    SHOVE_AXES_UNROLLED
    for (int i = 0; i < SHOVE_DIM; ++i) {
        if (!isfinite(v.raw[i])) {
            return false;
        }
    }
    return true;
}

bool SHOVE_FN(aabb_is_valid)(shove_aabb a) {
    return SHOVE_IFN(box_is_valid)(a);
}

bool SHOVE_FN(aabb_overlaps)(shove_aabb a, shove_aabb b) {
    if (!SHOVE_FN(aabb_is_valid)(a) || !SHOVE_FN(aabb_is_valid)(b)) {
        return false;
    }
    return SHOVE_IFN(overlaps_unchecked)(a, b);
}

shove_aabb SHOVE_FN(aabb_from_center)(shove_vec center, shove_vec half_extents) {
    shove_aabb box;
    SHOVE_AXES_UNROLLED
    for (int i = 0; i < SHOVE_DIM; ++i) {
        box.min.raw[i] = center.raw[i] - half_extents.raw[i];
        box.max.raw[i] = center.raw[i] + half_extents.raw[i];
    }
    return box;
}

bool SHOVE_IFN(sweep_detail)(shove_aabb moving, shove_vec delta, shove_aabb target,
                             SHOVE_T(sweep_detail) * out) {
    return SHOVE_IFN(sweep_detail_inline)(moving, delta, target, out);
}

void SHOVE_IFN(hit_from_detail)(const SHOVE_T(sweep_detail) * d, shove_hit *hit) {
    hit->t = (d->t_enter > 0.0f) ? d->t_enter : 0.0f;
    hit->normal = shove_vec_splat(0.0f);
    hit->normal.raw[d->axis] = d->sign;
    hit->other = SHOVE_NULL_ID;
    hit->started_inside = d->t_enter < 0.0f;
}

bool SHOVE_FN(sweep_aabb)(shove_aabb moving, shove_vec delta, shove_aabb target, shove_hit *hit) {
    if (!SHOVE_FN(aabb_is_valid)(moving) || !SHOVE_FN(aabb_is_valid)(target) ||
        !SHOVE_IFN(vec_is_finite)(delta)) {
        return false;
    }
    SHOVE_T(sweep_detail) detail;
    if (!SHOVE_IFN(sweep_detail)(moving, delta, target, &detail)) {
        return false;
    }
    if (hit) {
        SHOVE_IFN(hit_from_detail)(&detail, hit);
    }
    return true;
}

bool SHOVE_FN(ray_aabb)(shove_vec origin, shove_vec delta, shove_aabb box, shove_hit *hit) {
    const shove_aabb point = {origin, origin};
    return SHOVE_FN(sweep_aabb)(point, delta, box, hit);
}

/* >>seams ------------------------------------------------------------------- */

bool SHOVE_IFN(seam_begin)(SHOVE_T(seam_set) * s, shove_aabb box, shove_vec delta) {
    s->box = box;
    s->delta = delta;
    s->planes = 0u;
    s->plane_count = 0;
    s->found = false;
    s->t = INFINITY;
    s->tag = 0u;
    s->count = 0;
    SHOVE_AXES_UNROLLED
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (box.min.raw[a] == box.max.raw[a] && delta.raw[a] == 0.0f) {
            s->planes |= 1u << a;
            s->plane_axis[s->plane_count++] = a;
        }
    }
    return s->planes != 0u;
}

/* The sectors around the cast's planes that box `b` covers: for each plane,
 * a box reaching it from below covers the - side, one reaching it from
 * above the + side, one across it both. 0 when it misses a plane. */
static unsigned SHOVE_IFN(seam_sectors)(const SHOVE_T(seam_set) * s, shove_aabb b) {
    unsigned minus = 0u, plus = 0u;
    for (int j = 0; j < s->plane_count; ++j) {
        const int a = s->plane_axis[j];
        const float c = s->box.min.raw[a];
        const bool below = b.min.raw[a] < c && c <= b.max.raw[a];
        const bool above = b.min.raw[a] <= c && c < b.max.raw[a];
        if (!below && !above) {
            return 0u;
        }
        minus |= (unsigned)below << j;
        plus |= (unsigned)above << j;
    }
    unsigned covered = 0u;
    for (unsigned sector = 0u; sector < (1u << s->plane_count); ++sector) {
        bool in = true;
        for (int j = 0; j < s->plane_count; ++j) {
            in = in && (((sector >> j) & 1u) ? (plus >> j) & 1u : (minus >> j) & 1u);
        }
        covered |= (unsigned)in << sector;
    }
    return covered;
}

/* Every set of kept boxes from `from` on that, with the boxes chosen so far
 * (`covered` sectors, `shared` box: their common part off the planes, their
 * hull across them), covers every sector: sweep the cast against what they
 * share and keep the earliest hit before `limit`. */
static void SHOVE_IFN(seam_search)(SHOVE_T(seam_set) * s, int from, unsigned covered,
                                   shove_aabb shared, uint32_t tag, float limit, int *budget) {
    const unsigned full = (1u << (1u << s->plane_count)) - 1u;
    if (covered == full) {
        SHOVE_T(sweep_detail) d;
        if (SHOVE_IFN(sweep_detail_inline)(s->box, s->delta, shared, &d)) {
            const float t = d.t_enter > 0.0f ? d.t_enter : 0.0f;
            if (t < limit && (!s->found || t < s->t)) {
                s->found = true;
                s->t = t;
                s->detail = d;
                s->tag = tag;
            }
        }
        return;
    }
    for (int i = from; i<s->count && * budget> 0; ++i) {
        const SHOVE_T(seam_entry) *e = &s->entry[i];
        if ((e->sectors & ~covered) == 0u || !(e->t_in < limit)) {
            continue; /* adds no sector, or enters too late to help */
        }
        --*budget;
        shove_aabb next = shared;
        bool meets = true;
        SHOVE_AXES_UNROLLED
        for (int a = 0; a < SHOVE_DIM; ++a) {
            const float lo = e->box.min.raw[a], hi = e->box.max.raw[a];
            if (s->planes & (1u << a)) {
                next.min.raw[a] = lo < next.min.raw[a] ? lo : next.min.raw[a];
                next.max.raw[a] = hi > next.max.raw[a] ? hi : next.max.raw[a];
            } else {
                next.min.raw[a] = lo > next.min.raw[a] ? lo : next.min.raw[a];
                next.max.raw[a] = hi < next.max.raw[a] ? hi : next.max.raw[a];
                meets = meets && next.min.raw[a] < next.max.raw[a];
            }
        }
        if (!meets) {
            continue; /* these boxes share no solid part off the planes */
        }
        const uint32_t t2 = (tag == 0u || (e->tag != 0u && e->tag < tag)) ? e->tag : tag;
        SHOVE_IFN(seam_search)(s, i + 1, covered | e->sectors, next, t2, limit, budget);
        if (s->found && s->t < limit) {
            limit = s->t;
        }
    }
}

void SHOVE_IFN(seam_add)(SHOVE_T(seam_set) * s, shove_aabb b, uint32_t tag, float before) {
    const unsigned covered = SHOVE_IFN(seam_sectors)(s, b);
    const unsigned full = (1u << (1u << s->plane_count)) - 1u;
    if (covered == 0u || covered == full) {
        return; /* off the planes, or an ordinary hit */
    }
    /* The box's window: its overlap with the cast on the other axes. */
    shove_aabb across = b;
    for (int j = 0; j < s->plane_count; ++j) {
        across.min.raw[s->plane_axis[j]] = -INFINITY;
        across.max.raw[s->plane_axis[j]] = INFINITY;
    }
    SHOVE_T(sweep_detail) d;
    if (!SHOVE_IFN(sweep_detail_inline)(s->box, s->delta, across, &d)) {
        return;
    }
    float limit = before;
    if (s->found && s->t < limit) {
        limit = s->t;
    }
    if (!(d.t_enter < limit)) {
        return; /* every set with it enters no earlier than this */
    }
    int budget = SHOVE_SEAM_COMBOS;
    SHOVE_IFN(seam_search)(s, 0, covered, b, tag, limit, &budget);
    const SHOVE_T(seam_entry) e = {b, d.t_enter, d.t_exit, tag, (uint8_t)covered};
    if (s->count < SHOVE_SEAM_CAPACITY) {
        s->entry[s->count++] = e;
        return;
    }
    int latest = 0;
    for (int i = 1; i < s->count; ++i) {
        latest = s->entry[i].t_in > s->entry[latest].t_in ? i : latest;
    }
    if (e.t_in < s->entry[latest].t_in) {
        s->entry[latest] = e;
    }
}

void SHOVE_IFN(seam_forget_before)(SHOVE_T(seam_set) * s, float t) {
    int kept = 0;
    for (int i = 0; i < s->count; ++i) {
        if (!(s->entry[i].t_out < t)) {
            s->entry[kept++] = s->entry[i];
        }
    }
    s->count = kept;
}
