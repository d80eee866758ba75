/* The whole library from the single header, as a user builds it. */
#define SHOVE_IMPLEMENTATION
#include "shove.h"
