/*
 * shove-replay: load a world dump (shove2/3_world_dump) with
 * shove2/3_world_load, replay a move or a step and see what happened: a
 * text report of every frame (boxes, displacement, flags, contacts, the
 * bodies a step pushed, its events) and an SVG picture of the boxes, the
 * path and the contacts. What a game programmer reaches for when a player
 * gets stuck: dump the world at that moment, replay the move outside the
 * game.
 *
 *   shove-replay DUMP [--move BODY DX DY [DZ]] [--step] [--frames N]
 *                     [--svg FILE] [--view xy|xz|zy] [--margin UNITS]
 *                     [--skin S] [--step-height H] [--up AXIS]
 *                     [--edge-guard 0|1] [--iterations N] [--dump FILE|-]
 *
 * BODY is the index of the body's id (the number after "body" in the
 * dump). Each frame moves it with shove3_move, with the dump's step
 * settings unless options say otherwise. With --step each frame is a
 * shove3_world_step instead: BODY's motion is set to the delta first (so
 * it pushes, rides platforms and gets squished as in the game; the dump's
 * pending motions of other bodies take part in the first step), with the
 * dump's step settings (the overriding options are refused). --frames
 * repeats the frame (a key held down). --view picks the plane a 3D world is
 * drawn in (xz: from above, the default, a block game's map; xy: from the
 * side; zy). --dump writes the world after the replay as a new dump ("-":
 * stdout; the report then goes to stderr). Exit status: 0 done, 1 the
 * move or step was refused, 2 bad arguments or an unreadable dump.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shove/shove.h>

#define REPLAY_MAX_CONTACTS 32

typedef struct replay_options {
    const char *dump;
    bool has_move;
    bool step;
    unsigned body;
    float delta[3];
    int frames;
    const char *svg;
    const char *view;
    float margin;
    float skin, step_height;
    int up_axis, edge_guard, iterations;
    const char *dump_after;
} replay_options;

static FILE *replay_out;

#define SHOVE_DIM 2
#include "dim.h"
#include "replay.inc"
#include "dim_end.h"

#define SHOVE_DIM 3
#include "dim.h"
#include "replay.inc"
#include "dim_end.h"

static int usage(void) {
    fprintf(stderr, "usage: shove-replay DUMP [--move BODY DX DY [DZ]] [--step] [--frames N]\n"
                    "                    [--svg FILE] [--view xy|xz|zy] [--margin UNITS]\n"
                    "                    [--skin S] [--step-height H] [--up AXIS]\n"
                    "                    [--edge-guard 0|1] [--iterations N] [--dump FILE|-]\n"
                    "--step replays shove_world_step (needs --move to name the body; the\n"
                    "move-setting options apply to --move without --step only)\n");
    return 2;
}

static bool number(const char *s, float *out) {
    char *end;
    *out = strtof(s, &end);
    return end != s && *end == '\0';
}

static bool integer(const char *s, int *out) {
    char *end;
    const long v = strtol(s, &end, 10);
    *out = (int)v;
    return end != s && *end == '\0' && v >= -1000000 && v <= 1000000;
}

int main(int argc, char **argv) {
    replay_options o;
    memset(&o, 0, sizeof o);
    o.frames = 1;
    o.view = NULL; /* xz in 3D (from above), xy in 2D */
    o.margin = 3.0f;
    o.skin = -1.0f;
    o.step_height = -1.0f;
    o.up_axis = -2;
    o.edge_guard = -1;
    if (argc < 2 || argv[1][0] == '-') {
        return usage();
    }
    o.dump = argv[1];
    /* The dimension decides how many numbers --move takes: read it first. */
    FILE *in = fopen(o.dump, "r");
    if (!in) {
        fprintf(stderr, "shove-replay: cannot open %s\n", o.dump);
        return 2;
    }
    int dim = 0;
    char line[256];
    while (fgets(line, sizeof line, in)) {
        if (line[0] == '#' || line[0] == '\n') {
            continue;
        }
        if (sscanf(line, "shove %dd dump", &dim) != 1 || (dim != 2 && dim != 3)) {
            dim = 0;
        }
        break;
    }
    if (dim == 0) {
        fprintf(stderr, "shove-replay: %s is not a shove dump\n", o.dump);
        fclose(in);
        return 2;
    }
    rewind(in);
    for (int i = 2; i < argc; ++i) {
        const char *a = argv[i];
        const bool more = i + 1 < argc;
        int n;
        if (strcmp(a, "--move") == 0 && i + 1 + dim < argc) {
            o.has_move = integer(argv[++i], &n) && n >= 0;
            o.body = (unsigned)n;
            for (int k = 0; k < dim; ++k) {
                o.has_move = number(argv[++i], &o.delta[k]) && o.has_move;
            }
            if (!o.has_move) {
                return usage();
            }
        } else if (strcmp(a, "--step") == 0) {
            o.step = true;
        } else if (strcmp(a, "--frames") == 0 && more) {
            if (!integer(argv[++i], &o.frames) || o.frames < 1 || o.frames > 100000) {
                return usage();
            }
        } else if (strcmp(a, "--svg") == 0 && more) {
            o.svg = argv[++i];
        } else if (strcmp(a, "--view") == 0 && more) {
            o.view = argv[++i];
            if (strcmp(o.view, "xy") != 0 && strcmp(o.view, "xz") != 0 &&
                strcmp(o.view, "zy") != 0) {
                fclose(in);
                return usage();
            }
        } else if (strcmp(a, "--margin") == 0 && more) {
            if (!number(argv[++i], &o.margin) || !(o.margin >= 0.0f)) {
                return usage();
            }
        } else if (strcmp(a, "--skin") == 0 && more) {
            if (!number(argv[++i], &o.skin)) {
                return usage();
            }
        } else if (strcmp(a, "--step-height") == 0 && more) {
            if (!number(argv[++i], &o.step_height)) {
                return usage();
            }
        } else if (strcmp(a, "--up") == 0 && more) {
            if (!integer(argv[++i], &o.up_axis)) {
                return usage();
            }
        } else if (strcmp(a, "--edge-guard") == 0 && more) {
            if (!integer(argv[++i], &o.edge_guard)) {
                return usage();
            }
        } else if (strcmp(a, "--iterations") == 0 && more) {
            if (!integer(argv[++i], &o.iterations)) {
                return usage();
            }
        } else if (strcmp(a, "--dump") == 0 && more) {
            o.dump_after = argv[++i];
        } else {
            fclose(in);
            return usage();
        }
    }
    if (!o.view) {
        o.view = dim == 3 ? "xz" : "xy";
    }
    const bool overrides = o.skin >= 0.0f || o.step_height >= 0.0f || o.up_axis >= -1 ||
                           o.edge_guard >= 0 || o.iterations > 0;
    if (o.step && (!o.has_move || overrides)) {
        fclose(in);
        return usage();
    }
    replay_out = (o.dump_after && strcmp(o.dump_after, "-") == 0) ? stderr : stdout;
    const int status = dim == 2 ? shove2__replay_main(in, &o) : shove3__replay_main(in, &o);
    fclose(in);
    return status;
}
