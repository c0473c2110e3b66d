/*
 * The ptxas resource report.  A line-oriented reader: "Compiling entry function 'N' for 'sm_XX'" opens a
 * kernel, "Function properties for N" and the line after it give its stack and spills, "Used ..." closes
 * it.  Every other line is ignored, so build logs can be fed whole.
 *
 * Speed: the text is looked at sixty-four bytes at a time for its line ends and the first letters of the
 * three phrases ('C', 'F', 'U'); only where such a letter occurs is the phrase compared, and a line with no
 * phrase (and no pending properties) is only counted.  A line with a phrase matters only if it contains
 * "ptxas" (checked at its start first, where ptxas puts it).  Numbers are read once, in place, and the
 * properties and "Used" lines are read first in the form ptxas prints (single spaces, ", " between the
 * items), any other spacing by the general reading after.  About 3.7 million instructions per MB of log
 * for the size query and 8.1 million for every record (two scans, below), from 7.0 and 14.7 before.
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
#define GPUOCC_PTXAS_STASH 32 /* records kept on the stack (144 bytes each); tests build it smaller */
#endif

/* [p, e) starts with the string literal `lit` (a constant length: the compare is inlined) */
#define HAS(p, e, lit) ((size_t)((e) - (p)) >= sizeof(lit) - 1 && memcmp(p, lit, sizeof(lit) - 1) == 0)

static inline bool digit(char c)
{
    return (unsigned char)((unsigned char)c - '0') < 10;
}

/* The first occurrence of `needle` (n > 0 bytes) in [p, e), or NULL.  memchr finds the candidates for
   its first byte, so most of a line is never compared.  Only the rare paths use it. */
static const char *find(const char *p, const char *e, const char *needle, size_t n)
{
    if (n > (size_t)(e - p))
        return NULL;
    const char *last = e - n;
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
#define FIND(p, e, lit) find(p, e, lit, sizeof(lit) - 1)

static inline const char *skip_space(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

#define NUMBER_LIMIT ((INT64_MAX / 4 - 9) / 10) /* a term stops before it passes INT64_MAX / 4 */

/* The rest of a+b+... after the first term, `total`, at the '+' p points at (the rare path). */
static GPUOCC_NOINLINE const char *read_sum(const char *p, const char *e, int64_t total, int64_t *out)
{
    while (p < e && *p == '+') {
        if (++p == e || !digit(*p))
            return NULL;
        int64_t v = 0;
        do {
            if (v > NUMBER_LIMIT)
                return NULL;
            v = v * 10 + (*p++ - '0');
        } while (p < e && digit(*p));
        if (v > INT64_MAX - total)
            return NULL;
        total += v;
    }
    *out = total;
    return p;
}

/* A decimal number at p, with a+b sums (old logs print "8+16 bytes smem"): where it ends, or NULL if
   there is none or it is too large (a term past INT64_MAX / 4, or a sum past INT64_MAX). */
static inline const char *read_number(const char *p, const char *e, int64_t *out)
{
    if (p == e || !digit(*p))
        return NULL;
    int64_t v = *p++ - '0';
    while (p < e && digit(*p)) {
        if (v > NUMBER_LIMIT)
            return NULL;
        v = v * 10 + (*p++ - '0');
    }
    if (p < e && *p == '+')
        return read_sum(p, e, v, out);
    *out = v;
    return p;
}

/* The text between the first pair of single quotes in [from, e); false when there is none or it is empty. */
static inline bool quoted(const char *from, const char *e, const char **name, size_t *n)
{
    const char *open = (const char *)memchr(from, '\'', (size_t)(e - from));
    if (!open)
        return false;
    const char *close = (const char *)memchr(open + 1, '\'', (size_t)(e - open - 1));
    if (!close)
        return false;
    *name = open + 1;
    *n = (size_t)(close - open - 1);
    return *n > 0;
}

/* The quoted target [p, e): "sm_90a" -> cc 90, variant 'a'; "sm_100f" -> 100, 'f'; "sm_90" -> 90, 0.  The
   variant is the letter that ends the name, 'a' (arch-specific) or 'f' (family), as ptxas -arch takes it. */
static void parse_target(const char *p, const char *e, int32_t *cc, uint32_t *variant)
{
    *cc = 0, *variant = 0;
    if (HAS(p, e, "sm_"))
        p += 3;
    else if (HAS(p, e, "compute_"))
        p += 8;
    else
        return;
    const char *digits = p;
    int32_t v = 0;
    for (; p < e && digit(*p) && v < 100000; p++)
        v = v * 10 + (*p - '0');
    *cc = v;
    if (p > digits && e - p == 1 && (*p == 'a' || *p == 'f'))
        *variant = (uint32_t)*p;
}

/* Past `word` (n bytes) after a number at p: one space before it, as ptxas prints, tried first; else any
   spacing (none included).  NULL when the word is not there. */
static inline const char *past_word(const char *p, const char *e, const char *word, size_t n)
{
    if ((size_t)(e - p) > n && *p == ' ' && memcmp(p + 1, word, n) == 0)
        return p + 1 + n;
    p = skip_space(p, e);
    return (size_t)(e - p) >= n && memcmp(p, word, n) == 0 ? p + n : NULL;
}
#define PAST(p, e, lit) past_word(p, e, lit, sizeof(lit) - 1)

/* "40 registers, used 1 barriers, 256 bytes smem, 380 bytes cmem[0], 8 bytes lmem, ..." in [p, e), from
   just after the line's first "Used ".  Each gap is tried first as ptxas prints it (one space, ", "
   between the items), then with any spacing around the words and commas: the same reading. */
static bool parse_used(const char *p, const char *e, gpuocc_compiled_kernel *k)
{
    int64_t v;
    if (!(p = read_number(p, e, &v)) || v > INT32_MAX)
        return false;
    if (!(p = PAST(p, e, "registers")))
        return false;
    k->registers = (int32_t)v;
    for (;;) {
        if (HAS(p, e, ", ") && p + 2 < e && p[2] != ' ' && p[2] != '\t') {
            p += 2;
        } else {
            if ((p = skip_space(p, e)) == e)
                return true;
            if (*p != ',')
                return false;
            p = skip_space(p + 1, e);
        }
        if (HAS(p, e, "used ")) {
            if (!(p = read_number(p + 5, e, &v)) || v > INT32_MAX)
                return false;
            if (!(p = PAST(p, e, "barriers")))
                return false;
            k->barriers = (int32_t)v;
            continue;
        }
        if (!(p = read_number(p, e, &v)))
            return false;
        if (!(p = PAST(p, e, "bytes ")))
            return false;
        /* smem, cmem[0], lmem are kept; other constant banks and the stack sizes are read and ignored */
        if (HAS(p, e, "smem"))
            k->smem_bytes = v, p += 4;
        else if (HAS(p, e, "cmem[0]"))
            k->cmem_bytes = v, p += 7;
        else if (HAS(p, e, "lmem"))
            k->lmem_bytes = v, p += 4;
        else if (!HAS(p, e, "cmem[") && !HAS(p, e, "cumulative stack size") && !HAS(p, e, "stack"))
            return false;
        if (p < e && *p != ',') { /* the rest of the item, to the next comma */
            const char *comma = (const char *)memchr(p, ',', (size_t)(e - p));
            p = comma ? comma : e;
        }
    }
}

/* "56 bytes stack frame, 52 bytes spill stores, 56 bytes spill loads"; writes only when the whole line
   reads.  The form ptxas prints (single spaces, ", " between the items) is read first; any other spacing
   by the general reading, which accepts what the first one does with the same values. */
static bool parse_properties(const char *p, const char *e, int64_t out[3])
{
    int64_t v[3];
    if (HAS(p, e, "    ")) /* ptxas's indent */
        p += 4;
    p = skip_space(p, e);
    const char *q = p;
    if ((q = read_number(q, e, &v[0])) && HAS(q, e, " bytes stack frame, ") && (q = read_number(q + 20, e, &v[1])) &&
        HAS(q, e, " bytes spill stores, ") && (q = read_number(q + 21, e, &v[2])) && HAS(q, e, " bytes spill loads")) {
        memcpy(out, v, sizeof v);
        return true;
    }
    /* the general reading: each number, its phrase, a comma between the items */
    static const char *const phrases[3] = {"bytes stack frame", "bytes spill stores", "bytes spill loads"};
    for (int i = 0; i < 3; i++) {
        if (i > 0) {
            if (p == e || *p != ',')
                return false;
            p = skip_space(p + 1, e);
        }
        size_t n = strlen(phrases[i]);
        if (!(p = read_number(p, e, &v[i])))
            return false;
        p = skip_space(p, e);
        if ((size_t)(e - p) < n || memcmp(p, phrases[i], n) != 0)
            return false;
        p = skip_space(p + n, e);
    }
    memcpy(out, v, sizeof v);
    return true;
}

/* The first "Compiling entry function", "Function properties for " and "Used " of a line (NULL where
   absent). */
struct ptxas_phrases {
    const char *compiling, *props, *used;
};

struct span {
    const char *p;
    size_t n;
};

/* The reader's state between lines, so a scan can stop after a record and another resume there. */
struct ptxas_scanner {
    const char *text;
    size_t length, pos;
    int32_t line_no, n, open_line;
    bool open, want_properties;
    struct span last_name;  /* the last "Function properties for" name... */
    int64_t last_values[3]; /* ...and its stack frame, spill stores, spill loads */
};

/* What one scan is asked for: record i goes to out[i] when lo <= i < hi; the scan pauses right after
   the record count reaches pause_at (> 0). */
struct ptxas_job {
    gpuocc_compiled_kernel *out;
    int32_t lo, hi, pause_at;
    gpuocc_compiled_kernel *scratch; /* where a record nobody asked for is read (only checked) */
};

#define PTXAS_PAUSED 1 /* internal: the scan stopped after record number `pause_at` */

/* One line, [line, end) without its line end, that holds a phrase or follows "Function properties".  0 to
   go on, PTXAS_PAUSED, or an error (*error_line set on PARSE / TRUNCATED). */
static GPUOCC_ALWAYS_INLINE int32_t ptxas_line(struct ptxas_scanner *s, const char *line, const char *end,
                                               const struct ptxas_phrases *f, const struct ptxas_job *job,
                                               int32_t *error_line)
{
    if (end > line && end[-1] == '\r')
        end--;
    if (s->line_no == INT32_MAX)
        return GPUOCC_ERR_OVERFLOW;
    s->line_no++;

    if (s->want_properties) {
        s->want_properties = false;
        if (parse_properties(line, end, s->last_values))
            return 0;
        if (FIND(line, end, "bytes stack frame")) {
            *error_line = s->line_no;
            return GPUOCC_ERR_PARSE;
        }
    }
    if (!f->compiling && !f->props && !f->used)
        return 0; /* nothing this reader looks for, whatever else the line says */
    if (!HAS(line, end, "ptxas") && !FIND(line, end, "ptxas"))
        return 0;
    const char *text = s->text;
    if (f->compiling) {
        if (s->open) {
            *error_line = s->open_line;
            return GPUOCC_ERR_TRUNCATED;
        }
        const char *name;
        size_t name_n;
        if (!quoted(f->compiling + 24, end, &name, &name_n)) { /* the phrase holds no quote */
            *error_line = s->line_no;
            return GPUOCC_ERR_PARSE;
        }
        s->open = true;
        s->open_line = s->line_no;
        if (s->n < job->lo || s->n >= job->hi)
            return 0; /* a record nobody asked for: only checked */
        /* Built in place: the stash in the first scan; in the resumed one, the caller's array, whose
           text has been read to its end without error, so this record's "Used" line follows. */
        gpuocc_compiled_kernel *cur = &job->out[s->n];
        memset(cur, 0, sizeof *cur);
        cur->name_offset = (uint64_t)(name - text);
        cur->name_length = name_n;
        size_t first, short_length;
        gpuocc_short_name(name, name_n, &first, &short_length);
        cur->short_offset = cur->name_offset + first;
        cur->short_length = short_length;
        const char *arch;
        size_t arch_n;
        if (name + name_n + 1 < end && quoted(name + name_n + 1, end, &arch, &arch_n))
            parse_target(arch, arch + arch_n, &cur->cc, &cur->arch_variant);
        cur->barriers = cur->max_regs_per_thread = -1;
        cur->cmem_bytes = cur->lmem_bytes = -1; /* until a "Used" line prints them */
        cur->stack_frame_bytes = cur->spill_store_bytes = cur->spill_load_bytes = -1;
    } else if (f->props) {
        const char *name = f->props + 24;
        size_t len = (size_t)(end - name);
        while (len && (name[len - 1] == ' ' || name[len - 1] == ':'))
            len--;
        s->last_name = (struct span){name, len};
        memset(s->last_values, 0, sizeof s->last_values);
        s->want_properties = true;
    } else if (s->open) {
        bool wanted = s->n >= job->lo && s->n < job->hi;
        gpuocc_compiled_kernel *cur = wanted ? &job->out[s->n] : job->scratch;
        if (!parse_used(f->used + 5, end, cur)) {
            *error_line = s->line_no;
            return GPUOCC_ERR_PARSE;
        }
        if (wanted) {
            if (s->last_name.p && s->last_name.n == cur->name_length &&
                memcmp(s->last_name.p, text + cur->name_offset, s->last_name.n) == 0) {
                cur->stack_frame_bytes = s->last_values[0];
                cur->spill_store_bytes = s->last_values[1];
                cur->spill_load_bytes = s->last_values[2];
            }
            cur->line = s->line_no;
        }
        if (s->n == INT32_MAX)
            return GPUOCC_ERR_OVERFLOW;
        s->n++;
        s->open = false;
        if (s->n == job->pause_at)
            return PTXAS_PAUSED;
    }
    return 0;
}

/* Bit i set where block[i] is a line end or may be the first letter of a phrase ('C', 'F', 'U'; the
   vector test also marks 'B' and 'G', which match no phrase): `n` <= 64 bytes, sixty-four at a time with
   SSE2 (x86-64 always has it), a byte at a time otherwise. */
static inline uint64_t ptxas_marks(const char *block, size_t n)
{
    uint64_t mask = 0;
    for (size_t i = 0; i < n; i++) {
        char c = block[i];
        mask |= (uint64_t)(c == '\n' || c == 'C' || c == 'F' || c == 'U') << i;
    }
    return mask;
}
#if defined(__SSE2__) && !defined(GPUOCC_NO_VECTORS)
#include <emmintrin.h>
static inline uint32_t ptxas_marks16(const char *block)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)block);
    __m128i cf = _mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(0x05)), _mm_set1_epi8(0x47)); /* B C F G */
    __m128i m = _mm_or_si128(_mm_or_si128(cf, _mm_cmpeq_epi8(v, _mm_set1_epi8('U'))),
                             _mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
    return (uint32_t)_mm_movemask_epi8(m);
}
static inline uint64_t ptxas_marks64(const char *block)
{
    return (uint64_t)ptxas_marks16(block) | (uint64_t)ptxas_marks16(block + 16) << 16 |
           (uint64_t)ptxas_marks16(block + 32) << 32 | (uint64_t)ptxas_marks16(block + 48) << 48;
}
#else
#define ptxas_marks64(block) ptxas_marks(block, 64)
#endif

/* Reads lines from s->pos, sixty-four bytes at a time, only the marked bytes looked at: a line end closes
   a line (one with neither a phrase nor a pending properties line is only counted); a phrase's first
   letter is compared with the phrase.  Returns PTXAS_PAUSED (s->pos then just past the record's line),
   GPUOCC_OK at the end of the text, or an error. */
static GPUOCC_ALWAYS_INLINE int32_t ptxas_scan_lines(struct ptxas_scanner *s, const struct ptxas_job *job,
                                                     int32_t *error_line)
{
    const char *p = s->text + s->pos, *end = s->text + s->length, *line = p;
    struct ptxas_phrases f = {NULL, NULL, NULL};
    while (p < end) {
        size_t left = (size_t)(end - p);
        uint64_t mask = left >= 64 ? ptxas_marks64(p) : ptxas_marks(p, left);
        for (; mask; mask &= mask - 1) {
            const char *q = p + gpuocc_log2_exact(mask) /* the lowest marked byte */;
            switch (*q) {
            case '\n':
                if (f.compiling || f.props || f.used || s->want_properties) {
                    int32_t rc = ptxas_line(s, line, q, &f, job, error_line);
                    if (rc) {
                        s->pos = (size_t)(q + 1 - s->text);
                        return rc;
                    }
                    f.compiling = f.props = f.used = NULL;
                } else if (s->line_no == INT32_MAX) {
                    return GPUOCC_ERR_OVERFLOW;
                } else {
                    s->line_no++;
                }
                line = q + 1;
                break;
            /* A phrase holds no line end: one that matches lies inside the current line. */
            case 'C':
                if (!f.compiling && HAS(q, end, "Compiling entry function"))
                    f.compiling = q;
                break;
            case 'F':
                if (!f.props && HAS(q, end, "Function properties for "))
                    f.props = q;
                break;
            default: /* 'U' (or a 'B' or 'G' the vector test marks too: no phrase) */
                if (!f.used && HAS(q, end, "Used "))
                    f.used = q;
                break;
            }
        }
        p += left >= 64 ? 64 : left;
    }
    if (line < end) { /* the last line, without a line end */
        int32_t rc = 0;
        if (f.compiling || f.props || f.used || s->want_properties)
            rc = ptxas_line(s, line, end, &f, job, error_line);
        else if (s->line_no == INT32_MAX)
            rc = GPUOCC_ERR_OVERFLOW;
        else
            s->line_no++;
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

/* The scan on a copy of the state in local variables (the compiler keeps them in registers), and a
   scratch record for the ones nobody asked for. */
static int32_t ptxas_scan(struct ptxas_scanner *state, const struct ptxas_job *job, int32_t *error_line)
{
    struct ptxas_scanner s = *state;
    gpuocc_compiled_kernel scratch;
    struct ptxas_job j = *job;
    j.scratch = &scratch;
    int32_t rc = ptxas_scan_lines(&s, &j, error_line);
    *state = s;
    return rc;
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
    const struct ptxas_job first = {stash, 0, kept, capacity > STASH ? STASH : 0, NULL}, rest = {NULL, 0, 0, 0, NULL};
    int32_t rc = ptxas_scan(&s, &first, &line);
    bool more = rc == PTXAS_PAUSED;
    if (more) {
        resume = s;
        rc = ptxas_scan(&s, &rest, &line);
    }
    if (rc == GPUOCC_ERR_PARSE || rc == GPUOCC_ERR_TRUNCATED)
        *error_line = line;
    if (rc != GPUOCC_OK)
        return rc;
    /* The whole text reads: only now is anything written. */
    int32_t n = s.n;
    if (n > 0 && kept > 0)
        memcpy(kernels, stash, (size_t)(n < kept ? n : kept) * sizeof *stash);
    if (more) {
        const struct ptxas_job fill = {kernels, STASH, capacity, capacity, NULL};
        ptxas_scan(&resume, &fill, &line); /* cannot fail: the same lines read above */
    }
    *count = n;
    if (n > capacity)
        return GPUOCC_ERR_BUFFER;
    *error_line = 0;
    return GPUOCC_OK;
}
