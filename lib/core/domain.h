/* The floating-point models' contract: domain checks of their inputs and a finite check of their answers. */
#ifndef GPUOCC_CORE_DOMAIN_H
#define GPUOCC_CORE_DOMAIN_H

#include "gpuocc.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

/* Domain checks for the models' floating-point inputs. */
enum gpuocc_domain { GPUOCC_POSITIVE, GPUOCC_NONNEGATIVE, GPUOCC_FRACTION, GPUOCC_AT_LEAST_ONE };
static inline int32_t gpuocc_check(double v, enum gpuocc_domain domain)
{
    if (!isfinite(v))
        return GPUOCC_ERR_NOT_FINITE;
    bool ok = domain == GPUOCC_POSITIVE      ? v > 0
              : domain == GPUOCC_NONNEGATIVE ? v >= 0
              : domain == GPUOCC_FRACTION    ? v >= 0 && v <= 1
                                             : v >= 1;
    return ok ? GPUOCC_OK : GPUOCC_ERR_DOMAIN;
}

/* GPUOCC_OK when all n answers are finite, else GPUOCC_ERR_OVERFLOW: every model runs its answers
   through this before storing any, so finite inputs never give an infinite or NaN result as OK. */
static inline int32_t gpuocc_finite(size_t n, const double *answers)
{
    for (size_t i = 0; i < n; i++)
        if (answers[i] != answers[i] || answers[i] - answers[i] != 0)
            return GPUOCC_ERR_OVERFLOW;
    return GPUOCC_OK;
}

#endif
