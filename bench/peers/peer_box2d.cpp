// peer_box2d.cpp: Box2D 2.4's b2DynamicTree behind peers.h.
#include <vector>

#include <box2d/b2_dynamic_tree.h>

#include "peers.h"

struct peer {
    b2DynamicTree tree;
    std::vector<int32> proxy;
    std::vector<b2AABB> exact;
};

namespace {
struct counter {
    const peer *p;
    b2AABB q;
    size_t found;
    bool QueryCallback(int32 id) {
        const size_t i = reinterpret_cast<size_t>(p->tree.GetUserData(id));
        const b2AABB &b = p->exact[i];
        if (b.lowerBound.x < q.upperBound.x && q.lowerBound.x < b.upperBound.x &&
            b.lowerBound.y < q.upperBound.y && q.lowerBound.y < b.upperBound.y) {
            ++found;
        }
        return true;
    }
};
b2AABB make(const float min[2], const float max[2]) {
    b2AABB b;
    b.lowerBound.Set(min[0], min[1]);
    b.upperBound.Set(max[0], max[1]);
    return b;
}
} // namespace

peer *peer_b2_create(size_t capacity) {
    peer *p = new peer;
    p->proxy.reserve(capacity);
    p->exact.reserve(capacity);
    return p;
}

void peer_b2_destroy(peer *p) {
    delete p;
}

void peer_b2_insert(peer *p, const float min[2], const float max[2]) {
    const b2AABB b = make(min, max);
    p->proxy.push_back(p->tree.CreateProxy(b, reinterpret_cast<void *>(p->exact.size())));
    p->exact.push_back(b);
}

void peer_b2_move(peer *p, size_t index, const float min[2], const float max[2],
                  const float displacement[2]) {
    const b2AABB b = make(min, max);
    p->exact[index] = b;
    p->tree.MoveProxy(p->proxy[index], b, b2Vec2(displacement[0], displacement[1]));
}

size_t peer_b2_query(peer *p, const float min[2], const float max[2]) {
    counter c{p, make(min, max), 0};
    p->tree.Query(&c, c.q);
    return c.found;
}
