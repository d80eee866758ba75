#define SHOVE_DIM 3
#include "dim.h"
#include "bump.inc"
#include "dim_end.h"
