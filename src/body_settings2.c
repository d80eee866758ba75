#define SHOVE_DIM 2
#include "dim.h"
#include "body_settings.inc"
#include "dim_end.h"
