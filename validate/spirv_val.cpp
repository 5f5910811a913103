#include "validate/spirv_val.h"
