#define SHOVE_DIM 3
#include "dim.h"
#include "dump.inc"
#include "dim_end.h"
