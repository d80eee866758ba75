#define SHOVE_DIM 2
#include "dim.h"
#include "bindings.inc"
#include "dim_end.h"
