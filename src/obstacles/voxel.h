/*
 * voxel.h: the voxel (3D) / tile (2D) obstacle source. Include after dim.h.
 * Internal; the world's moves and casts call it, and tests call it directly.
 * voxel.c holds the def, the cells and their reading; voxel_walk.c the
 * gathers and casts. It knows nothing of worlds.
 *
 * Voxels are never copied: every question reads the callback of a
 * shove3_voxel_def for the cells it needs, converts the local boxes it
 * answers to world boxes and hands them on (to an obstacle set, or to a
 * sweep). Which cells a question needs:
 *
 *   - Every box of cell c lies in c + shape_bounds (local units), so a
 *     region [L, H] on an axis needs the cells c with
 *     c + bounds.min <= H and c + bounds.max >= L: touching counts, a box
 *     that only touches a cell's boxes still gets them.
 *   - A gather (slide core) reads the cells of the whole swept box: the core
 *     may slide anywhere inside it.
 *   - A cast walks its path in pieces of at most one cell per axis and
 *     reads, per piece, the cells of that piece's swept box that the piece
 *     before did not read (the ranges only move forward, so each cell is
 *     read once), and stops once the best hit lies before the next piece.
 *     It steps over the cells read before in blocks, not one by one, and a
 *     piece whose new cells exceed what is left of the budget fails before
 *     reading any: a walk costs the cells it reads, whatever the size of
 *     the box it carries.
 *   - A long move (world/move_pieces.c) first casts the mover along its
 *     path. When nothing is in the way it runs whole on a tube gather: the
 *     cells along the path of the gather's box, read the way a cast reads
 *     them. When something is in the way it runs as a series of short
 *     moves that ends where the motion ends. Either way its reads follow
 *     the path.
 *   - Cells outside the def's solid range are never read, and every call
 *     reads at most its budget of cells (voxel_budget).
 *
 * Callbacks are not trusted: a count outside 0..SHOVE_VOXEL_MAX_BOXES, a
 * box that is NaN, inverted or outside the shape bounds fails the read
 * (SHOVE_ERR_INVALID_ARGUMENT), and the call that read it is refused.
 *
 * Numbers. Cell coordinates are int32; the conversions between world and
 * cell coordinates run in double, so cell x's max face and cell x+1's min
 * face are the same float at any cell index and any voxel size, and a world
 * whose origin was shifted by a whole number of voxels gives exactly the
 * boxes it gave before the shift. Cells outside the int32 range do not
 * exist (nothing solid there).
 */
#if (SHOVE_DIM == 2 && !defined(SHOVE_VOXEL2_H)) || (SHOVE_DIM == 3 && !defined(SHOVE_VOXEL3_H))
#if SHOVE_DIM == 2
#define SHOVE_VOXEL2_H
#else
#define SHOVE_VOXEL3_H
#endif

#include "geometry/geometry.h"
#include "obstacles/obstacles.h"

#ifndef SHOVE_VOXEL_COMMON_
#define SHOVE_VOXEL_COMMON_
/** Shape bounds must lie within [SHOVE_VOXEL_REACH_MIN, SHOVE_VOXEL_REACH_MAX]
 *  (local units) on every axis. */
#define SHOVE_VOXEL_REACH_MIN (-1.0f)
#define SHOVE_VOXEL_REACH_MAX 2.0f
/** Cells within this many voxels of world zero (|origin| / size + |cell|)
 *  are within float precision; a call that would read cells beyond is
 *  refused (SHOVE_ERR_OUT_OF_RANGE). */
#define SHOVE_VOXEL_PRECISE_CELLS 0x1p24

/** What one call may still read: cells (callback calls) and pieces of long
 *  moves; `status` says why a voxel read failed (SHOVE_ERR_OUT_OF_RANGE
 *  past the budget or float precision, SHOVE_ERR_INVALID_ARGUMENT for a
 *  callback that broke its contract), SHOVE_OK while none did. */
typedef struct shove__voxel_budget {
    uint64_t left;
    shove_status status;
} shove__voxel_budget;

/** Spends one cell (or piece) of `b`; false, with the status set, when none
 *  is left. */
static inline bool shove__voxel_spend(shove__voxel_budget *b) {
    if (b->left == 0u) {
        b->status = SHOVE_ERR_OUT_OF_RANGE;
        return false;
    }
    --b->left;
    return true;
}
#endif

/** Cells [lo[a], hi[a]] on every axis (empty when lo > hi on some axis). */
typedef struct SHOVE_T(cell_range) {
    int32_t lo[SHOVE_DIM];
    int32_t hi[SHOVE_DIM];
} SHOVE_T(cell_range);

/** The def voxels are set with (defs.h): `def` itself when it carries the
 *  literal mark, else `scratch` with the defaults and the def's non-zero
 *  fields. NULL for an unknown mark. */
const shove_voxel_def *SHOVE_IFN(voxel_def_resolve)(const shove_voxel_def *def,
                                                    shove_voxel_def *scratch);

/** True when `def` has a callback and is usable (see shove3_world_set_voxels). */
bool SHOVE_IFN(voxel_def_is_valid)(const shove_voxel_def *def);

/** A full budget for one call over `def` (its max_cells, or the default). */
shove__voxel_budget SHOVE_IFN(voxel_budget)(const shove_voxel_def *def);

/** The cells whose shape bounds touch `region` (world units; a valid box),
 *  within the def's solid range. False when there are none. */
bool SHOVE_IFN(voxel_cells)(const shove_voxel_def *def, shove_aabb region,
                            SHOVE_T(cell_range) * out);

/** voxel_cells computed the slow way for every region (ceil and floor in
 *  double); voxel_cells takes a shortcut for regions within 2^30 cells of
 *  cell 0 and must give the same answer. For tests. */
bool SHOVE_IFN(voxel_cells_exact)(const shove_voxel_def *def, shove_aabb region,
                                  SHOVE_T(cell_range) * out);

/** The boxes of cell `cell` in world units. Returns how many were written
 *  to `out`, or -1 when the callback broke its contract (a count outside
 *  0..SHOVE_VOXEL_MAX_BOXES, a box NaN, inverted or outside the shape
 *  bounds). */
int SHOVE_IFN(voxel_read)(const shove_voxel_def *def, const int32_t cell[SHOVE_DIM],
                          shove_aabb out[SHOVE_VOXEL_MAX_BOXES]);

/** Gather (obstacles.h) over voxels: appends every voxel box that touches
 *  `box` swept by `delta` and grown by `margin`, with a null id, index -1,
 *  its cell and `flags` | SHOVE_OBSTACLE_VOXEL. With `merge`, boxes of
 *  neighbouring voxels along x with the same extent on the other axes are
 *  joined into one (which keeps the cell of the first); without it (moves
 *  whose filter must see every cell) each box stays its own obstacle. No
 *  run is joined where its boxes meet at x = `line_x` (NaN: anywhere): a
 *  mover without width on x that lies on the face two voxels share touches
 *  both and overlaps neither, but it would lie inside their run. With
 *  `tube` only the cells along the path of the grown box are read (a
 *  superset of what a motion along `delta` touches, not of the swept box),
 *  each box its own obstacle. Spends `budget`; false when the set cannot
 *  grow or budget->status was set (past the budget or float precision, or
 *  a lying callback). */
bool SHOVE_IFN(voxel_gather)(const shove_voxel_def *def, shove_aabb box, shove_vec delta,
                             float margin, uint8_t flags, bool merge, float line_x, bool tube,
                             shove__voxel_budget *budget, SHOVE_IFN(obstacle_set) * out);

/** Earliest hit of `box` swept by `delta` against the voxels, walking the
 *  path (see the top of this file). With `before` non-NULL only hits with
 *  t < *before count (a better hit found elsewhere). Returns true and fills
 *  `hit` (other = null) when it finds one; else leaves `hit` untouched.
 *  With `seams` non-NULL (a seam set begun for this cast), every voxel box
 *  read is offered to it too (tag 0), and the walk also stops once the
 *  set's hit lies before the next piece; its hits are left in the set.
 *  Spends `budget`: false with budget->status set when the walk ran out of
 *  it, left float precision or read a lying callback before it found its
 *  answer. */
bool SHOVE_IFN(voxel_cast)(const shove_voxel_def *def, shove_aabb box, shove_vec delta,
                           const float *before, shove_hit *hit, SHOVE_T(seam_set) * seams,
                           shove__voxel_budget *budget);

/** True when a move of `box` by `delta` runs as one core run on a full
 *  gather: no side of its swept box is longer than 4 voxels. */
bool SHOVE_IFN(voxel_move_is_short)(const shove_voxel_def *def, shove_aabb box, shove_vec delta);

/** Pieces of at most `voxels` voxels along every axis for `delta` (a whole
 *  number >= 1, as a double: up to about 2^128). */
double SHOVE_IFN(voxel_piece_count)(const shove_voxel_def *def, shove_vec delta, double voxels);

#endif
