/*
 * test_world_text.h: a world's dump as a string (include after test_dim.h
 * and criterion.h). Tests compare the text before and after a refused call
 * to check that nothing changed. The caller frees the text.
 */
#ifndef SHOVE_TEST_WORLD_TEXT_H
#define SHOVE_TEST_WORLD_TEXT_H

#include <stdio.h>
#include <stdlib.h>

static char *world_text(const shove_world *w) {
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    cr_assert_eq(SHOVE_FN(world_dump)(w, f), SHOVE_OK);
    const long size = ftell(f);
    rewind(f);
    char *text = calloc((size_t)size + 1, 1);
    cr_assert_eq(fread(text, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    return text;
}

#endif
