/*
 * script.h: plays the playground from a text script, headless, and checks
 * what happens. One command per line; '#' starts a comment.
 *
 *   view single|compare             one lane, or every lane side by side
 *   show METHOD                     lane of the single view (slide,
 *                                   mandatory, overlap, teleport)
 *   set contacts|normals|tree|gravity|snap on|off
 *   select N                        actor that the keys move
 *   hold KEYS FRAMES                keys: any of w a s d, f = fast, - = none
 *   click left|right X Y            at world position (X, Y)
 *   expect LANE|all ACTOR MINX MINY MAXX MAXY TOL
 *                                   actor's box within TOL on every side
 *   still KEYS FRAMES               hold keys; after the first frame no
 *                                   actor of any lane may move (same bits)
 *   note X Y TEXT                   label at world position (X, Y)
 *   shot NAME                       write OUT_DIR/NAME.png
 *
 * Every frame also checks that no actor overlaps a solid or another actor.
 */
#ifndef PLAYGROUND_SCRIPT_H
#define PLAYGROUND_SCRIPT_H

#include "playground.h"

/* The script the test runs and the README pictures come from. */
extern const char pg_tour_script[];

/* Runs `text` on `s` (fresh from pg_init). Pictures are width x height.
 * Returns the number of failed checks and errors (0 = all good). */
int pg_run_script(pg_scene *s, const char *text, const char *out_dir, int width, int height);

/* The same, a frame at a time, for a platform that draws between frames
 * (the browser page). pg_script_frame reads commands up to and including
 * the next frame played and returns false once the script has ended;
 * pg_script_failures is then what pg_run_script returns. `text` and
 * `out_dir` (NULL: no pictures) must outlive the player. */
typedef struct pg_script {
    pg_scene *scene;
    const char *next; /* the rest of the script */
    const char *out_dir;
    int width, height, line, failures;
    long violations_before;
    /* the hold or still command being played */
    unsigned keys;
    int frames_left, frames_done, hold_line;
    bool still, still_failed;
    shove2_aabb before[PG_METHOD_COUNT][PG_MAX_ACTORS];
    bool ended;
} pg_script;
void pg_script_start(pg_script *p, pg_scene *s, const char *text, const char *out_dir, int width,
                     int height);
bool pg_script_frame(pg_script *p);
int pg_script_failures(const pg_script *p);

#endif
