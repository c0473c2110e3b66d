/*
 * The ptxas resource report.  A line-oriented reader: "Compiling entry function 'N' for 'sm_XX'" opens a
 * kernel, "Function properties for N" and the line after it give its stack and spills, "Used ..." closes
 * it.  Every other line is ignored, so build logs can be fed whole.
 *
 * Speed: one memchr per line to its end; a line matters only if it contains "ptxas" (checked at its start
 * first, where ptxas puts it) or follows "Function properties"; on those lines one scan, eight bytes at a
 * time, looks for the first letters of the three phrases ('C', 'F', 'U'), and only where one occurs is the
 * phrase compared.  Numbers are read once, in place.
 *
 * Outputs untouched on failure, without allocating: the records of the first GPUOCC_PTXAS_STASH kernels are
 * kept on the stack while the whole text is read once.  A text with no more kernels than that (or a call
 * that asks for no more records than that, such as the size query) is read exactly once; a longer one is
 * read to its end once to find any error, then the records past the stash are filled by a second scan that
 * resumes where the stash filled and stops at the last record asked for.
 */
#include "../core/core.h"
#include "names.h"

#ifndef GPUOCC_PTXAS_STASH
#define GPUOCC_PTXAS_STASH 32 /* records kept on the stack (112 bytes each); tests build it smaller */
#endif

struct span {
    const char *p;
    size_t n;
};

/* s starts with the string literal `lit` */
#define STARTS(s, lit) ((s).n >= sizeof(lit) - 1 && memcmp((s).p, lit, sizeof(lit) - 1) == 0)
#define ADVANCE(s, k) ((s).p += (k), (s).n -= (k)) /* k is evaluated twice: a constant or a plain variable */

static inline bool digit(char c)
{
    return (unsigned char)((unsigned char)c - '0') < 10;
}

/* The first occurrence of `needle` (n > 0 bytes) in `s`, or NULL.  memchr finds the candidates for its
   first byte, so most of a line is never compared.  Only the rare paths use it. */
static const char *span_find(struct span s, const char *needle, size_t n)
{
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
#define FIND(s, lit) span_find(s, lit, sizeof(lit) - 1)

static inline struct span skip_space(struct span s)
{
    while (s.n && (*s.p == ' ' || *s.p == '\t'))
        ADVANCE(s, 1);
    return s;
}

/* A decimal number, with a+b sums (old logs print "8+16 bytes smem"); false if none or too large. */
static bool read_number(struct span *s, int64_t *out)
{
    int64_t total = 0;
    do {
        if (!s->n || !digit(*s->p))
            return false;
        int64_t v = 0;
        while (s->n && digit(*s->p)) {
            if (v > (INT64_MAX / 4 - 9) / 10)
                return false;
            v = v * 10 + (*s->p - '0');
            ADVANCE(*s, 1);
        }
        total += v;
    } while (s->n && *s->p == '+' && (ADVANCE(*s, 1), true));
    *out = total;
    return true;
}

/* The text between the first pair of single quotes at or after `from`. */
static bool quoted(struct span line, const char *from, struct span *out)
{
    const char *end = line.p + line.n;
    const char *open = (const char *)memchr(from, '\'', (size_t)(end - from));
    if (!open)
        return false;
    const char *close = (const char *)memchr(open + 1, '\'', (size_t)(end - open - 1));
    if (!close)
        return false;
    *out = (struct span){open + 1, (size_t)(close - open - 1)};
    return out->n > 0;
}

/* "sm_90a" -> 90 */
static int32_t parse_cc(struct span arch)
{
    size_t skip = STARTS(arch, "sm_") ? 3 : STARTS(arch, "compute_") ? 8 : 0;
    if (!skip)
        return 0;
    int32_t v = 0;
    for (const char *p = arch.p + skip; p < arch.p + arch.n && digit(*p) && v < 100000; p++)
        v = v * 10 + (*p - '0');
    return v;
}

/* "Used 40 registers, used 1 barriers, 256 bytes smem, 380 bytes cmem[0], 8 bytes lmem, ..." from `at`,
   the line's first "Used ". */
static bool parse_used(struct span line, const char *at, gpuocc_compiled_kernel *k)
{
    struct span s = {at + 5, (size_t)(line.p + line.n - at - 5)};
    int64_t v;
    if (!read_number(&s, &v) || v > INT32_MAX)
        return false;
    s = skip_space(s);
    if (!STARTS(s, "registers"))
        return false;
    k->registers = (int32_t)v;
    ADVANCE(s, 9);
    while ((s = skip_space(s)).n) {
        if (*s.p != ',')
            return false;
        ADVANCE(s, 1);
        s = skip_space(s);
        if (STARTS(s, "used ")) {
            ADVANCE(s, 5);
            if (!read_number(&s, &v) || v > INT32_MAX)
                return false;
            s = skip_space(s);
            if (!STARTS(s, "barriers"))
                return false;
            k->barriers = (int32_t)v;
            ADVANCE(s, 8);
            continue;
        }
        if (!read_number(&s, &v))
            return false;
        s = skip_space(s);
        if (!STARTS(s, "bytes "))
            return false;
        ADVANCE(s, 6);
        /* smem, cmem[0], lmem are kept; other constant banks and the stack sizes are read and ignored */
        if (STARTS(s, "smem"))
            k->smem_bytes = v;
        else if (STARTS(s, "cmem[0]"))
            k->cmem_bytes = v;
        else if (STARTS(s, "lmem"))
            k->lmem_bytes = v;
        else if (!STARTS(s, "cmem[") && !STARTS(s, "cumulative stack size") && !STARTS(s, "stack"))
            return false;
        /* skip to the next comma */
        const char *comma = (const char *)memchr(s.p, ',', s.n);
        size_t skip = comma ? (size_t)(comma - s.p) : s.n;
        ADVANCE(s, skip);
    }
    return true;
}

/* "56 bytes stack frame, 52 bytes spill stores, 56 bytes spill loads"; writes only when the whole line
   reads. */
static bool parse_properties(struct span s, int64_t out[3])
{
    static const struct {
        const char *word;
        size_t n;
    } words[] = {{"bytes stack frame", 17}, {"bytes spill stores", 18}, {"bytes spill loads", 17}};
    int64_t v[3];
    for (int i = 0; i < 3; i++) {
        s = skip_space(s);
        if (i > 0) {
            if (!s.n || *s.p != ',')
                return false;
            ADVANCE(s, 1);
            s = skip_space(s);
        }
        if (!read_number(&s, &v[i]))
            return false;
        s = skip_space(s);
        if (s.n < words[i].n || memcmp(s.p, words[i].word, words[i].n) != 0)
            return false;
        ADVANCE(s, words[i].n);
    }
    memcpy(out, v, sizeof v);
    return true;
}

/* The first "Compiling entry function", "Function properties for " and "Used " of a line (NULL where
   absent). */
struct ptxas_phrases {
    const char *compiling, *props, *used;
};

/* The reader's state between lines, so a scan can stop after a record and another resume there. */
struct ptxas_scanner {
    const char *text;
    size_t length, pos;
    int32_t line_no, n, open_line;
    bool open, want_properties;
    gpuocc_compiled_kernel cur;
    struct span last_name;   /* the last "Function properties for" name... */
    int64_t last_values[3];  /* ...and its stack frame, spill stores, spill loads */
};

#define PTXAS_PAUSED 1 /* internal: the scan stopped after record number `pause_at` */

/* One line (without its line end).  0 to go on, PTXAS_PAUSED, or an error (*error_line set on PARSE /
   TRUNCATED). */
static inline int32_t ptxas_line(struct ptxas_scanner *s, struct span line, const struct ptxas_phrases *f,
                                 gpuocc_compiled_kernel *out, int32_t lo, int32_t hi, int32_t pause_at,
                                 int32_t *error_line)
{
    if (line.n && line.p[line.n - 1] == '\r')
        line.n--;
    if (s->line_no == INT32_MAX)
        return GPUOCC_ERR_OVERFLOW;
    s->line_no++;

    if (s->want_properties) {
        s->want_properties = false;
        if (parse_properties(line, s->last_values))
            return 0;
        if (FIND(line, "bytes stack frame")) {
            *error_line = s->line_no;
            return GPUOCC_ERR_PARSE;
        }
    }
    if (!f->compiling && !f->props && !f->used)
        return 0; /* nothing this reader looks for, whatever else the line says */
    if (!STARTS(line, "ptxas") && !FIND(line, "ptxas"))
        return 0;
    const char *text = s->text;
    if (f->compiling) {
        if (s->open) {
            *error_line = s->open_line;
            return GPUOCC_ERR_TRUNCATED;
        }
        struct span name, arch = {NULL, 0};
        if (!quoted(line, f->compiling, &name)) {
            *error_line = s->line_no;
            return GPUOCC_ERR_PARSE;
        }
        if (name.n + 1 < (size_t)(line.p + line.n - name.p))
            quoted(line, name.p + name.n + 1, &arch);
        gpuocc_compiled_kernel *cur = &s->cur;
        cur->name_offset = (uint64_t)(name.p - text);
        cur->name_length = name.n;
        s->open = true;
        s->open_line = s->line_no;
        if (s->n < lo || s->n >= hi)
            return 0; /* a record nobody asked for: only checked, and its name kept for the line after */
        memset(cur, 0, sizeof *cur);
        cur->name_offset = (uint64_t)(name.p - text);
        cur->name_length = name.n;
        size_t first, short_length;
        gpuocc_short_name(name.p, name.n, &first, &short_length);
        cur->short_offset = cur->name_offset + first;
        cur->short_length = short_length;
        cur->cc = arch.p ? parse_cc(arch) : 0;
        cur->barriers = cur->max_regs_per_thread = -1;
        cur->cmem_bytes = cur->lmem_bytes = -1; /* until a "Used" line prints them */
        cur->stack_frame_bytes = cur->spill_store_bytes = cur->spill_load_bytes = -1;
    } else if (f->props) {
        const char *name = f->props + 24;
        size_t len = (size_t)(line.p + line.n - name);
        while (len && (name[len - 1] == ' ' || name[len - 1] == ':'))
            len--;
        s->last_name = (struct span){name, len};
        memset(s->last_values, 0, sizeof s->last_values);
        s->want_properties = true;
    } else if (s->open) {
        gpuocc_compiled_kernel *cur = &s->cur;
        if (!parse_used(line, f->used, cur)) {
            *error_line = s->line_no;
            return GPUOCC_ERR_PARSE;
        }
        if (s->n >= lo && s->n < hi) {
            if (s->last_name.p && s->last_name.n == cur->name_length &&
                memcmp(s->last_name.p, text + cur->name_offset, s->last_name.n) == 0) {
                cur->stack_frame_bytes = s->last_values[0];
                cur->spill_store_bytes = s->last_values[1];
                cur->spill_load_bytes = s->last_values[2];
            }
            cur->line = s->line_no;
            out[s->n] = *cur;
        }
        if (s->n == INT32_MAX)
            return GPUOCC_ERR_OVERFLOW;
        s->n++;
        s->open = false;
        if (s->n == pause_at)
            return PTXAS_PAUSED;
    }
    return 0;
}

/* Bit i set where block[i] is a line end or the first letter of a phrase ('C', 'F', 'U'). */
#if defined(__SSE2__) && !defined(GPUOCC_NO_VECTORS)
#include <emmintrin.h>
static inline uint32_t ptxas_marks16(const char *block)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)block);
    __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')), _mm_cmpeq_epi8(v, _mm_set1_epi8('C'))),
                             _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('F')), _mm_cmpeq_epi8(v, _mm_set1_epi8('U'))));
    return (uint32_t)_mm_movemask_epi8(m);
}
#else
static inline uint32_t ptxas_marks16(const char *block)
{
    uint32_t mask = 0;
    for (int i = 0; i < 16; i++) {
        char c = block[i];
        mask |= (uint32_t)(c == '\n' || c == 'C' || c == 'F' || c == 'U') << i;
    }
    return mask;
}
#endif

/* Reads lines from s->pos: sixteen bytes at a time, only the marked bytes looked at (a line end closes a
   line; a phrase's first letter is compared with the phrase).  Record i goes to out[i] when lo <= i < hi;
   returns PTXAS_PAUSED right after the record count reaches pause_at (> 0), GPUOCC_OK at the end of the
   text, or an error. */
static int32_t ptxas_scan(struct ptxas_scanner *s, gpuocc_compiled_kernel *out, int32_t lo, int32_t hi,
                          int32_t pause_at, int32_t *error_line)
{
    const char *p = s->text + s->pos, *end = s->text + s->length, *line = p;
    struct ptxas_phrases f = {NULL, NULL, NULL};
    while (p < end) {
        uint32_t mask;
        if (end - p >= 16) {
            mask = ptxas_marks16(p);
        } else {
            mask = 0;
            for (int i = 0; i < end - p; i++)
                mask |= (uint32_t)(p[i] == '\n' || p[i] == 'C' || p[i] == 'F' || p[i] == 'U') << i;
        }
        for (; mask; mask &= mask - 1) {
            const char *q = p + gpuocc_log2_exact(mask) /* the lowest marked byte */;
            size_t left = (size_t)(end - q);
            switch (*q) {
            case '\n': {
                int32_t rc = ptxas_line(s, (struct span){line, (size_t)(q - line)}, &f, out, lo, hi, pause_at,
                                        error_line);
                line = q + 1;
                s->pos = (size_t)(line - s->text);
                if (rc)
                    return rc;
                f.compiling = f.props = f.used = NULL;
                break;
            }
            /* A phrase holds no line end: one that matches lies inside the current line. */
            case 'C':
                if (!f.compiling && left >= 24 && memcmp(q, "Compiling entry function", 24) == 0)
                    f.compiling = q;
                break;
            case 'F':
                if (!f.props && left >= 24 && memcmp(q, "Function properties for ", 24) == 0)
                    f.props = q;
                break;
            default: /* 'U' */
                if (!f.used && left >= 5 && memcmp(q, "Used ", 5) == 0)
                    f.used = q;
                break;
            }
        }
        p += end - p >= 16 ? 16 : end - p;
    }
    if (line < end) { /* the last line, without a line end */
        int32_t rc = ptxas_line(s, (struct span){line, (size_t)(end - line)}, &f, out, lo, hi, pause_at, error_line);
        s->pos = s->length;
        if (rc)
            return rc;
    }
    if (s->open) {
        *error_line = s->open_line;
        return GPUOCC_ERR_TRUNCATED;
    }
    return GPUOCC_OK;
}

int32_t gpuocc_ptxas_parse(const char *text, size_t length, gpuocc_compiled_kernel *kernels, int32_t capacity,
                           int32_t *count, int32_t *error_line)
{
    if (!text || !count || !error_line || (capacity > 0 && !kernels))
        return GPUOCC_ERR_NULL;
    if (capacity < 0)
        return GPUOCC_ERR_ARGUMENT;
    enum { STASH = GPUOCC_PTXAS_STASH };
    gpuocc_compiled_kernel stash[STASH];
    struct ptxas_scanner s = {.text = text, .length = length};
    struct ptxas_scanner resume = s;
    int32_t kept = capacity < STASH ? capacity : STASH, line = 0;
    /* The one pass: the first records into the stash; if more are wanted than it holds, remember where
       it filled and read on, counting, to the end. */
    int32_t rc = ptxas_scan(&s, stash, 0, kept, capacity > STASH ? STASH : 0, &line);
    bool more = rc == PTXAS_PAUSED;
    if (more) {
        resume = s;
        rc = ptxas_scan(&s, NULL, 0, 0, 0, &line);
    }
    if (rc == GPUOCC_ERR_PARSE || rc == GPUOCC_ERR_TRUNCATED)
        *error_line = line;
    if (rc != GPUOCC_OK)
        return rc;
    /* The whole text reads: only now is anything written. */
    int32_t n = s.n;
    if (n > 0 && kept > 0)
        memcpy(kernels, stash, (size_t)(n < kept ? n : kept) * sizeof *stash);
    if (more)
        ptxas_scan(&resume, kernels, STASH, capacity, capacity, &line); /* cannot fail: the same lines read above */
    *count = n;
    if (n > capacity)
        return GPUOCC_ERR_BUFFER;
    *error_line = 0;
    return GPUOCC_OK;
}
