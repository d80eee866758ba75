/* dim_end.h: undo dim.h, so one translation unit could instantiate both
 * dimensions and no template parameter leaks past its template. */
#undef SHOVE_PREFIX
#undef SHOVE_IPREFIX
#undef SHOVE_FN
#undef SHOVE_IFN
#undef SHOVE_T
#undef shove_vec
#undef shove_aabb
#undef shove_hit
#undef shove_contact
#undef shove_filter_fn
#undef shove_obstacle
#undef shove_move_def
#undef shove_move_result
#undef shove_world
#undef shove_world_def
#undef shove_body_def
#undef shove_event
#undef shove_event_fn
#undef shove_voxel_fn
#undef shove_voxel_def
#undef shove_soa
#undef shove_debug_draw
#undef shove_vec_splat
#undef SHOVE_DIM
