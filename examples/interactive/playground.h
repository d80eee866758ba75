/*
 * playground.h: the interactive 2D demo's model, independent of SDL.
 *
 * One scene (a tile map, free boxes and actors) is played by several lanes
 * at once, one per resolution method, each in its own shove2_world, with the
 * same input. The window shows one lane or all of them side by side; the
 * headless runner plays a script and checks what happened.
 */
#ifndef PLAYGROUND_H
#define PLAYGROUND_H

#include <stdbool.h>
#include <stdint.h>

#include <shove/shove.h>

#include "canvas.h"

enum {
    PG_TILES_X = 40,
    PG_TILES_Y = 22,
    PG_MAX_BOXES = 64,
    PG_MAX_ACTORS = 32,
    PG_MAX_NOTES = 16,
};

/* How a lane moves its actors. */
typedef enum pg_method {
    PG_SLIDE = 0, /* swept collide-and-slide: shove2_move */
    PG_MANDATORY, /* shove2_resolve, SHOVE_RESOLVE_MANDATORY_FIRST */
    PG_OVERLAP,   /* shove2_resolve, SHOVE_RESOLVE_LARGEST_OVERLAP */
    PG_TELEPORT,  /* shove2_resolve, SHOVE_RESOLVE_TELEPORT */
    PG_STEP,      /* shove2_world_step: the selected actor shoves the others */
    PG_METHOD_COUNT
} pg_method;

/* The side-by-side view shows the first PG_COMPARED lanes: the swept slide
 * and the three discrete resolvers. */
enum { PG_COMPARED = 4 };

/* Keys held during a frame. */
enum {
    PG_KEY_LEFT = 1,
    PG_KEY_RIGHT = 2,
    PG_KEY_UP = 4,
    PG_KEY_DOWN = 8,
    PG_KEY_FAST = 16, /* 12x speed: shows tunnelling in the discrete lanes */
};

typedef struct pg_lane {
    pg_method method;
    shove2_world *world;
    shove_id box_body[PG_MAX_BOXES];
    shove_id actor[PG_MAX_ACTORS];
    float vy[PG_MAX_ACTORS];      /* vertical speed when gravity is on */
    bool grounded[PG_MAX_ACTORS]; /* stood on something after the last frame */
    int strongest;                /* step lane: the actor whose body has priority 0 */
    /* Discrete lanes: the selected actor's last box after its motion and
     * after the correction, to draw the correction. */
    shove2_aabb moved, corrected;
    bool has_correction;
} pg_lane;

typedef struct pg_scene {
    uint8_t tiles[PG_TILES_Y][PG_TILES_X]; /* read by every lane's tile callback */
    shove2_aabb boxes[PG_MAX_BOXES];       /* free (off-grid) static boxes */
    int box_count;
    int actor_count;
    int selected;
    pg_lane lanes[PG_METHOD_COUNT];
    /* view and toggles */
    int shown; /* lane shown in the single view */
    bool compare, show_contacts, show_normals, show_tree, show_help;
    bool gravity, snap;
    struct {
        float x, y; /* world position of the text's top-left corner */
        char text[40];
    } notes[PG_MAX_NOTES]; /* labels drawn in every lane */
    int note_count;
    uint32_t frame;
    long violations; /* frames where an actor overlapped a solid or another actor */
} pg_scene;

const char *pg_method_name(pg_method m);
/* Short name used by scripts: slide, mandatory, overlap, teleport, step. */
const char *pg_method_key(pg_method m);

/* Builds the starting scene in `s` (which must not move afterwards: the
 * worlds' tile callback points at it). Returns false when a world cannot
 * be made. */
bool pg_init(pg_scene *s);
void pg_free(pg_scene *s);

/* Left click: toggle the tile under (x, y) (snap on) or add / remove a unit
 * box centred there (snap off). Right click: add an actor centred there.
 * Nothing happens where it would overlap something. */
void pg_click(pg_scene *s, float x, float y, bool right);

/* Add a label drawn at world position (x, y) in every lane. */
void pg_note(pg_scene *s, float x, float y, const char *text);

/* A key pressed (not held): '\t' selects the next actor; 'm' shows the next
 * method, 'v' toggles the side-by-side view, 'c' / 'n' / 'b' contacts,
 * normals and broad-phase nodes, 'g' gravity, 'f' snap to grid, 'r' resets
 * the scene (keeping the view). Other keys do nothing. Returns false only
 * when a reset cannot make the worlds again. Every platform layer (the SDL2
 * window, the browser canvas) maps its key events onto these. */
bool pg_key(pg_scene *s, int key);

/* What a platform shows beside the picture. */
typedef struct pg_stats {
    uint32_t frames; /* frames played */
    int contacts;    /* boxes touching an actor of the lane on screen (the
                        first one in the side-by-side view) */
    int inside;      /* actors of any lane overlapping a solid (never expected) */
} pg_stats;
pg_stats pg_get_stats(const pg_scene *s);

/* Advance every lane by one frame of input. */
void pg_step(pg_scene *s, unsigned keys);

/* Box of actor `actor` in lane `lane`. */
shove2_aabb pg_actor_box(const pg_scene *s, int lane, int actor);

/* Draw the current view into the canvas. */
void pg_render(const pg_scene *s, canvas *c);

/* World position under pixel (px, py) of the current view; false outside. */
bool pg_screen_to_world(const pg_scene *s, int width, int height, int px, int py, float *x,
                        float *y);

#endif
