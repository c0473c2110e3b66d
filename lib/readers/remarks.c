/*
 * LLVM's AMDGPU resource-usage remarks (clang -Rpass-analysis=kernel-resource-usage, llc
 * -pass-remarks-analysis=kernel-resource-usage), the AMD counterpart of ptxas -v.  LLVM prints one remark per
 * line and per resource: "Function Name: N" opens a kernel, the indented "SGPRs: 57", "VGPRs: 41", ... lines
 * that follow fill it.  Lines are read whether clang ("k.cl:2:1: remark: SGPRs: 57 [-Rpass-analysis=...]") or
 * llc ("remark: k.cl:2:0: SGPRs: 57") printed them; every other line is ignored, so build logs can be fed
 * whole.  The labels and what they hold are listed in docs/amd.md ("LLVM's remarks").
 */
#include "../core/core.h"
#include "names.h"

_Static_assert(sizeof(gpuocc_remarks_kernel) == 120, "gpuocc_remarks_kernel layout 1.0");
_Static_assert(offsetof(gpuocc_remarks_kernel, sgprs) == 40, "gpuocc_remarks_kernel layout 1.0");
_Static_assert(offsetof(gpuocc_remarks_kernel, scratch_bytes) == 56, "gpuocc_remarks_kernel layout 1.0");
_Static_assert(offsetof(gpuocc_remarks_kernel, reserved) == 88, "gpuocc_remarks_kernel layout 1.0");

struct rm_span {
    const char *p;
    size_t n;
};

static bool rm_starts(struct rm_span s, const char *prefix, size_t n)
{
    return s.n >= n && memcmp(s.p, prefix, n) == 0;
}

static struct rm_span rm_trim(struct rm_span s)
{
    while (s.n && (*s.p == ' ' || *s.p == '\t'))
        s.p++, s.n--;
    while (s.n && (s.p[s.n - 1] == ' ' || s.p[s.n - 1] == '\t'))
        s.n--;
    return s;
}

/* The labels LLVM prints, each followed by ": " and the value.  Longer labels sharing a prefix come first. */
enum rm_field {
    RM_NAME, RM_SGPR_SPILL, RM_VGPR_SPILL, RM_SGPRS, RM_VGPRS, RM_AGPRS, RM_SCRATCH, RM_DYNAMIC_STACK, RM_OCCUPANCY, RM_LDS,
    RM_COUNT
};
static const struct {
    const char *label;
    size_t length;
} rm_labels[RM_COUNT] = {
    {"Function Name", 13}, {"SGPRs Spill", 11},  {"VGPRs Spill", 11},   {"SGPRs", 5},
    {"VGPRs", 5},          {"AGPRs", 5},         {"ScratchSize [bytes/lane]", 24},
    {"Dynamic Stack", 13}, {"Occupancy [waves/SIMD]", 22}, {"LDS Size [bytes/block]", 22},
};
/* Every kernel has these; a record without one was cut off. */
#define RM_REQUIRED ((1u << RM_NAME) | (1u << RM_SGPRS) | (1u << RM_VGPRS) | (1u << RM_OCCUPANCY))

/* Whether s[0, n) ends with a source location as clang and llc print it: ":LINE:COL: " or ":LINE: ". */
static bool rm_ends_with_location(const char *s, size_t n)
{
    if (n < 4 || s[n - 1] != ' ' || s[n - 2] != ':')
        return false;
    size_t i = n - 2; /* s[i] is the colon after the last number */
    int numbers = 0;
    while (numbers < 2) {
        size_t j = i;
        while (j > 0 && s[j - 1] >= '0' && s[j - 1] <= '9')
            j--;
        if (j == i || j == 0 || s[j - 1] != ':')
            break;
        numbers++;
        i = j - 1;
    }
    return numbers > 0;
}

/* The first "remark: " of a line, or NULL. */
static const char *rm_find_tag(struct rm_span line)
{
    const char *p = line.p, *last = line.p + line.n;
    while ((p = (const char *)memchr(p, 'r', (size_t)(last - p))) != NULL) {
        if ((size_t)(last - p) >= 8 && memcmp(p, "remark: ", 8) == 0)
            return p;
        p++;
    }
    return NULL;
}

/*
 * The remark on a line: its label and value, or RM_COUNT when the line is not one of these remarks.  clang's
 * form has a location before "remark: " and the option after the value; llc's has the location after it.
 */
static enum rm_field rm_remark_of(struct rm_span line, struct rm_span *value)
{
    const char *at = rm_find_tag(line);
    size_t before = at ? (size_t)(at - line.p) : 0;
    /* a quoted source line that happens to hold the word is not a remark: the tag starts the line or
       follows clang's location */
    if (!at || (before && !rm_ends_with_location(line.p, before)))
        return RM_COUNT;
    struct rm_span rest = {at + 8, line.n - before - 8};
    for (int pass = 0; pass < 2; pass++) {
        struct rm_span r = rm_trim(rest);
        for (int f = 0; f < RM_COUNT; f++) {
            size_t n = rm_labels[f].length;
            if (rm_starts(r, rm_labels[f].label, n) && r.n >= n + 1 && r.p[n] == ':' &&
                (r.n == n + 1 || r.p[n + 1] == ' ')) {
                struct rm_span v = {r.p + n + 1, r.n - n - 1};
                /* clang appends the option that enabled the remark */
                static const char option[] = " [-Rpass-analysis=kernel-resource-usage]";
                size_t on = sizeof option - 1;
                if (v.n >= on && memcmp(v.p + v.n - on, option, on) == 0)
                    v.n -= on;
                *value = rm_trim(v);
                return (enum rm_field)f;
            }
        }
        /* llc: "remark: FILE:LINE:COL: LABEL: VALUE"; skip the location (the first ": " after LINE:COL) */
        if (pass == 1)
            break;
        size_t k = 0;
        while (k + 1 < rest.n && !(rest.p[k] == ':' && rest.p[k + 1] == ' ' && rm_ends_with_location(rest.p, k + 2)))
            k++;
        if (k + 1 >= rest.n)
            break;
        rest = (struct rm_span){rest.p + k + 2, rest.n - k - 2};
    }
    return RM_COUNT;
}

/* A count: decimal digits, at most `max`; -1 for a value LLVM printed as an unresolved expression (anything
   else that is not empty, e.g. "foo.num_vgpr+1" from a call it could not see through).  False: empty or
   too large. */
static bool rm_read_count(struct rm_span v, int64_t max, int64_t *out)
{
    if (!v.n)
        return false;
    int64_t x = 0;
    for (size_t i = 0; i < v.n; i++) {
        unsigned d = (unsigned)(unsigned char)v.p[i] - '0';
        if (d > 9) {
            *out = -1;
            return true;
        }
        if (x > (max - (int64_t)d) / 10)
            return false;
        x = x * 10 + d;
    }
    *out = x;
    return true;
}

/* The value of one field into the record; false if it is malformed. */
static bool rm_store(gpuocc_remarks_kernel *k, enum rm_field f, struct rm_span v)
{
    int64_t x = 0;
    if (f == RM_DYNAMIC_STACK) {
        if (v.n == 4 && memcmp(v.p, "True", 4) == 0)
            k->dynamic_stack = 1;
        else if (v.n == 5 && memcmp(v.p, "False", 5) == 0)
            k->dynamic_stack = 0;
        else
            return false;
        return true;
    }
    bool bytes = f == RM_SCRATCH || f == RM_LDS;
    if (!rm_read_count(v, bytes ? INT64_MAX : INT32_MAX, &x))
        return false;
    switch (f) {
    case RM_SGPRS: k->sgprs = (int32_t)x; break;
    case RM_VGPRS: k->vgprs = (int32_t)x; break;
    case RM_AGPRS: k->agprs = (int32_t)x; break;
    case RM_OCCUPANCY: k->occupancy = (int32_t)x; break;
    case RM_SGPR_SPILL: k->sgpr_spills = (int32_t)x; break;
    case RM_VGPR_SPILL: k->vgpr_spills = (int32_t)x; break;
    case RM_SCRATCH: k->scratch_bytes = x; break;
    default: k->lds_bytes = x; break;
    }
    return true;
}

static void rm_open_record(gpuocc_remarks_kernel *k, const char *text, struct rm_span name, int32_t line)
{
    memset(k, 0, sizeof *k);
    k->size = (uint32_t)sizeof *k;
    k->line = line;
    k->name_offset = (uint64_t)(name.p - text);
    k->name_length = name.n;
    size_t start, short_length;
    gpuocc_short_name(name.p, name.n, &start, &short_length);
    k->short_offset = k->name_offset + start;
    k->short_length = short_length;
    k->sgprs = k->vgprs = k->agprs = k->occupancy = k->sgpr_spills = k->vgpr_spills = k->dynamic_stack = -1;
    k->scratch_bytes = k->lds_bytes = -1;
}

/* Closes the open record, if any (`seen` its fields): TRUNCATED when its remarks stopped short (the line
   that opened it at fault), else stored as record *n when it fits (with the caller's stride, a later
   layout's fields zeroed) and counted. */
static int32_t rm_close_record(const gpuocc_remarks_kernel *cur, uint32_t seen, int32_t open_line,
                               gpuocc_remarks_kernel *kernels, int32_t capacity, size_t stride, int32_t *n,
                               int32_t *error_line)
{
    if (!seen)
        return GPUOCC_OK;
    if ((seen & RM_REQUIRED) != RM_REQUIRED) {
        *error_line = open_line;
        return GPUOCC_ERR_TRUNCATED;
    }
    if (kernels && *n < capacity) {
        uint8_t *dst = (uint8_t *)kernels + (size_t)*n * stride;
        memcpy(dst, cur, sizeof *cur);
        memset(dst + sizeof *cur, 0, stride - sizeof *cur);
        uint32_t size = (uint32_t)stride;
        memcpy(dst, &size, sizeof size);
    }
    if (*n == INT32_MAX)
        return GPUOCC_ERR_OVERFLOW;
    (*n)++;
    return GPUOCC_OK;
}

/* One pass: the records (up to `capacity`, with the stride of kernels[0].size) and their number; on PARSE /
   TRUNCATED the line at fault. */
static int32_t rm_scan(const char *text, size_t length, gpuocc_remarks_kernel *kernels, int32_t capacity,
                    int32_t *count, int32_t *error_line)
{
    size_t stride = kernels ? kernels->size : 0;
    int32_t n = 0, line_no = 0, open_line = 0;
    uint32_t seen = 0; /* the fields of the open record; 0 when none is open */
    gpuocc_remarks_kernel cur;
    memset(&cur, 0, sizeof cur);
    for (size_t pos = 0; pos < length;) {
        const char *nl = (const char *)memchr(text + pos, '\n', length - pos);
        size_t end = nl ? (size_t)(nl - text) : length;
        struct rm_span line = {text + pos, end - pos};
        if (line.n && line.p[line.n - 1] == '\r')
            line.n--;
        pos = end + 1;
        if (line_no == INT32_MAX)
            return GPUOCC_ERR_OVERFLOW;
        line_no++;
        struct rm_span value;
        enum rm_field f = rm_remark_of(line, &value);
        if (f == RM_COUNT)
            continue;
        if (f == RM_NAME) {
            int32_t rc = rm_close_record(&cur, seen, open_line, kernels, capacity, stride, &n, error_line);
            if (rc != GPUOCC_OK)
                return rc;
            if (!value.n) {
                *error_line = line_no;
                return GPUOCC_ERR_PARSE;
            }
            rm_open_record(&cur, text, value, line_no);
            open_line = line_no;
            seen = 1u << RM_NAME;
            continue;
        }
        if (!seen)
            continue; /* a resource line with no kernel before it (a log's tail): not ours to judge */
        if ((seen & (1u << f)) || !rm_store(&cur, f, value)) {
            *error_line = line_no; /* twice for one kernel (interleaved logs), or a malformed value */
            return GPUOCC_ERR_PARSE;
        }
        seen |= 1u << f;
    }
    int32_t rc = rm_close_record(&cur, seen, open_line, kernels, capacity, stride, &n, error_line);
    if (rc != GPUOCC_OK)
        return rc;
    *count = n;
    return n > capacity ? GPUOCC_ERR_BUFFER : GPUOCC_OK;
}

int32_t gpuocc_remarks_kernel_init(gpuocc_remarks_kernel *kernel)
{
    if (!kernel)
        return GPUOCC_ERR_NULL;
    memset(kernel, 0, sizeof *kernel);
    kernel->size = (uint32_t)sizeof *kernel;
    return GPUOCC_OK;
}

int32_t gpuocc_remarks_parse(const char *text, size_t length, gpuocc_remarks_kernel *kernels, int32_t capacity,
                             int32_t *count, int32_t *error_line)
{
    if (!text || !count || !error_line || (capacity > 0 && !kernels))
        return GPUOCC_ERR_NULL;
    if (capacity < 0)
        return GPUOCC_ERR_ARGUMENT;
    if (capacity > 0 && (kernels->size < sizeof *kernels || kernels->size > GPUOCC_STRUCT_SIZE_MAX))
        return GPUOCC_ERR_STRUCT_SIZE;
    /* A first pass that writes nothing finds any error, so a failure leaves `kernels` untouched; only then
       are the records written. */
    int32_t n = 0, line = 0;
    int32_t rc = rm_scan(text, length, NULL, 0, &n, &line);
    if (rc == GPUOCC_ERR_PARSE || rc == GPUOCC_ERR_TRUNCATED)
        *error_line = line;
    if (rc != GPUOCC_OK && rc != GPUOCC_ERR_BUFFER)
        return rc;
    if (n > 0 && capacity > 0)
        rm_scan(text, length, kernels, capacity, &n, &line);
    *count = n;
    if (n > capacity)
        return GPUOCC_ERR_BUFFER;
    *error_line = 0;
    return GPUOCC_OK;
}
