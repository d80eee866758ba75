#define SHOVE_DIM 3
#include "../dim.h"
#include "batch.inc"
#include "../dim_end.h"
