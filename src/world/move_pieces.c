/*
 * move_pieces.c: one run of a world move (move_run): the slide core whole,
 * or, over voxels, a long move along its path or in pieces. Template: see
 * dim.h; the world move is described in move.h.
 *
 * The slide core gathers once per move, for the whole swept
 * box, because a slide may end up anywhere inside it (a diagonal motion
 * that lands on a floor slides along the floor, far from the straight
 * path). For a long motion that box holds far more cells than the path
 * crosses, and a mover blocked at once would read all of them. So a move
 * whose swept box is longer than 4 voxels on some axis (move_voxels_long):
 *
 *   1. casts the mover along the path (voxel_cast), which reads only up to
 *      the first voxel the mover would overlap;
 *   2. when it meets none (and the edge guard, which probes each sideways
 *      axis on its own, is off), runs once on a tube gather: the cells
 *      along the path of the gather's box (widened for steps and probes).
 *      A run that goes straight (its displacement is the request) only
 *      ever looked at obstacles near that path, all of which the tube
 *      holds, so its result is the one a full gather gives, bit for bit:
 *      a long move with nothing in the way ends exactly where it was sent.
 *      A run that does not go straight may have left the tube: dropped;
 *   3. else runs as pieces of at most MOVE_PIECE_VOXELS voxels along the
 *      longest axis (move_pieces_run), each a whole move that starts where
 *      the one before ended. On every axis that has kept up so far, a piece
 *      aims at the point k / pieces of the way from the start (so rounding
 *      does not add up along the path); on an axis where a piece fell short
 *      it asks a plain piece, kept inside the request. Then:
 *
 *   - contacts come in order, their t mapped to the whole move
 *     ((k + t) / pieces for piece k); a contact that repeats one already
 *     reported (same other, index, normal and response: pressing on along
 *     the same wall or floor) is reported once (voxels name no body, so
 *     for them any earlier voxel contact with that normal and response).
 *     Repeats are found among the contacts stored, so a run whose contacts
 *     outgrow the caller's room reports more than that room: move_slide
 *     runs it again with more (a speculative run of the step is dropped),
 *     and the count never depends on the room a world's contact array
 *     happened to have from the moves before;
 *   - after a piece with a TOUCH contact the move stops; after a BOUNCE
 *     contact the following pieces go the other way on that axis (the
 *     piece reflected the rest of its own motion already), so the whole
 *     move reflects the rest of its motion as one run does;
 *   - stepped, hit_wall and hit_ceiling are true when a piece set them,
 *     on_ground is the last piece's;
 *   - a piece that does not move at all ends the move: the next one would
 *     run from the same place with the same request and do the same. So a
 *     blocked mover reads the same cells whatever it asked for.
 *
 *   4. A guarded walk whose cast met nothing and whose pieces went all the
 *      way (min corner exactly at the target: the guard never held it
 *      back) is run once more on the tube without the guard and without
 *      contacts; when that run goes straight its end box replaces the
 *      pieces' (whose max corner is only the rounding of their sum), so a
 *      clear guarded walk ends exactly where it was sent too.
 *
 * So a move in pieces differs from one core run in ways a game can see: it
 * may climb a step per piece (one run climbs at most one); once a slide
 * along a surface passes the end of that surface it resumes the blocked
 * component (one run keeps it dropped): a mover that lands diagonally on a
 * ledge and slides off its end falls instead of floating on; and its delta
 * is the sum of the pieces' displacements, equal to the end box less the
 * start box only to rounding (for one run they agree exactly).
 *
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "obstacles/voxel.h"
#include "world/move.h"
#include "world/world.h"

/* Pieces of a split move go at most this many voxels along any axis. */
#define MOVE_PIECE_VOXELS 2.0

/* True when two contacts name the same obstacle the same way. */
static bool SHOVE_IFN(move_same_contact)(const shove_contact *x, const shove_contact *y) {
    if (x->other.index != y->other.index || x->other.generation != y->other.generation ||
        x->index != y->index || x->response != y->response) {
        return false;
    }
    for (int a = 0; a < SHOVE_DIM; ++a) {
        if (x->normal.raw[a] != y->normal.raw[a]) {
            return false;
        }
    }
    return true;
}

/* A long move that met something: pieces of at most MOVE_PIECE_VOXELS
 * voxels along the longest axis (see the top of this file). */
static shove_status SHOVE_IFN(move_pieces_run)(SHOVE_T(world_gather_ctx) * gather, shove_aabb box,
                                               shove_vec delta, const shove_move_def *def,
                                               const SHOVE_IFN(obstacle_source) * source,
                                               SHOVE_IFN(obstacle_set) * scratch,
                                               shove_move_result *out) {
    const double pieces =
        SHOVE_IFN(voxel_piece_count)(&gather->w->voxels, delta, MOVE_PIECE_VOXELS);
    /* env: where the whole move may end, from the start: between 0 and the
     * request; on an axis a bounce turned around, within its length either
     * way (set then) */
    shove_vec piece, env_lo, env_hi;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        piece.raw[a] = (float)((double)delta.raw[a] / pieces);
        env_lo.raw[a] = delta.raw[a] < 0.0f ? delta.raw[a] : 0.0f;
        env_hi.raw[a] = delta.raw[a] > 0.0f ? delta.raw[a] : 0.0f;
    }
    shove_move_def run = *def;
    const int cap = def->contact_capacity;
    int stored = 0;
    int count = 0;
    shove_aabb cur = box;
    shove_vec total = shove_vec_splat(0.0f);
    bool hit_ceiling = false, hit_wall = false, stepped = false, on_ground = false;
    unsigned turned = 0u;  /* axes a bounce turned around */
    unsigned blocked = 0u; /* axes on which a piece fell short of its request */
    bool lost = false;     /* contacts without room, not compared: see the top */
    for (double k = 1.0; k <= pieces; k += 1.0) {
        if (!shove__voxel_spend(&gather->budget)) {
            return SHOVE_ERR_OUT_OF_RANGE;
        }
        /* This piece's request: on an axis that has kept up so far, to the
         * point k / pieces of the way (from the start, so that rounding
         * does not add up); else a plain piece (on an axis a bounce turned
         * around, the piece reflected the rest of its own motion already,
         * and the following pieces go on the other way, as one run's
         * reflection does); either way kept inside the envelope, which
         * summed plain pieces would pass by their rounding. */
        shove_vec req;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            float v = piece.raw[a];
            if (!((turned | blocked) & (1u << a))) {
                const double along =
                    k < pieces ? (double)delta.raw[a] * (k / pieces) : (double)delta.raw[a];
                const float to = (float)((double)box.min.raw[a] + along);
                v = to - cur.min.raw[a];
            }
            const float room_hi = env_hi.raw[a] - total.raw[a];
            const float room_lo = env_lo.raw[a] - total.raw[a];
            v = v > room_hi ? room_hi : v;
            v = v < room_lo ? room_lo : v;
            req.raw[a] = v;
        }
        run.contacts = (cap - stored > 0) ? def->contacts + stored : NULL;
        run.contact_capacity = cap - stored;
        shove_move_result r;
        const shove_status s = SHOVE_IFN(slide_core)(cur, req, &run, source, scratch, &r);
        if (s != SHOVE_OK) {
            return s;
        }
        /* Contacts: map t to the whole move, drop repeats, read responses. */
        const int got =
            r.contact_count < run.contact_capacity ? r.contact_count : run.contact_capacity;
        lost = lost || r.contact_count > got;
        bool touch = false;
        unsigned bounce = 0u;
        int kept = 0, dropped = 0;
        for (int j = 0; j < got; ++j) {
            shove_contact c = run.contacts[j];
            int axis = 0;
            for (int a = 0; a < SHOVE_DIM; ++a) {
                axis = c.normal.raw[a] != 0.0f ? a : axis;
            }
            touch = touch || c.response == SHOVE_RESPONSE_TOUCH;
            bounce |= (c.response == SHOVE_RESPONSE_BOUNCE) ? 1u << axis : 0u;
            bool repeat = false;
            for (int i = 0; i < stored && !repeat; ++i) {
                repeat = SHOVE_IFN(move_same_contact)(&def->contacts[i], &c);
            }
            if (repeat) {
                ++dropped;
                continue;
            }
            c.t = (float)((k - 1.0 + (double)c.t) / pieces);
            c.t = c.t > 1.0f ? 1.0f : c.t;
            def->contacts[stored + kept++] = c;
        }
        stored += kept;
        const int fresh = r.contact_count - dropped;
        count = (count > INT32_MAX - fresh) ? INT32_MAX : count + fresh;
        hit_ceiling = hit_ceiling || r.hit_ceiling;
        hit_wall = hit_wall || r.hit_wall;
        stepped = stepped || r.stepped;
        on_ground = r.on_ground;
        bool moved = false;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            total.raw[a] += r.delta.raw[a];
            moved = moved || r.delta.raw[a] != 0.0f;
            blocked |= r.delta.raw[a] != req.raw[a] ? 1u << a : 0u;
            if (bounce & (1u << a)) {
                piece.raw[a] = -piece.raw[a];
                turned |= 1u << a;
                /* rule 2's bounce: within the motion's length either way */
                env_hi.raw[a] = fabsf(delta.raw[a]);
                env_lo.raw[a] = -env_hi.raw[a];
            }
        }
        cur = r.box;
        if (touch || (!moved && !bounce)) {
            break;
        }
    }
    out->box = cur;
    out->delta = total;
    out->contact_count = lost && count <= cap ? cap + 1 : count; /* see the top */
    out->on_ground = on_ground;
    out->hit_ceiling = hit_ceiling;
    out->hit_wall = hit_wall;
    out->stepped = stepped;
    return SHOVE_OK;
}

/* True when a move in pieces ended with its min corner exactly where a
 * whole run that goes straight puts it (box.min + delta on every axis). */
static bool SHOVE_IFN(move_went_all_the_way)(shove_aabb box, shove_vec delta,
                                             const shove_move_result *r) {
    bool all = true;
    for (int a = 0; a < SHOVE_DIM; ++a) {
        all = all && r->box.min.raw[a] == box.min.raw[a] + delta.raw[a];
    }
    return all;
}

/* A failed core run's status: a voxel gather that stopped for its budget,
 * float precision or a lying callback says why; else out of memory. */
static inline shove_status SHOVE_IFN(move_budget_status)(const SHOVE_T(world_gather_ctx) * gather,
                                                         shove_status s) {
    return (s != SHOVE_OK && gather->budget.status != SHOVE_OK) ? gather->budget.status : s;
}

bool SHOVE_IFN(move_run_whole)(SHOVE_T(world_gather_ctx) * gather, shove_aabb box, shove_vec delta,
                               const shove_move_def *def, const SHOVE_IFN(obstacle_source) * source,
                               SHOVE_IFN(obstacle_set) * scratch, shove_move_result *out,
                               shove_status *status) {
    if (!gather->w->has_voxels) {
        *status = SHOVE_IFN(slide_core)(box, delta, def, source, scratch, out);
        return true;
    }
    const shove_voxel_def *vdef = &gather->w->voxels;
    gather->tube = false;
    gather->budget = SHOVE_IFN(voxel_budget)(vdef);
    if (!SHOVE_IFN(voxel_move_is_short)(vdef, box, delta)) {
        return false;
    }
    *status = SHOVE_IFN(move_budget_status)(
        gather, SHOVE_IFN(slide_core)(box, delta, def, source, scratch, out));
    return true;
}

/* move_run for a long move over voxels (move_run_whole said no and left a
 * fresh budget): along its path or in pieces (see the top of this file). */
static shove_status SHOVE_IFN(move_voxels_long)(SHOVE_T(world_gather_ctx) * gather, shove_aabb box,
                                                shove_vec delta, const shove_move_def *def,
                                                const SHOVE_IFN(obstacle_source) * source,
                                                SHOVE_IFN(obstacle_set) * scratch,
                                                shove_move_result *out) {
    const shove_voxel_def *vdef = &gather->w->voxels;
    /* A long move: is anything in the way? The cast reads only up to the
     * first voxel it meets. Its runs gather whole: the pieces share one
     * budget, and the tube's cells come in the order of the path. */
    gather->lean_room = false;
    shove_hit hit;
    const bool met = SHOVE_IFN(voxel_cast)(vdef, box, delta, NULL, &hit, NULL, &gather->budget);
    if (gather->budget.status != SHOVE_OK) {
        return gather->budget.status;
    }
    /* The edge guard probes each sideways axis on its own, off the path:
     * a guarded walk does not run on the tube. */
    const int up = def->up_axis;
    const bool guarding = def->edge_guard && up >= 0 && !(delta.raw[up] > 0.0f);
    shove_status s;
    if (!met && !guarding) {
        /* Nothing: one run on the voxels along the path. Its result is the
         * one a full gather gives when the run goes straight (nothing else
         * can touch it then); else it may have left the tube. */
        gather->tube = true;
        s = SHOVE_IFN(move_budget_status)(
            gather, SHOVE_IFN(slide_core)(box, delta, def, source, scratch, out));
        gather->tube = false;
        if (s != SHOVE_OK) {
            return s;
        }
        bool straight = true;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            straight = straight && out->delta.raw[a] == delta.raw[a];
        }
        if (straight) {
            return SHOVE_OK;
        }
    }
    shove_move_result r;
    s = SHOVE_IFN(move_budget_status)(
        gather, SHOVE_IFN(move_pieces_run)(gather, box, delta, def, source, scratch, &r));
    if (s != SHOVE_OK) {
        return s;
    }
    if (!met && guarding && SHOVE_IFN(move_went_all_the_way)(box, delta, &r)) {
        /* A guarded walk on a clear path that the guard never held back:
         * its pieces put the min corner exactly where it was sent, the max
         * corner only to the rounding of their sum. One run on the path
         * without the guard (which only ever holds a mover back; no
         * contacts written, the pieces' stand) gives the exact end when it
         * goes straight (rule 2 at any range). When it does not (a wall
         * within the rounding of the pieces' sum), or cannot finish within
         * the budget the pieces left, the pieces' result stands. */
        shove_move_def plain = *def;
        plain.edge_guard = false;
        plain.contacts = NULL;
        plain.contact_capacity = 0;
        shove_move_result one;
        gather->tube = true;
        const shove_status t = SHOVE_IFN(slide_core)(box, delta, &plain, source, scratch, &one);
        gather->tube = false;
        if (t != SHOVE_OK && gather->budget.status == SHOVE_OK) {
            return t; /* out of memory */
        }
        gather->budget.status = SHOVE_OK;
        bool straight = t == SHOVE_OK;
        for (int a = 0; a < SHOVE_DIM; ++a) {
            straight = straight && one.delta.raw[a] == delta.raw[a];
        }
        if (straight) {
            r.box = one.box;
            r.delta = one.delta;
        }
    }
    *out = r;
    return SHOVE_OK;
}

shove_status SHOVE_IFN(move_run)(SHOVE_T(world_gather_ctx) * gather, shove_aabb box,
                                 shove_vec delta, const shove_move_def *def,
                                 const SHOVE_IFN(obstacle_source) * source,
                                 SHOVE_IFN(obstacle_set) * scratch, bool *whole,
                                 shove_move_result *out) {
    shove_status s;
    *whole = SHOVE_IFN(move_run_whole)(gather, box, delta, def, source, scratch, out, &s);
    return *whole ? s : SHOVE_IFN(move_voxels_long)(gather, box, delta, def, source, scratch, out);
}

#undef MOVE_PIECE_VOXELS
