/*
 * web.c: the playground's browser platform layer (Emscripten), beside the
 * SDL2 window of main.c. The scenes, lanes, drawing and script player are
 * playground.c's and script.c's; this file only turns the page's key and
 * mouse events into pg_step / pg_key / pg_click, copies the canvas pixels
 * into the page's <canvas id="view">, and writes the #status line:
 *
 *   frames N · contacts M · inside K
 *
 * index.html?script=tour plays the headless tour's script instead of the
 * keys, one frame per tick, and writes its outcome into #script.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <emscripten/emscripten.h>
#include <emscripten/html5.h>

#include "playground.h"
#include "script.h"

enum { WIDTH = 1280, HEIGHT = 720 };

static pg_scene scene;
static pg_script player;
static bool playing_script, script_reported;
static unsigned held;    /* PG_KEY_* bits of the keys down */
static uint32_t *pixels; /* 0xAARRGGBB, what pg_render draws */
static uint8_t *rgba;    /* the same picture as R, G, B, A bytes */

static unsigned key_bit(const char *code) {
    static const struct {
        const char *code;
        unsigned bit;
    } keys[] = {
        {"KeyA", PG_KEY_LEFT},        {"ArrowLeft", PG_KEY_LEFT},  {"KeyD", PG_KEY_RIGHT},
        {"ArrowRight", PG_KEY_RIGHT}, {"KeyW", PG_KEY_UP},         {"ArrowUp", PG_KEY_UP},
        {"Space", PG_KEY_UP},         {"KeyS", PG_KEY_DOWN},       {"ArrowDown", PG_KEY_DOWN},
        {"ShiftLeft", PG_KEY_FAST},   {"ShiftRight", PG_KEY_FAST},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; ++i) {
        if (strcmp(code, keys[i].code) == 0) {
            return keys[i].bit;
        }
    }
    return 0;
}

static EM_BOOL on_key(int type, const EmscriptenKeyboardEvent *e, void *ctx) {
    (void)ctx;
    const unsigned bit = key_bit(e->code);
    if (type == EMSCRIPTEN_EVENT_KEYDOWN) {
        held |= bit;
        if (!e->repeat && !playing_script) {
            if (strcmp(e->code, "Tab") == 0) {
                pg_key(&scene, '\t');
            } else if (strncmp(e->code, "Key", 3) == 0 && e->code[3] && !e->code[4]) {
                pg_key(&scene, e->code[3] - 'A' + 'a');
            }
        }
    } else {
        held &= ~bit;
    }
    /* Keep Tab, Space and the arrows from moving focus or scrolling. */
    return bit != 0 || strcmp(e->code, "Tab") == 0;
}

static EM_BOOL on_mouse(int type, const EmscriptenMouseEvent *e, void *ctx) {
    (void)type;
    (void)ctx;
    if (playing_script || (e->button != 0 && e->button != 2)) {
        return 0;
    }
    /* The canvas may be shown scaled: map CSS pixels onto its 1280 x 720. */
    double w = WIDTH, h = HEIGHT;
    emscripten_get_element_css_size("#view", &w, &h);
    const int x = (int)((double)e->targetX * WIDTH / (w > 0 ? w : WIDTH));
    const int y = (int)((double)e->targetY * HEIGHT / (h > 0 ? h : HEIGHT));
    float wx, wy;
    if (pg_screen_to_world(&scene, WIDTH, HEIGHT, x, y, &wx, &wy)) {
        pg_click(&scene, wx, wy, e->button == 2);
    }
    return 1;
}

static void show(void) {
    canvas c = {pixels, WIDTH, HEIGHT, 0, 0, WIDTH, HEIGHT};
    pg_render(&scene, &c);
    for (size_t i = 0; i < (size_t)WIDTH * HEIGHT; ++i) {
        const uint32_t p = pixels[i];
        rgba[4 * i + 0] = (uint8_t)(p >> 16);
        rgba[4 * i + 1] = (uint8_t)(p >> 8);
        rgba[4 * i + 2] = (uint8_t)p;
        rgba[4 * i + 3] = 0xFF;
    }
    /* clang-format off */
    EM_ASM({
        const view = document.getElementById('view');
        const image = new ImageData(new Uint8ClampedArray(HEAPU8.buffer, $0, $1 * $2 * 4), $1, $2);
        view.getContext('2d').putImageData(image, 0, 0);
    }, rgba, WIDTH, HEIGHT);
    /* clang-format on */
    const pg_stats st = pg_get_stats(&scene);
    char status[96];
    snprintf(status, sizeof status, "frames %u \xC2\xB7 contacts %d \xC2\xB7 inside %d",
             (unsigned)st.frames, st.contacts, st.inside);
    EM_ASM({ document.getElementById('status').textContent = UTF8ToString($0); }, status);
}

static void tick(void) {
    if (playing_script) {
        if (!pg_script_frame(&player) && !script_reported) {
            script_reported = true;
            const int failures = pg_script_failures(&player);
            char line[64];
            snprintf(line, sizeof line, "tour done: %d failed checks", failures);
            EM_ASM({ document.getElementById('script').textContent = UTF8ToString($0); }, line);
            /* The scene stays as the tour left it: redraw it four times a
             * second from now on (a headless browser's screenshot waits
             * for the page to draw). */
            emscripten_set_main_loop_timing(EM_TIMING_SETTIMEOUT, 250);
        }
    } else {
        pg_step(&scene, held);
    }
    show();
}

int main(void) {
    pixels = malloc((size_t)WIDTH * HEIGHT * sizeof *pixels);
    rgba = malloc((size_t)WIDTH * HEIGHT * 4);
    if (!pixels || !rgba || !pg_init(&scene)) {
        EM_ASM({ document.getElementById('status').textContent = 'cannot start the playground'; });
        return 1;
    }
    /* clang-format off */
    playing_script = EM_ASM_INT({
        return new URLSearchParams(window.location.search).get('script') == 'tour' ? 1 : 0;
    });
    /* clang-format on */
    if (playing_script) {
        pg_script_start(&player, &scene, pg_tour_script, NULL, WIDTH, HEIGHT);
        EM_ASM({ document.getElementById('script').textContent = 'playing the tour'; });
    }
    emscripten_set_keydown_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, NULL, 1, on_key);
    emscripten_set_keyup_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, NULL, 1, on_key);
    emscripten_set_mousedown_callback("#view", NULL, 1, on_mouse);
    /* A fixed 60 Hz, like the SDL2 window (timer-driven, so it also runs
     * in a headless browser). */
    emscripten_set_main_loop(tick, 60, 0);
    return 0;
}
