/*
 * script.c: the headless runner and the built-in tour.
 */
#include "script.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "png.h"

/* The tour. Actor 0 rests on a floor of separate tiles and is pushed into
 * the inner corner at x = 20; actor 1 drops onto a passage narrower than
 * itself; actor 2 dashes at a wall 1/8 thick at 1.5 units per frame, which
 * the swept lane stops at and the discrete lanes jump through. Then gravity
 * comes on, actor 1 walks off its ledge and falls to the floor, and a new
 * actor lands on a new tile. Last, two new actors: in the step lane the
 * selected one shoves the other along; everywhere else it is blocked.
 * Numbers are exact in binary; TOL covers a skin, should the moves keep
 * one (the default skin is 0). */
const char pg_tour_script[] = "view compare\n"
                              "note 12 3.5 seams + inner corner\n"
                              "note 24 11 gap 0.625 < actor 0.75\n"
                              "note 31.5 14 wall 1/8 thick\n"
                              "note 31.5 13 dash: 1.5 per frame\n"
                              "set tree off\n"
                              "select 0\n"
                              "hold ds 160\n"
                              "expect all 0 19.25 1 20 1.75 0.002\n"
                              "select 1\n"
                              "hold s 40\n"
                              "expect all 1 26.96875 9 27.71875 9.75 0.002\n"
                              "still s 30\n"
                              "select 2\n"
                              "hold df 2\n"
                              "expect slide 2 35.25 2 36 2.75 0.002\n"
                              "expect step 2 35.25 2 36 2.75 0.002\n"
                              "expect mandatory 2 36.5 2 37.25 2.75 0\n"
                              "expect overlap 2 36.5 2 37.25 2.75 0\n"
                              "expect teleport 2 36.5 2 37.25 2.75 0\n"
                              "select 0\n"
                              "hold ds 1\n"
                              "shot playground-compare\n"
                              "set gravity on\n"
                              "select 1\n"
                              "hold d 40\n"
                              "hold - 60\n"
                              "expect all 1 31.96875 1 32.71875 1.75 0.002\n"
                              "click left 10.5 4.5\n"
                              "click right 10.5 10.5\n"
                              "hold - 90\n"
                              "expect all 3 10.125 5 10.875 5.75 0.002\n"
                              "still - 30\n"
                              "hold w 1\n"
                              "hold - 20\n"
                              "expect all 3 10.125 8.609375 10.875 9.359375 0.002\n"
                              "hold - 60\n"
                              "expect all 3 10.125 5 10.875 5.75 0.002\n"
                              "click right 5.5 1.5\n"
                              "click right 3.5 1.5\n"
                              "hold - 30\n"
                              "hold d 40\n"
                              "expect step 4 8.875 1 9.625 1.75 0.004\n"
                              "expect step 5 8.125 1 8.875 1.75 0.004\n"
                              "expect slide 4 5.125 1 5.875 1.75 0.002\n"
                              "expect slide 5 4.375 1 5.125 1.75 0.002\n"
                              "expect mandatory 4 5.125 1 5.875 1.75 0\n"
                              "expect mandatory 5 4.375 1 5.125 1.75 0\n"
                              "expect overlap 4 5.125 1 5.875 1.75 0\n"
                              "expect overlap 5 4.375 1 5.125 1.75 0\n"
                              "expect teleport 4 5.125 1 5.875 1.75 0\n"
                              "expect teleport 5 4.375 1 5.125 1.75 0\n"
                              "note 2 3 shove step: the selected actor pushes\n"
                              "view single\n"
                              "show step\n"
                              "set tree on\n"
                              "hold d 1\n"
                              "shot playground\n";

static unsigned parse_keys(const char *k) {
    unsigned keys = 0;
    for (; *k; ++k) {
        switch (*k) {
        case 'w':
            keys |= PG_KEY_UP;
            break;
        case 'a':
            keys |= PG_KEY_LEFT;
            break;
        case 's':
            keys |= PG_KEY_DOWN;
            break;
        case 'd':
            keys |= PG_KEY_RIGHT;
            break;
        case 'f':
            keys |= PG_KEY_FAST;
            break;
        default:
            break;
        }
    }
    return keys;
}

static int parse_method(const char *name) {
    for (int m = 0; m < PG_METHOD_COUNT; ++m) {
        if (strcmp(name, pg_method_key((pg_method)m)) == 0) {
            return m;
        }
    }
    return -1;
}

static bool near(float a, float b, float tol) {
    return a >= b - tol && a <= b + tol;
}

static int expect_box(const pg_scene *s, int lane, int actor, const float want[4], float tol,
                      int line) {
    if (actor < 0 || actor >= s->actor_count) {
        fprintf(stderr, "line %d: no actor %d\n", line, actor);
        return 1;
    }
    const shove2_aabb b = pg_actor_box(s, lane, actor);
    if (near(b.min.x, want[0], tol) && near(b.min.y, want[1], tol) && near(b.max.x, want[2], tol) &&
        near(b.max.y, want[3], tol)) {
        return 0;
    }
    fprintf(
        stderr,
        "line %d: %s: actor %d is at (%.6f, %.6f)-(%.6f, %.6f), expected (%g, %g)-(%g, %g) +- %g\n",
        line, pg_method_key((pg_method)lane), actor, (double)b.min.x, (double)b.min.y,
        (double)b.max.x, (double)b.max.y, (double)want[0], (double)want[1], (double)want[2],
        (double)want[3], (double)tol);
    return 1;
}

/* One frame of a hold or still command. A still command remembers every
 * box after its first frame; after every later one, no box may differ. */
static void play_frame(pg_script *p) {
    pg_scene *s = p->scene;
    pg_step(s, p->keys);
    if (p->still && p->frames_done == 0) {
        for (int l = 0; l < PG_METHOD_COUNT; ++l) {
            for (int k = 0; k < s->actor_count; ++k) {
                p->before[l][k] = pg_actor_box(s, l, k);
            }
        }
    } else if (p->still) {
        for (int l = 0; l < PG_METHOD_COUNT; ++l) {
            for (int k = 0; k < s->actor_count; ++k) {
                const shove2_aabb now = pg_actor_box(s, l, k);
                if (memcmp(&now, &p->before[l][k], sizeof now) != 0 && !p->still_failed) {
                    fprintf(
                        stderr, "line %d: %s: actor %d moved from (%.7f, %.7f) to (%.7f, %.7f)\n",
                        p->hold_line, pg_method_key((pg_method)l), k, (double)p->before[l][k].min.x,
                        (double)p->before[l][k].min.y, (double)now.min.x, (double)now.min.y);
                    p->still_failed = true;
                    ++p->failures;
                }
            }
        }
    }
    ++p->frames_done;
    --p->frames_left;
}

static int shot(const pg_scene *s, const char *dir, const char *name, int width, int height) {
    uint32_t *pixels = calloc((size_t)width * (size_t)height, sizeof *pixels);
    if (!pixels) {
        return 1;
    }
    canvas c = {pixels, width, height, 0, 0, width, height};
    pg_render(s, &c);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.png", dir, name);
    const int rc = png_write(path, pixels, width, height);
    free(pixels);
    if (rc != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        return 1;
    }
    printf("wrote %s\n", path);
    return 0;
}

static bool on_off(const char *v, bool *out) {
    if (strcmp(v, "on") == 0) {
        *out = true;
    } else if (strcmp(v, "off") == 0) {
        *out = false;
    } else {
        return false;
    }
    return true;
}

void pg_script_start(pg_script *p, pg_scene *s, const char *text, const char *out_dir, int width,
                     int height) {
    memset(p, 0, sizeof *p);
    p->scene = s;
    p->next = text;
    p->out_dir = out_dir;
    p->width = width;
    p->height = height;
    p->violations_before = s->violations;
}

bool pg_script_frame(pg_script *p) {
    pg_scene *s = p->scene;
    while (!p->ended) {
        if (p->frames_left > 0) {
            play_frame(p);
            return true;
        }
        if (!*p->next) {
            p->ended = true;
            if (s->violations > p->violations_before) {
                fprintf(stderr, "%ld frames with overlapping actors\n",
                        s->violations - p->violations_before);
                ++p->failures;
            }
            break;
        }
        char buf[256];
        const char *q = p->next;
        size_t n = strcspn(q, "\n");
        const size_t len = n < sizeof buf - 1 ? n : sizeof buf - 1;
        memcpy(buf, q, len);
        buf[len] = '\0';
        p->next = q + n + (q[n] == '\n');
        const int line = ++p->line;
        char *hash = strchr(buf, '#');
        if (hash) {
            *hash = '\0';
        }
        char cmd[32] = "", a[64] = "", b[64] = "";
        float v[5];
        int frames, count = sscanf(buf, "%31s %63s %63s", cmd, a, b);
        if (count <= 0) {
            continue;
        }
        bool ok = true;
        if (strcmp(cmd, "view") == 0) {
            s->compare = strcmp(a, "compare") == 0;
            ok = s->compare || strcmp(a, "single") == 0;
        } else if (strcmp(cmd, "show") == 0) {
            const int m = parse_method(a);
            ok = m >= 0;
            s->shown = ok ? m : s->shown;
        } else if (strcmp(cmd, "set") == 0) {
            bool *flag = strcmp(a, "contacts") == 0  ? &s->show_contacts
                         : strcmp(a, "normals") == 0 ? &s->show_normals
                         : strcmp(a, "tree") == 0    ? &s->show_tree
                         : strcmp(a, "gravity") == 0 ? &s->gravity
                         : strcmp(a, "snap") == 0    ? &s->snap
                                                     : NULL;
            ok = flag && on_off(b, flag);
        } else if (strcmp(cmd, "select") == 0) {
            const int k = atoi(a);
            ok = k >= 0 && k < s->actor_count;
            s->selected = ok ? k : s->selected;
        } else if (strcmp(cmd, "hold") == 0 || strcmp(cmd, "still") == 0) {
            frames = atoi(b);
            ok = count == 3 && frames > 0;
            if (ok) {
                p->keys = parse_keys(a);
                p->frames_left = frames;
                p->frames_done = 0;
                p->hold_line = line;
                p->still = cmd[0] == 's';
                p->still_failed = false;
            }
        } else if (strcmp(cmd, "click") == 0) {
            ok = sscanf(buf, "%*s %*s %f %f", &v[0], &v[1]) == 2;
            if (ok) {
                pg_click(s, v[0], v[1], strcmp(a, "right") == 0);
            }
        } else if (strcmp(cmd, "expect") == 0) {
            int actor;
            ok = sscanf(buf, "%*s %*s %d %f %f %f %f %f", &actor, &v[0], &v[1], &v[2], &v[3],
                        &v[4]) == 6;
            const int m = strcmp(a, "all") == 0 ? -1 : parse_method(a);
            ok = ok && (m >= 0 || strcmp(a, "all") == 0);
            for (int l = 0; ok && l < PG_METHOD_COUNT; ++l) {
                if (m < 0 || m == l) {
                    p->failures += expect_box(s, l, actor, v, v[4], line);
                }
            }
        } else if (strcmp(cmd, "note") == 0) {
            int at = 0;
            ok = sscanf(buf, "%*s %f %f %n", &v[0], &v[1], &at) == 2 && at > 0;
            if (ok) {
                pg_note(s, v[0], v[1], buf + at);
            }
        } else if (strcmp(cmd, "shot") == 0) {
            ok = count >= 2;
            if (ok && p->out_dir) {
                p->failures += shot(s, p->out_dir, a, p->width, p->height);
            }
        } else {
            ok = false;
        }
        if (!ok) {
            fprintf(stderr, "line %d: cannot read \"%s\"\n", line, buf);
            ++p->failures;
        }
    }
    return false;
}

int pg_script_failures(const pg_script *p) {
    return p->failures;
}

int pg_run_script(pg_scene *s, const char *text, const char *out_dir, int width, int height) {
    pg_script *p = malloc(sizeof *p);
    if (!p) {
        return 1;
    }
    pg_script_start(p, s, text, out_dir, width, height);
    while (pg_script_frame(p)) {
    }
    const int failures = pg_script_failures(p);
    free(p);
    return failures;
}
