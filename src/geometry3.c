#define SHOVE_DIM 3
#include "dim.h"
#include "geometry.inc"
#include "dim_end.h"
