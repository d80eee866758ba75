#define SHOVE_DIM 3
#include "dim.h"
#include "obstacles.inc"
#include "dim_end.h"
