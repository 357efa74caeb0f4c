#define QUOTED_VALUE 11
quoted_h __FILE__ __INCLUDE_LEVEL__
#include "sibling.h"
