/*
 * The ptxas resource report.  A line-oriented reader: "Compiling entry function 'N' for 'sm_XX'" opens a
 * kernel, "Function properties for N" and the line after it give its stack and spills, "Used ..." closes
 * it.  Every other line is ignored, so build logs can be fed whole.
 */
#include "../core/internal.h"

#include <ctype.h>

struct span {
    const char *p;
    size_t n;
};

static inline bool span_starts(struct span s, const char *prefix)
{
    size_t n = strlen(prefix);
    return s.n >= n && memcmp(s.p, prefix, n) == 0;
}

/* The first occurrence of `needle` (not empty) in `s`, or NULL.  memchr finds the candidates for its
   first byte (a vectorised scan in every libc), so most of a line is never compared. */
static inline const char *span_find(struct span s, const char *needle)
{
    size_t n = strlen(needle);
    if (n > s.n)
        return NULL;
    const char *p = s.p, *last = s.p + (s.n - n);
    while (p <= last) {
        p = (const char *)memchr(p, needle[0], (size_t)(last - p) + 1);
        if (!p)
            return NULL;
        if (memcmp(p, needle, n) == 0)
            return p;
        p++;
    }
    return NULL;
}

static struct span skip_space(struct span s)
{
    while (s.n && (*s.p == ' ' || *s.p == '\t'))
        s.p++, s.n--;
    return s;
}

/* A decimal number, with a+b sums (old logs print "8+16 bytes smem"); false if none or too large. */
static bool read_number(struct span *s, int64_t *out)
{
    int64_t total = 0;
    do {
        if (!s->n || !isdigit((unsigned char)*s->p))
            return false;
        int64_t v = 0;
        while (s->n && isdigit((unsigned char)*s->p)) {
            if (v > (INT64_MAX / 4 - 9) / 10)
                return false;
            v = v * 10 + (*s->p - '0');
            s->p++, s->n--;
        }
        total += v;
    } while (s->n && *s->p == '+' && (s->p++, s->n--, true));
    *out = total;
    return true;
}

/* The text between the first pair of single quotes after `from`. */
static bool quoted(struct span line, const char *from, struct span *out)
{
    if (!from)
        return false;
    struct span rest = {from, (size_t)(line.p + line.n - from)};
    const char *open = span_find(rest, "'");
    if (!open)
        return false;
    rest = (struct span){open + 1, (size_t)(line.p + line.n - open - 1)};
    const char *close = span_find(rest, "'");
    if (!close)
        return false;
    *out = (struct span){open + 1, (size_t)(close - open - 1)};
    return out->n > 0;
}

/* "sm_90a" -> 90 */
static int32_t parse_cc(struct span arch)
{
    if (!span_starts(arch, "sm_") && !span_starts(arch, "compute_"))
        return 0;
    const char *p = arch.p + (arch.p[0] == 's' ? 3 : 8);
    int32_t v = 0;
    for (; p < arch.p + arch.n && isdigit((unsigned char)*p) && v < 100000; p++)
        v = v * 10 + (*p - '0');
    return v;
}

/* "Used 40 registers, used 1 barriers, 256 bytes smem, 380 bytes cmem[0], 8 bytes lmem, ..." */
static bool parse_used(struct span s, gpuocc_compiled_kernel *k)
{
    const char *at = span_find(s, "Used ");
    s = (struct span){at + 5, (size_t)(s.p + s.n - at - 5)};
    int64_t v;
    if (!read_number(&s, &v) || v > INT32_MAX)
        return false;
    s = skip_space(s);
    if (!span_starts(s, "registers"))
        return false;
    k->registers = (int32_t)v;
    s.p += 9, s.n -= 9;
    while ((s = skip_space(s)).n) {
        if (*s.p != ',')
            return false;
        s.p++, s.n--;
        s = skip_space(s);
        if (span_starts(s, "used ")) {
            s.p += 5, s.n -= 5;
            if (!read_number(&s, &v) || v > INT32_MAX)
                return false;
            s = skip_space(s);
            if (!span_starts(s, "barriers"))
                return false;
            k->barriers = (int32_t)v;
            s.p += 8, s.n -= 8;
            continue;
        }
        if (!read_number(&s, &v))
            return false;
        s = skip_space(s);
        if (!span_starts(s, "bytes "))
            return false;
        s.p += 6, s.n -= 6;
        static const struct {
            const char *word;
            size_t field;
        } fields[] = {
            {"smem", offsetof(gpuocc_compiled_kernel, smem_bytes)},
            {"cmem[0]", offsetof(gpuocc_compiled_kernel, cmem_bytes)},
            {"lmem", offsetof(gpuocc_compiled_kernel, lmem_bytes)},
            {"cmem[", 0}, /* other constant banks: read and ignored */
            {"cumulative stack size", 0},
            {"stack", 0},
        };
        size_t i = 0;
        while (i < sizeof fields / sizeof fields[0] && !span_starts(s, fields[i].word))
            i++;
        if (i == sizeof fields / sizeof fields[0])
            return false;
        if (fields[i].field)
            memcpy((char *)k + fields[i].field, &v, sizeof v);
        /* skip to the next comma */
        while (s.n && *s.p != ',')
            s.p++, s.n--;
    }
    return true;
}

/* "56 bytes stack frame, 52 bytes spill stores, 56 bytes spill loads" */
static bool parse_properties(struct span s, int64_t *stack, int64_t *stores, int64_t *loads)
{
    int64_t *out[] = {stack, stores, loads};
    const char *words[] = {"bytes stack frame", "bytes spill stores", "bytes spill loads"};
    for (int i = 0; i < 3; i++) {
        s = skip_space(s);
        if (i > 0) {
            if (!s.n || *s.p != ',')
                return false;
            s.p++, s.n--;
            s = skip_space(s);
        }
        if (!read_number(&s, out[i]))
            return false;
        s = skip_space(s);
        if (!span_starts(s, words[i]))
            return false;
        s.p += strlen(words[i]), s.n -= strlen(words[i]);
    }
    return true;
}

struct properties {
    struct span name;
    int64_t stack, stores, loads;
};


/* One pass over the text: the records (up to `capacity` of them into `kernels`), their number, and on
   PARSE / TRUNCATED the line at fault. */
static int32_t scan(const char *text, size_t length, gpuocc_compiled_kernel *kernels, int32_t capacity,
                    int32_t *count, int32_t *error_line)
{
    int32_t n = 0, line_no = 0;
    bool open = false, want_properties = false;
    int32_t open_line = 0;
    gpuocc_compiled_kernel cur;
    struct properties last = {{NULL, 0}, 0, 0, 0};
    for (size_t pos = 0; pos < length;) {
        const char *nl = (const char *)memchr(text + pos, '\n', length - pos);
        size_t end = nl ? (size_t)(nl - text) : length;
        struct span line = {text + pos, end - pos};
        if (line.n && line.p[line.n - 1] == '\r')
            line.n--;
        pos = end + 1;
        if (line_no == INT32_MAX)
            return GPUOCC_ERR_OVERFLOW;
        line_no++;

        if (want_properties) {
            want_properties = false;
            if (span_find(line, "bytes stack frame")) {
                if (!parse_properties(line, &last.stack, &last.stores, &last.loads)) {
                    *error_line = line_no;
                    return GPUOCC_ERR_PARSE;
                }
                continue;
            }
        }
        if (!span_find(line, "ptxas"))
            continue;
        const char *compiling = span_find(line, "Compiling entry function");
        const char *props = span_find(line, "Function properties for ");
        const char *used = span_find(line, "Used ");
        if (compiling) {
            if (open) {
                *error_line = open_line;
                return GPUOCC_ERR_TRUNCATED;
            }
            struct span name, arch = {NULL, 0};
            if (!quoted(line, compiling, &name)) {
                *error_line = line_no;
                return GPUOCC_ERR_PARSE;
            }
            quoted(line, name.p + name.n + 1, &arch);
            memset(&cur, 0, sizeof cur);
            cur.name_offset = (uint64_t)(name.p - text);
            cur.name_length = name.n;
            size_t start, short_length;
            gpuocc_short_name(name.p, name.n, &start, &short_length);
            cur.short_offset = cur.name_offset + start;
            cur.short_length = short_length;
            cur.cc = arch.p ? parse_cc(arch) : 0;
            cur.barriers = cur.max_regs_per_thread = -1;
            cur.cmem_bytes = cur.lmem_bytes = -1; /* until a "Used" line prints them */
            cur.stack_frame_bytes = cur.spill_store_bytes = cur.spill_load_bytes = -1;
            open = true;
            open_line = line_no;
        } else if (props) {
            const char *start = props + strlen("Function properties for ");
            size_t len = (size_t)(line.p + line.n - start);
            while (len && (start[len - 1] == ' ' || start[len - 1] == ':'))
                len--;
            last = (struct properties){{start, len}, 0, 0, 0};
            want_properties = true;
        } else if (used && open) {
            if (!parse_used(line, &cur)) {
                *error_line = line_no;
                return GPUOCC_ERR_PARSE;
            }
            struct span name = {text + cur.name_offset, (size_t)cur.name_length};
            if (last.name.p && last.name.n == name.n && memcmp(last.name.p, name.p, name.n) == 0) {
                cur.stack_frame_bytes = last.stack;
                cur.spill_store_bytes = last.stores;
                cur.spill_load_bytes = last.loads;
            }
            cur.line = line_no;
            if (kernels && n < capacity)
                kernels[n] = cur;
            if (n == INT32_MAX)
                return GPUOCC_ERR_OVERFLOW;
            n++;
            open = false;
        }
    }
    if (open) {
        *error_line = open_line;
        return GPUOCC_ERR_TRUNCATED;
    }
    *count = n;
    return n > capacity ? GPUOCC_ERR_BUFFER : GPUOCC_OK;
}

int32_t gpuocc_ptxas_parse(const char *text, size_t length, gpuocc_compiled_kernel *kernels, int32_t capacity,
                           int32_t *count, int32_t *error_line)
{
    if (!text || !count || !error_line || (capacity > 0 && !kernels))
        return GPUOCC_ERR_NULL;
    if (capacity < 0)
        return GPUOCC_ERR_ARGUMENT;
    /* A first pass that writes nothing finds any error, so a failure leaves `kernels` untouched; only then
       are the records written. */
    int32_t n = 0, line = 0;
    int32_t rc = scan(text, length, NULL, 0, &n, &line);
    if (rc == GPUOCC_ERR_PARSE || rc == GPUOCC_ERR_TRUNCATED)
        *error_line = line;
    if (rc != GPUOCC_OK && rc != GPUOCC_ERR_BUFFER)
        return rc;
    if (n > 0 && capacity > 0)
        scan(text, length, kernels, capacity, &n, &line);
    *count = n;
    if (n > capacity)
        return GPUOCC_ERR_BUFFER;
    *error_line = 0;
    return GPUOCC_OK;
}
