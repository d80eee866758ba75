/* A user program: sweeps a box in both dimensions and checks the answers. */
#include <stdio.h>

#include <shove/shove.h>

int main(void) {
    const shove2_aabb a2 = {{{0, 0}}, {{1, 1}}};
    const shove2_aabb wall2 = {{{3, -1}}, {{4, 2}}};
    shove2_hit hit2;
    const shove3_aabb a3 = {{{0, 0, 0}}, {{1, 1, 1}}};
    const shove3_aabb wall3 = {{{0, 0, 5}}, {{1, 1, 6}}};
    shove3_hit hit3;
    if (!shove2_sweep_aabb(a2, (vec2s){{4, 0}}, wall2, &hit2) || hit2.t != 0.5f) {
        fprintf(stderr, "2D sweep wrong\n");
        return 1;
    }
    if (!shove3_sweep_aabb(a3, (vec3s){{0, 0, 8}}, wall3, &hit3) || hit3.t != 0.5f) {
        fprintf(stderr, "3D sweep wrong\n");
        return 1;
    }
    printf("consumer ok: %s\n", shove_status_string(SHOVE_OK));
    return 0;
}
