#define SHOVE_DIM 2
#include "dim.h"
#include "move.inc"
#include "dim_end.h"
