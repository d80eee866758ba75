#define SHOVE_DIM 3
#include "dim.h"
#include "resolve.inc"
#include "dim_end.h"
