#define SHOVE_DIM 3
#include "dim.h"
#include "body_settings.inc"
#include "dim_end.h"
