/*
 * groups.c: collision groups in the style of "getting 2d collisions right"
 * (groups, groups to check, groups detected but not resolved, callbacks on
 * both bodies), written with shove's category / mask / sensor / events.
 *
 *   that engine                    shove
 *   body.AddGroups(g)              body_def.category = g
 *   body.AddGroupsToCheck(g)       body_def.mask = g (both bodies must agree)
 *   AddGroupsToIgnoreResolve(g)    a sensor body (everyone passes and is
 *                                  told), or, per mover, a move_def.filter
 *                                  that answers SHOVE_RESPONSE_CROSS for g
 *   OnCollision on both bodies     world_def.event_fn gets both ids; the
 *                                  game calls each body's handler
 *
 * The scene: a player, an enemy, a wall, a force field only the player
 * cannot cross, a coin (a sensor), and the player's bullet, which flies
 * through the player and the coin and stops at the enemy. It prints what
 * happens and exits 1 if a check fails.
 */
#include <stdio.h>

#include <shove/shove.h>

enum { WALL = 1, PLAYER = 2, ENEMY = 4, PLAYER_BULLET = 8, PICKUP = 16, FORCE_FIELD = 32 };

/* What the game keeps per body (user_data): a name and its own handler. */
typedef struct actor {
    const char *name;
    void (*on_event)(struct actor *self, const struct actor *other, shove_event_type type);
} actor;

static shove2_world *world;
static int coins_taken, failures;

static void print_event(actor *self, const actor *other, shove_event_type type) {
    static const char *const what[] = {"begins touching", "stops touching", "enters", "leaves",
                                       "is squished by"};
    printf("  %-13s: %s %s\n", self->name, what[type], other->name);
}

static void coin_event(actor *self, const actor *other, shove_event_type type) {
    if (type == SHOVE_EVENT_SENSOR_ENTER) {
        printf("  %-13s: picked up by %s\n", self->name, other->name);
        coins_taken += 1;
    }
}

/* That engine's "callbacks on both bodies": one world callback, two handlers. */
static void dispatch(void *ctx, const shove2_event *e) {
    (void)ctx;
    void *pa = NULL, *pb = NULL;
    shove2_body_get_user_data(world, e->a, &pa); /* stays NULL for a stale id */
    shove2_body_get_user_data(world, e->b, &pb);
    actor *a = pa, *b = pb;
    if (a && b) {
        a->on_event(a, b, e->type);
        b->on_event(b, a, e->type);
    }
}

static void check(bool ok, const char *what) {
    if (!ok) {
        printf("FAILED: %s\n", what);
        failures += 1;
    }
}

/* category: the groups a body is in; mask: the groups it checks. */
static shove_id add(float x0, float y0, float x1, float y1, uint64_t category, uint64_t mask,
                    bool sensor, actor *who) {
    shove2_body_def def = shove2_default_body_def();
    def.box = (shove2_aabb){{{x0, y0}}, {{x1, y1}}};
    def.category = category;
    def.mask = mask;
    def.sensor = sensor;
    /* the movers are dynamic, the rest static */
    def.type = category & (PLAYER | ENEMY | PLAYER_BULLET) ? SHOVE_BODY_DYNAMIC : SHOVE_BODY_STATIC;
    def.user_data = who;
    shove_id id = SHOVE_NULL_ID;
    check(shove2_body_create(world, &def, &id) == SHOVE_OK, who->name);
    return id;
}

static shove2_aabb move(const char *what, shove_id id, float dx) {
    shove2_move_result r = {0};
    printf("%s\n", what);
    check(shove2_move(world, id, (vec2s){{dx, 0}}, NULL, &r) == SHOVE_OK, "the move succeeds");
    printf("  -> ends at x %.3f%s\n", (double)r.box.min.x, r.hit_wall ? " (stopped)" : "");
    return r.box;
}

static size_t events_of(shove_event_type type) {
    const shove2_event *events;
    const size_t n = shove2_world_get_events(world, &events);
    size_t count = 0;
    for (size_t i = 0; i < n; ++i) {
        count += events[i].type == type;
    }
    return count;
}

int main(void) {
    shove2_world_def wd = shove2_default_world_def();
    wd.event_fn = dispatch;
    if (shove2_world_create(&wd, &world) != SHOVE_OK) {
        return 1;
    }
    actor player = {"player", print_event}, enemy = {"enemy", print_event};
    actor wall = {"wall", print_event}, field = {"force field", print_event};
    actor coin = {"coin", coin_event}, bullet = {"bullet", print_event};

    add(10, 0, 11, 4, WALL, ~0ull, false, &wall);
    const shove_id p = add(0, 0, 1, 2, PLAYER, WALL | ENEMY | PICKUP | FORCE_FIELD, false, &player);
    const shove_id e = add(7, 0, 8, 2, ENEMY, WALL | PLAYER | PLAYER_BULLET, false, &enemy);
    /* a force field only the player collides with: its mask names players */
    add(4, 0, 4.5f, 4, FORCE_FIELD, PLAYER, false, &field);
    /* detected, not resolved: a sensor */
    add(2, 0, 2.5f, 1, PICKUP, PLAYER, true, &coin);
    /* the bullet checks walls and enemies only: it flies through the
     * player who fired it and through the coin */
    const shove_id b = add(0.5f, 1, 0.7f, 1.2f, PLAYER_BULLET, WALL | ENEMY, false, &bullet);

    shove2_aabb box = move("the player walks right: takes the coin, stops at the field", p, 5);
    check(coins_taken == 1, "the player took the coin on the way");
    check(box.max.x <= 4.0f && box.max.x > 3.99f, "the force field stops the player");
    box = move("the enemy walks left: the field does not stop it; the player does", e, -5);
    check(box.min.x < 4.5f, "the enemy walked into the force field");
    check(box.min.x >= 3.99f && events_of(SHOVE_EVENT_CONTACT_BEGIN) == 1,
          "the enemy stopped at the player");
    const float enemy_left = box.min.x;
    box = move("the bullet flies right: through the coin and the field, into the enemy", b, 8);
    check(box.max.x <= enemy_left && box.max.x > enemy_left - 0.01f,
          "the bullet passed its player and stopped at the enemy");
    move("the player steps back: contacts end", p, -1);
    check(events_of(SHOVE_EVENT_CONTACT_END) == 2, "the player left the enemy and the field");

    shove2_world_destroy(world);
    printf(failures ? "groups: %d check(s) failed\n" : "groups: all checks passed\n", failures);
    return failures ? 1 : 0;
}
