#define SHOVE_DIM 2
#include "dim.h"
#include "merge_grid.inc"
#include "dim_end.h"
