#define SHOVE_DIM 3
#include "dim.h"
#include "world.inc"
#include "dim_end.h"
