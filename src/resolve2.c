#define SHOVE_DIM 2
#include "dim.h"
#include "resolve.inc"
#include "dim_end.h"
