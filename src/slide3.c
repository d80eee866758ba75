#define SHOVE_DIM 3
#include "dim.h"
#include "slide.inc"
#include "dim_end.h"
