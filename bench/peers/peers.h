/*
 * peers.h: the broad phases bench_broadphase compares against, behind a
 * C face: Box2D 2.4's b2DynamicTree (2D) and Bullet's btDbvt (3D). Both are
 * C++ and optional; SHOVE_BENCH_BOX2D / SHOVE_BENCH_BULLET say which were
 * found at configure time.
 *
 * Both trees keep fattened boxes; the query functions test each candidate
 * against the exact box (strict overlap, as shove does), so every structure
 * in the bench returns the same answers.
 */
#ifndef SHOVE_BENCH_PEERS_H
#define SHOVE_BENCH_PEERS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct peer peer;

/* b2DynamicTree, 2D. Boxes are numbered in insertion order. */
peer *peer_b2_create(size_t capacity);
void peer_b2_destroy(peer *p);
void peer_b2_insert(peer *p, const float min[2], const float max[2]);
void peer_b2_move(peer *p, size_t index, const float min[2], const float max[2],
                  const float displacement[2]);
size_t peer_b2_query(peer *p, const float min[2], const float max[2]);

/* btDbvt, 3D, updated the way btDbvtBroadphase does (velocity and margin). */
peer *peer_bt_create(size_t capacity);
void peer_bt_destroy(peer *p);
void peer_bt_insert(peer *p, const float min[3], const float max[3]);
void peer_bt_move(peer *p, size_t index, const float min[3], const float max[3],
                  const float displacement[3]);
size_t peer_bt_query(peer *p, const float min[3], const float max[3]);
/* What btDbvtBroadphase does once per frame after moving proxies. */
void peer_bt_end_frame(peer *p);

#ifdef __cplusplus
}
#endif

#endif
