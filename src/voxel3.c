#define SHOVE_DIM 3
#include "dim.h"
#include "voxel.inc"
#include "dim_end.h"
