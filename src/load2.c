#define SHOVE_DIM 2
#include "dim.h"
#include "load.inc"
#include "dim_end.h"
