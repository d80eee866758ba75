#define SHOVE_DIM 2
#include "dim.h"
#include "dump.inc"
#include "dim_end.h"
