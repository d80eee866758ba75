#define SHOVE_DIM 3
#include "dim.h"
#include "merge_grid.inc"
#include "dim_end.h"
