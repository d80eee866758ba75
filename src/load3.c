#define SHOVE_DIM 3
#include "dim.h"
#include "load.inc"
#include "dim_end.h"
