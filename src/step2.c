#define SHOVE_DIM 2
#include "dim.h"
#include "step.inc"
#include "dim_end.h"
