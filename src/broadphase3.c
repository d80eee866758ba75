#define SHOVE_DIM 3
#include "dim.h"
#include "broadphase.inc"
#include "dim_end.h"
