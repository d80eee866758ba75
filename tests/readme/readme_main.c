/* readme_code's main: prints how many README blocks were compiled in (the
 * readme_code_blocks test compares it with the README's count). The blocks
 * themselves are never called. */
#include <stdio.h>

extern const int readme_code_blocks;

int main(void) {
    printf("%d\n", readme_code_blocks);
    return 0;
}
