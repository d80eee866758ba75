/*
 * playground: the interactive 2D demo. Every resolution method plays the
 * same scene with the same input, in its own world, so the discrete
 * resolvers of the articles in the README's credits can be compared with
 * shove's swept slide side by side; a fifth lane runs the shove step,
 * where the selected actor pushes others.
 *
 *   playground                       open a window (needs SDL2)
 *   playground --headless [--script FILE] [--out DIR]
 *                                    play a script (default: the built-in
 *                                    tour), check it, write its pictures
 *
 * Keys: WASD move the selected actor (W jumps when gravity is on), Shift
 * moves 12x faster, Tab selects the next actor, left click toggles a tile
 * (or adds / removes a free box with snap off), right click adds an actor,
 * M shows the next method, V shows the slide and the three resolvers side
 * by side, C / N / B
 * toggle contacts, normals and broad-phase nodes, G gravity, F snap to
 * grid, R reset, Esc quits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "playground.h"
#include "script.h"

#ifdef PLAYGROUND_HAVE_SDL
#include <SDL.h>
#endif

enum { WIDTH = 1280, HEIGHT = 720 };

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        return NULL;
    }
    char *text = NULL;
    size_t size = 0, cap = 0, n;
    char chunk[4096];
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (size + n + 1 > cap) {
            cap = 2 * (size + n + 1);
            char *grown = realloc(text, cap);
            if (!grown) {
                free(text);
                fclose(f);
                return NULL;
            }
            text = grown;
        }
        memcpy(text + size, chunk, n);
        size += n;
    }
    fclose(f);
    if (!text) {
        text = calloc(1, 1);
    } else {
        text[size] = '\0';
    }
    return text;
}

static int run_headless(const char *script_path, const char *out_dir) {
    char *text = NULL;
    if (script_path) {
        text = read_file(script_path);
        if (!text) {
            perror(script_path);
            return 2;
        }
    }
    pg_scene *s = malloc(sizeof *s);
    if (!s || !pg_init(s)) {
        fprintf(stderr, "playground: cannot create the worlds\n");
        free(s);
        free(text);
        return 2;
    }
    const int failures = pg_run_script(s, text ? text : pg_tour_script, out_dir, WIDTH, HEIGHT);
    printf("playground: %u frames, %d failed checks\n", (unsigned)s->frame, failures);
    pg_free(s);
    free(s);
    free(text);
    return failures == 0 ? 0 : 1;
}

#ifdef PLAYGROUND_HAVE_SDL
static unsigned held_keys(void) {
    const Uint8 *k = SDL_GetKeyboardState(NULL);
    unsigned keys = 0;
    keys |= (k[SDL_SCANCODE_A] || k[SDL_SCANCODE_LEFT]) ? PG_KEY_LEFT : 0u;
    keys |= (k[SDL_SCANCODE_D] || k[SDL_SCANCODE_RIGHT]) ? PG_KEY_RIGHT : 0u;
    keys |= (k[SDL_SCANCODE_W] || k[SDL_SCANCODE_UP] || k[SDL_SCANCODE_SPACE]) ? PG_KEY_UP : 0u;
    keys |= (k[SDL_SCANCODE_S] || k[SDL_SCANCODE_DOWN]) ? PG_KEY_DOWN : 0u;
    keys |= (k[SDL_SCANCODE_LSHIFT] || k[SDL_SCANCODE_RSHIFT]) ? PG_KEY_FAST : 0u;
    return keys;
}

/* Returns false when the window should close. */
static bool handle_key(pg_scene *s, SDL_Keycode key) {
    switch (key) {
    case SDLK_ESCAPE:
    case SDLK_q:
        return false;
    default:
        /* SDL's keycodes for Tab and the letters are their ASCII codes. */
        return key > 0 && key < 128 ? pg_key(s, (int)key) : true;
    }
}

static int run_window(void) {
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "playground: SDL_Init: %s (try --headless)\n", SDL_GetError());
        return 2;
    }
    SDL_Window *win = SDL_CreateWindow("shove playground", SDL_WINDOWPOS_CENTERED,
                                       SDL_WINDOWPOS_CENTERED, WIDTH, HEIGHT, 0);
    SDL_Renderer *ren = win ? SDL_CreateRenderer(win, -1, SDL_RENDERER_PRESENTVSYNC) : NULL;
    SDL_Texture *tex = ren ? SDL_CreateTexture(ren, SDL_PIXELFORMAT_ARGB8888,
                                               SDL_TEXTUREACCESS_STREAMING, WIDTH, HEIGHT)
                           : NULL;
    uint32_t *pixels = calloc((size_t)WIDTH * HEIGHT, sizeof *pixels);
    pg_scene *s = malloc(sizeof *s);
    int rc = 0;
    if (!tex || !pixels || !s || !pg_init(s)) {
        fprintf(stderr, "playground: cannot start: %s\n", SDL_GetError());
        free(s);
        s = NULL;
        rc = 2;
    }
    const Uint64 tick = SDL_GetPerformanceFrequency() / 60u; /* fixed 60 Hz steps */
    Uint64 next = SDL_GetPerformanceCounter();
    for (bool running = s != NULL; running;) {
        SDL_Event e;
        while (SDL_PollEvent(&e)) {
            if (e.type == SDL_QUIT) {
                running = false;
            } else if (e.type == SDL_KEYDOWN && !e.key.repeat) {
                running = running && handle_key(s, e.key.keysym.sym);
            } else if (e.type == SDL_MOUSEBUTTONDOWN) {
                float x, y;
                if (pg_screen_to_world(s, WIDTH, HEIGHT, e.button.x, e.button.y, &x, &y)) {
                    pg_click(s, x, y, e.button.button == SDL_BUTTON_RIGHT);
                }
            }
        }
        for (int steps = 0; SDL_GetPerformanceCounter() >= next && steps < 4; ++steps) {
            pg_step(s, held_keys());
            next += tick;
        }
        if (SDL_GetPerformanceCounter() > next + 4 * tick) {
            next = SDL_GetPerformanceCounter(); /* fell behind: do not spiral */
        }
        canvas c = {pixels, WIDTH, HEIGHT, 0, 0, WIDTH, HEIGHT};
        pg_render(s, &c);
        SDL_UpdateTexture(tex, NULL, pixels, WIDTH * (int)sizeof *pixels);
        SDL_RenderCopy(ren, tex, NULL, NULL);
        SDL_RenderPresent(ren);
    }
    if (s) {
        pg_free(s);
        free(s);
    }
    free(pixels);
    if (tex) {
        SDL_DestroyTexture(tex);
    }
    if (ren) {
        SDL_DestroyRenderer(ren);
    }
    if (win) {
        SDL_DestroyWindow(win);
    }
    SDL_Quit();
    return rc;
}
#endif

int main(int argc, char **argv) {
    const char *script = NULL, *out = ".";
    bool headless = false;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--headless") == 0) {
            headless = true;
        } else if (strcmp(argv[i], "--script") == 0 && i + 1 < argc) {
            script = argv[++i];
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else {
            fprintf(stderr, "usage: %s [--headless [--script FILE] [--out DIR]]\n", argv[0]);
            return 2;
        }
    }
    if (headless) {
        return run_headless(script, out);
    }
#ifdef PLAYGROUND_HAVE_SDL
    return run_window();
#else
    fprintf(stderr, "playground: built without SDL2, so only --headless works "
                    "(apt-get install libsdl2-dev and rebuild for the window)\n");
    return 2;
#endif
}
