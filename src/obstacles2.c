#define SHOVE_DIM 2
#include "dim.h"
#include "obstacles.inc"
#include "dim_end.h"
