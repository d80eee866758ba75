#define SHOVE_DIM 2
#include "dim.h"
#include "voxel.inc"
#include "dim_end.h"
