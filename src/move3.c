#define SHOVE_DIM 3
#include "dim.h"
#include "move.inc"
#include "dim_end.h"
