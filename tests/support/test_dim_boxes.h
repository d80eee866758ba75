/*
 * test_dim_boxes.h: V(x, y, z) and BOX(x0, y0, z0, x1, y1, z1) for the
 * dimension in force (in 2D, z is dropped). test_dim.h includes it for tests
 * of one dimension; a program that instantiates both dimensions in one file
 * includes it after each dim.h (it guards itself per dimension and redefines
 * V and BOX each time).
 */
#if (SHOVE_DIM == 2 && !defined(SHOVE_TEST_DIM_BOXES2_H)) ||                                       \
    (SHOVE_DIM == 3 && !defined(SHOVE_TEST_DIM_BOXES3_H))
#if SHOVE_DIM == 2
#define SHOVE_TEST_DIM_BOXES2_H
#else
#define SHOVE_TEST_DIM_BOXES3_H
#endif

static inline shove_vec SHOVE_IFN(test_vec)(float x, float y, float z) {
    shove_vec v;
    v.raw[0] = x;
    v.raw[1] = y;
#if SHOVE_DIM == 3
    v.raw[2] = z;
#else
    (void)z;
#endif
    return v;
}

static inline shove_aabb SHOVE_IFN(test_box)(float x0, float y0, float z0, float x1, float y1,
                                             float z1) {
    shove_aabb b = {SHOVE_IFN(test_vec)(x0, y0, z0), SHOVE_IFN(test_vec)(x1, y1, z1)};
    return b;
}

#endif

#undef V
#undef BOX
#define V(x, y, z) SHOVE_IFN(test_vec)((float)(x), (float)(y), (float)(z))
#define BOX(x0, y0, z0, x1, y1, z1)                                                                \
    SHOVE_IFN(test_box)                                                                            \
    ((float)(x0), (float)(y0), (float)(z0), (float)(x1), (float)(y1), (float)(z1))
