/*
 * shove2.c: the whole library for 2D. Each layer's templates are read here
 * once with SHOVE_DIM 2, bottom layer first; a template calls only what is
 * above it in this list (see dim.h for how a template is written, and
 * docs/design.md for the layers). shove3.c is the same list for the other
 * dimension.
 */
#define SHOVE_DIM 2
#include "dim.h"

/* geometry: boxes, sweeps and overlap tests of one pair */
#include "geometry/geometry.c"

/* simd: the batch kernels over many boxes, behind one dispatch */
#include "simd/batch.c"

/* obstacles: what a move can meet (lists, the loose tree, voxel grids) */
#include "obstacles/obstacle_set.c"
#include "obstacles/tree_storage.c"
#include "obstacles/tree_build.c"
#include "obstacles/tree_query.c"
#include "obstacles/tree_check.c"
#include "obstacles/merge_grid.c"
#include "obstacles/voxel.c"
#include "obstacles/voxel_walk.c"

/* solve: collide-and-slide, step-up, edge guard and the discrete resolvers */
#include "solve/response.c"
#include "solve/resolve.c"
#include "solve/move_def.c"
#include "solve/mover.c"
#include "solve/ground_probe.c"
#include "solve/sub_move.c"
#include "solve/step_up.c"
#include "solve/edge_guard.c"
#include "solve/slide.c"
#include "solve/slide_list.c"

/* world: bodies, moves through the world, the shove step, events, queries,
 * dump and load */
#include "world/slots.c"
#include "world/occupancy.c"
#include "world/events.c"
#include "world/pairs.c"
#include "world/body_settings.c"
#include "world/bodies.c"
#include "world/queries.c"
#include "world/debug_draw.c"
#include "world/world_voxels.c"
#include "world/move_gather.c"
#include "world/move_pieces.c"
#include "world/move.c"
#include "world/step.c"
#include "world/step_bodies.c"
#include "world/step_slide.c"
#include "world/step_spec.c"
#include "world/step_chain.c"
#include "world/step_push.c"
#include "world/step_commit.c"
#include "world/step_entry.c"
#include "world/loaded_voxels.c"
#include "world/world.c"
#include "world/dump.c"
#include "world/load.c"

/* bindings: calls shaped for foreign-function interfaces */
#include "bindings/by_pointer.c"
#include "bindings/bump_detect.c"
#include "bindings/bump_cells.c"
#include "bindings/bump_grid.c"

#include "dim_end.h"
