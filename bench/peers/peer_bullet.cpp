// peer_bullet.cpp: Bullet's btDbvt behind peers.h.
#include <vector>

#include <BulletCollision/BroadphaseCollision/btDbvt.h>

#include "peers.h"

struct peer {
    btDbvt tree;
    std::vector<btDbvtNode *> leaf;
    std::vector<btDbvtVolume> exact;
    btAlignedObjectArray<const btDbvtNode *> stack; // reused by every query
};

namespace {
// btDbvtBroadphase's margin for moving proxies.
const btScalar margin = btScalar(0.05);

struct counter : btDbvt::ICollide {
    const peer *p;
    btDbvtVolume q;
    size_t found = 0;
    void Process(const btDbvtNode *n) override {
        const size_t i = reinterpret_cast<size_t>(n->data);
        const btDbvtVolume &b = p->exact[i];
        const btVector3 &bl = b.Mins(), &bh = b.Maxs(), &ql = q.Mins(), &qh = q.Maxs();
        if (bl.x() < qh.x() && ql.x() < bh.x() && bl.y() < qh.y() && ql.y() < bh.y() &&
            bl.z() < qh.z() && ql.z() < bh.z()) {
            ++found;
        }
    }
};
btDbvtVolume make(const float min[3], const float max[3]) {
    return btDbvtVolume::FromMM(btVector3(min[0], min[1], min[2]),
                                btVector3(max[0], max[1], max[2]));
}
} // namespace

peer *peer_bt_create(size_t capacity) {
    peer *p = new peer;
    p->leaf.reserve(capacity);
    p->exact.reserve(capacity);
    return p;
}

void peer_bt_destroy(peer *p) {
    delete p;
}

void peer_bt_insert(peer *p, const float min[3], const float max[3]) {
    btDbvtVolume v = make(min, max);
    p->leaf.push_back(p->tree.insert(v, reinterpret_cast<void *>(p->exact.size())));
    p->exact.push_back(v);
}

void peer_bt_move(peer *p, size_t index, const float min[3], const float max[3],
                  const float displacement[3]) {
    btDbvtVolume v = make(min, max);
    p->exact[index] = v;
    // update() returns at once when the fattened leaf still contains the box.
    p->tree.update(p->leaf[index], v, btVector3(displacement[0], displacement[1], displacement[2]),
                   margin);
}

size_t peer_bt_query(peer *p, const float min[3], const float max[3]) {
    counter c;
    c.p = p;
    c.q = make(min, max);
    p->tree.collideTVNoStackAlloc(p->tree.m_root, c.q, p->stack, c);
    return c.found;
}

void peer_bt_end_frame(peer *p) {
    // btDbvtBroadphase::collide: optimizeIncremental(1 + leaves * 1%).
    p->tree.optimizeIncremental(1 + (p->tree.m_leaves * 1) / 100);
}
