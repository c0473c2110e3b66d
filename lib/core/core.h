/* The ground layer (lib/core/): what every layer above may use.  It knows no vendor and no format:
   checked arithmetic, size-versioned structs, name matching, the vendor interface, the models' domain
   checks.  docs/layers.md has the rules. */
#ifndef GPUOCC_CORE_H
#define GPUOCC_CORE_H

#include "arith.h"
#include "domain.h"
#include "names.h"
#include "structs.h"
#include "vendor.h"

#endif
