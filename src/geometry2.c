#define SHOVE_DIM 2
#include "dim.h"
#include "geometry.inc"
#include "dim_end.h"
