/*
 * shove.h: everything of shove in one include.
 *
 * shove moves axis-aligned boxes through 2D and 3D worlds without letting
 * them pass through anything: swept casts, collide-and-slide, discrete
 * resolvers, a priority shove solver, voxel / tile worlds and a loose
 * quadtree / octree broad phase. Every 3D name shove3_* has a 2D twin
 * shove2_* with vec2s in place of vec3s.
 *
 *   shove_common.h  status, ids, responses, SIMD levels, allocator
 *   shove2.h        the 2D half (tiles, quadtree)
 *   shove3.h        the 3D half (voxels, octree)
 */
#ifndef SHOVE_H
#define SHOVE_H

#include "shove_common.h"
#include "shove2.h"
#include "shove3.h"

#endif /* SHOVE_H */
