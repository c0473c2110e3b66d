/* Status codes and version. */
#include "core.h"

#define STR2(x) #x
#define STR(x) STR2(x)

struct status_text {
    int32_t code;
    const char *name;
    const char *text;
};

static const struct status_text status_texts[] = {
    {GPUOCC_OK, "ok", "success"},
    {GPUOCC_ERR_NULL, "null", "a required pointer argument is NULL"},
    {GPUOCC_ERR_STRUCT_SIZE, "struct_size", "a struct's size field is not a layout this version knows"},
    {GPUOCC_ERR_RESERVED, "reserved", "a reserved field or a byte past the known layout is not zero"},
    {GPUOCC_ERR_VENDOR, "vendor", "the device's vendor is not modelled by this version"},
    {GPUOCC_ERR_UNKNOWN_DEVICE, "unknown_device", "no architecture or product by that name"},
    {GPUOCC_ERR_DEVICE, "device", "a device field is out of range or inconsistent"},
    {GPUOCC_ERR_THREADS, "threads", "threads per block must be at least 1"},
    {GPUOCC_ERR_REGISTERS, "registers", "a register count is negative"},
    {GPUOCC_ERR_SMEM, "smem", "shared-memory sizes must not be negative"},
    {GPUOCC_ERR_BARRIERS, "barriers", "barriers per block must not be negative"},
    {GPUOCC_ERR_CARVEOUT, "carveout", "carveout must be -1 (default) or 0..100 percent"},
    {GPUOCC_ERR_ARGUMENT, "argument", "an argument is out of its documented range"},
    {GPUOCC_ERR_UNSATISFIABLE, "unsatisfiable", "no value satisfies the request"},
    {GPUOCC_ERR_RESOURCE, "resource", "unknown resource identifier"},
    {GPUOCC_ERR_SM_COUNT, "sm_count", "the device has no SM count; use a product or set sm_count"},
    {GPUOCC_ERR_NOT_FINITE, "not_finite", "a floating-point argument is NaN or infinite"},
    {GPUOCC_ERR_DOMAIN, "domain", "a floating-point argument is outside its domain"},
    {GPUOCC_ERR_OVERFLOW, "overflow", "the answer does not fit its output type"},
    {GPUOCC_ERR_BUFFER, "buffer", "the output array is too small"},
    {GPUOCC_ERR_PARSE, "parse", "malformed input text"},
    {GPUOCC_ERR_TRUNCATED, "truncated", "input ends in the middle of a record or structure"},
    {GPUOCC_ERR_FORMAT, "format", "input is not of the expected binary format"},
    {GPUOCC_ERR_UNSUPPORTED, "unsupported", "input of a kind this version does not read"},
    {GPUOCC_ERR_COMPRESSED, "compressed", "compressed device code this reader does not decode"},
    {GPUOCC_ERR_TMEM, "tmem", "tensor memory asked of a device that has none (sm_100, sm_103 and sm_110 have it)"},
    {GPUOCC_ERR_SETMAXNREG, "setmaxnreg", "register reallocation (setmaxnreg) asked of a device before cc 9.0"},
    {GPUOCC_ERR_CLUSTER, "cluster", "the device refuses this cluster launch"},
    {GPUOCC_ERR_EXCEEDED, "exceeded", "an input is above a per-block maximum no launch may pass"},
};

static const struct status_text *find_status(int32_t code)
{
    for (size_t i = 0; i < sizeof status_texts / sizeof status_texts[0]; i++)
        if (status_texts[i].code == code)
            return &status_texts[i];
    return NULL;
}

const char *gpuocc_strerror(int32_t status)
{
    const struct status_text *s = find_status(status);
    return s ? s->text : "unknown status code";
}

const char *gpuocc_status_name(int32_t status)
{
    const struct status_text *s = find_status(status);
    return s ? s->name : "unknown";
}

int32_t gpuocc_version(void)
{
    return GPUOCC_VERSION_MAJOR * 10000 + GPUOCC_VERSION_MINOR * 100 + GPUOCC_VERSION_PATCH;
}

const char *gpuocc_version_string(void)
{
    return STR(GPUOCC_VERSION_MAJOR) "." STR(GPUOCC_VERSION_MINOR) "." STR(GPUOCC_VERSION_PATCH);
}
