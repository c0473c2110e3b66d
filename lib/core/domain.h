/* The floating-point models' contract: domain checks of their inputs and a finite check of their answers. */
#ifndef GPUOCC_CORE_DOMAIN_H
#define GPUOCC_CORE_DOMAIN_H

#ifndef GPUOCC_EXPERIMENTAL
#define GPUOCC_EXPERIMENTAL /* the library defines the experimental part too */
#endif
#include "gpuocc.h"

#include <float.h>
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

/*
 * num[0] x num[1] x ... / den[0] / den[1] / ... for finite num >= 0 and finite den > 0, with no intermediate
 * overflow or underflow: each factor's binary exponent is taken apart (frexp) and the significands multiplied
 * and divided in [0.5, 1), so the answer is infinite only where the exact value does not fit a double and 0
 * only where it is below the smallest one (or a numerator is 0).  Scaling by powers of two is exact, so
 * wherever the plain left-to-right expression has no overflow or underflow this rounds exactly as it does.
 */
static inline double gpuocc_scaled(const double *num, size_t n_num, const double *den, size_t n_den)
{
    double m = 1;
    long e = 0;
    for (size_t i = 0; i < n_num; i++) {
        if (num[i] == 0)
            return 0;
        int k, r;
        double f = frexp(num[i], &k);
        m = frexp(m * f, &r);
        e += (long)k + r;
    }
    for (size_t i = 0; i < n_den; i++) {
        int k, r;
        double f = frexp(den[i], &k);
        m = frexp(m / f, &r);
        e += (long)r - k;
    }
    /* beyond +-2^12 the answer is 0 or infinite whatever m is; the clamp keeps the int exponent exact */
    e = e > 4096 ? 4096 : e < -4096 ? -4096 : e;
    return ldexp(m, (int)e);
}

/* n0 x n1 x n2 / d0 / d1 by gpuocc_scaled (pass 1 for an unused factor: it changes no rounding); a call
   with named arrays, which C++ (the amalgamation's check) also compiles. */
static inline double gpuocc_ratio(double n0, double n1, double n2, double d0, double d1)
{
    const double num[3] = {n0, n1, n2}, den[2] = {d0, d1};
    return gpuocc_scaled(num, 3, den, 2);
}

#endif
