#define SHOVE_DIM 3
#include "dim.h"
#include "step.inc"
#include "dim_end.h"
