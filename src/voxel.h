/*
 * voxel.h: the voxel (3D) / tile (2D) obstacle source. Include after dim.h.
 * Internal; the world's moves and casts call it, and tests call it directly.
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
 *   - A move whose swept box covers very many cells runs as a series of
 *     shorter moves (voxel_slide), so its reads too grow with its path.
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

#include "geometry.h"
#include "obstacles.h"

#ifndef SHOVE_VOXEL_COMMON_
#define SHOVE_VOXEL_COMMON_
/** Shape bounds must lie within [SHOVE_VOXEL_REACH_MIN, SHOVE_VOXEL_REACH_MAX]
 *  (local units) on every axis. */
#define SHOVE_VOXEL_REACH_MIN (-1.0f)
#define SHOVE_VOXEL_REACH_MAX 2.0f
#endif

/** Cells [lo[a], hi[a]] on every axis (empty when lo > hi on some axis). */
typedef struct SHOVE_T(cell_range) {
    int32_t lo[SHOVE_DIM];
    int32_t hi[SHOVE_DIM];
} SHOVE_T(cell_range);

/** True when `def` has a callback and is usable (see shove3_world_set_voxels). */
bool SHOVE_IFN(voxel_def_is_valid)(const shove_voxel_def *def);

/** The cells whose shape bounds touch `region` (world units; a valid box).
 *  False when there are none. */
bool SHOVE_IFN(voxel_cells)(const shove_voxel_def *def, shove_aabb region,
                            SHOVE_T(cell_range) * out);

/** voxel_cells computed the slow way for every region (ceil and floor in
 *  double); voxel_cells takes a shortcut for regions within 2^30 cells of
 *  cell 0 and must give the same answer. For tests. */
bool SHOVE_IFN(voxel_cells_exact)(const shove_voxel_def *def, shove_aabb region,
                                  SHOVE_T(cell_range) * out);

/** The boxes of cell `cell` in world units, clipped to the shape bounds and
 *  without the invalid ones. Returns how many were written to `out`. */
int SHOVE_IFN(voxel_read)(const shove_voxel_def *def, const int32_t cell[SHOVE_DIM],
                          shove_aabb out[SHOVE_VOXEL_MAX_BOXES]);

/** Gather (obstacles.h) over voxels: appends every voxel box that touches
 *  `box` swept by `delta` and grown by `margin`, with a null id, index -1,
 *  its cell and `flags` | SHOVE_OBSTACLE_VOXEL. With `merge`, boxes of
 *  neighbouring voxels along x with the same extent on the other axes are
 *  joined into one (which keeps the cell of the first); without it (moves
 *  whose filter must see every cell) each box stays its own obstacle.
 *  False only when `out` cannot grow. */
bool SHOVE_IFN(voxel_gather)(const shove_voxel_def *def, shove_aabb box, shove_vec delta,
                             float margin, uint8_t flags, bool merge,
                             SHOVE_IFN(obstacle_set) * out);

/** Obstacle source over voxels alone: ctx is a const shove_voxel_def *. */
bool SHOVE_IFN(voxel_source_gather)(void *ctx, shove_aabb box, shove_vec delta, float margin,
                                    SHOVE_IFN(obstacle_set) * out);

/** Earliest hit of `box` swept by `delta` against the voxels, walking the
 *  path (see the top of this file). With `before` non-NULL only hits with
 *  t < *before count (a better hit found elsewhere). Returns true and fills
 *  `hit` (other = null) when it finds one; else leaves `hit` untouched.
 *  With `seams` non-NULL (a seam set begun for this cast), every voxel box
 *  read is offered to it too (tag 0), and the walk also stops once the
 *  set's hit lies before the next piece; its hits are left in the set. */
bool SHOVE_IFN(voxel_cast)(const shove_voxel_def *def, shove_aabb box, shove_vec delta,
                           const float *before, shove_hit *hit, SHOVE_T(seam_set) * seams);

/** How many pieces a move of `box` by `delta` over these voxels runs as:
 *  1 unless its swept box covers many cells and pieces read far fewer.
 *  Always a power of two. */
uint32_t SHOVE_IFN(voxel_pieces)(const shove_voxel_def *def, shove_aabb box, shove_vec delta);

/** voxel_pieces without its shortcut for moves whose swept box has no side
 *  longer than 4 voxels; must give the same answer. For tests. */
uint32_t SHOVE_IFN(voxel_pieces_checked)(const shove_voxel_def *def, shove_aabb box,
                                         shove_vec delta);

/** SHOVE_IFN(slide_core) for sources that include voxels: one core run when
 *  voxel_pieces says 1, else `pieces` runs of delta / pieces, chained (see
 *  voxel.inc, "Long moves"). Same contract as slide_core, except that on
 *  SHOVE_ERR_OUT_OF_MEMORY def->contacts may hold contacts of the pieces
 *  run before the failure (`out` is still untouched). */
shove_status SHOVE_IFN(voxel_slide)(shove_aabb box, shove_vec delta, uint32_t pieces,
                                    const shove_move_def *def,
                                    const SHOVE_IFN(obstacle_source) * source,
                                    SHOVE_IFN(obstacle_set) * scratch, shove_move_result *out);

#endif
