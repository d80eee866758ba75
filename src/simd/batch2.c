#define SHOVE_DIM 2
#include "../dim.h"
#include "batch.inc"
#include "../dim_end.h"
