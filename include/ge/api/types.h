// GE's graph/types.h: data types, formats and their helpers are the IR's.
#pragma once

#include "ge/graph/types.h"
