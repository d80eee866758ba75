#define SHOVE_DIM 3
#include "dim.h"
#include "bindings.inc"
#include "dim_end.h"
