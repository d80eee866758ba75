#define SHOVE_DIM 2
#include "dim.h"
#include "broadphase.inc"
#include "dim_end.h"
