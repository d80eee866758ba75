#define SHOVE_DIM 2
#include "dim.h"
#include "slide.inc"
#include "dim_end.h"
