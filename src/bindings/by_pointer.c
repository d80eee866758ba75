/*
 * by_pointer.c: twins of hot calls with their structs passed by pointer, for
 * foreign-function interfaces (the LuaJIT module) that cannot pass structs
 * by value without leaving compiled code. They check the pointers and hand
 * over to the by-value functions, which check everything else.
 */

uint32_t SHOVE_FN(query_box_ptr)(const shove_world *w, const shove_aabb *box, uint64_t mask,
                                 shove_id *out, size_t capacity) {
    if (!box) {
        return 0;
    }
    const size_t found = SHOVE_FN(query_box)(w, *box, mask, out, capacity);
    return found > UINT32_MAX ? UINT32_MAX : (uint32_t)found;
}

shove_status SHOVE_FN(body_set_box_ptr)(shove_world *w, const shove_id *id, const shove_aabb *box) {
    if (!id || !box) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    return SHOVE_FN(body_set_box)(w, *id, *box);
}

shove_status SHOVE_FN(move_ptr)(shove_world *w, const shove_id *id, const shove_vec *delta,
                                const shove_move_def *def, shove_move_result *out) {
    if (!id || !delta) {
        return SHOVE_ERR_INVALID_ARGUMENT;
    }
    return SHOVE_FN(move)(w, *id, *delta, def, out);
}
