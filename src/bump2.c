#define SHOVE_DIM 2
#include "dim.h"
#include "bump.inc"
#include "dim_end.h"
