#define SHOVE_DIM 2
#include "dim.h"
#include "world.inc"
#include "dim_end.h"
