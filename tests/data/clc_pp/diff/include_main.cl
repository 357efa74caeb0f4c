#include "inc/quoted.h"
#include <sys/angled.h>
#define HDR "inc/once.h"
#include HDR
#include HDR
#define ANGLED <sys/angled.h>
#include ANGLED
main_end QUOTED_VALUE ANGLED_COUNT
