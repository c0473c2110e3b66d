/*
 * Intel zebin (ELF64, e_machine EM_INTELGT = 205), as ocloc and the compute runtime write it: each kernel's
 * resources from the .ze_info section, YAML text whose keys are Intel's zeinfo specification
 * (intel-graphics-compiler, IGC/ZEBinWriter/zebin/spec/zeinfo.md):
 *
 *   kernels:
 *     - name:            reduce
 *       execution_env:
 *         barrier_count:   1          optional, default 0
 *         grf_count:       128        required
 *         simd_size:       16         required: 1, 8, 16 or 32
 *         slm_size:        4096       optional, default 0 (bytes)
 *         spill_size:      N          optional (bytes)
 *         required_work_group_size: [ 128, 1, 1 ]   optional, default [ 0, 0, 0 ]: none
 *       per_thread_memory_buffers:    optional
 *         - type:            scratch  global, scratch or slm
 *           usage:           single_space
 *           size:            32768    required (bytes)
 *           is_simt_thread:  true     type global: per work-item (true) or per hardware thread
 *
 * and the product family from the NT_INTELGT_PRODUCT_FAMILY note (owner "IntelGT", type 1, a 4-byte word)
 * of .note.intelgt.compat (zebin spec, elf.md).  The YAML is read as the block-style subset those files
 * use, one line at a time: a line's indentation and a leading "- " place it under the open keys before it
 * (a stack of at most ZE_DEPTH_MAX); "key: value" sets a field where the path is one of the above, and any
 * other key, flow value or scalar line is skipped.  Values are plain or quoted without escapes; the
 * integers read are decimal in [0, INT32_MAX] (the spec's int32).  required_work_group_size is the spec's
 * int32x3: exactly three such integers, a flow sequence on its line or a block sequence of three scalar
 * items; all zero is none, all positive is the launch bound x*y*z (at most INT32_MAX), anything else
 * (a missing, extra, empty, nested or unreadable value, a zero beside a non-zero) breaks the rules.  Every line is looked at once, so the
 * cost is linear in the section's size (and each note range is walked once, however many section headers
 * name it: gpuocc_note_once); a kernel without its required keys, or a value read that breaks
 * these rules, is GPUOCC_ERR_FORMAT, the line at fault in the sink's fault (GPUOCC_BINARY_FAULT_YAML: the
 * line, or for a kernel without its keys the line that opens it).
 */
#include "zebin.h"

#include "../core/core.h"
#include "names.h"

#define ZE_DEPTH_MAX 32
#define NT_INTELGT_PRODUCT_FAMILY 1u

enum ze_kind { ZE_OTHER, ZE_KERNELS, ZE_KERNEL, ZE_ENV, ZE_BUFFERS, ZE_BUFFER, ZE_WG_SIZE, ZE_WG_ITEM };

struct ze_level {
    size_t col;
    bool item; /* a "- " sequence item, else an open key */
    enum ze_kind kind;
    int64_t line;     /* the line that opened it, 1-based */
    const char *text; /* and where that line starts */
};

struct ze_buffer {
    int type; /* 0 not given, 1 global, 2 scratch, 3 slm */
    int64_t size;
    int32_t simt;
};

struct ze_reader {
    const uint8_t *origin;
    struct gpuocc_kernel_sink *sink;
    uint32_t product_family;
    struct ze_level stack[ZE_DEPTH_MAX];
    int depth;
    int64_t line;           /* the line being read, 1-based, and where it starts */
    const char *text;
    gpuocc_binary_kernel k; /* the kernel being read */
    const char *name;
    size_t name_len;
    bool have_simd, have_grf;
    struct ze_buffer buffer;
    int64_t wg_size[3]; /* a block-style required_work_group_size's items so far */
    int wg_items;
};

static bool is(const char *s, size_t n, const char *word)
{
    return n == strlen(word) && memcmp(s, word, n) == 0;
}

/* A decimal count in [0, INT32_MAX]. */
static bool count_value(const char *s, size_t n, int64_t *out)
{
    if (n == 0 || n > 10)
        return false;
    int64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    if (v > INT32_MAX)
        return false;
    *out = v;
    return true;
}

/* A value: quotes taken off (no escapes), or a plain one cut at a comment; trailing blanks dropped. */
static void value_of(const char **s, size_t *n)
{
    const char *v = *s;
    size_t len = *n;
    if (len >= 1 && (v[0] == '\'' || v[0] == '"')) {
        const char *close = (const char *)memchr(v + 1, v[0], len - 1);
        if (close) {
            *s = v + 1;
            *n = (size_t)(close - v - 1);
            return;
        }
    }
    for (size_t i = 1; i < len; i++)
        if (v[i] == '#' && (v[i - 1] == ' ' || v[i - 1] == '\t')) {
            len = i;
            break;
        }
    while (len > 0 && (v[len - 1] == ' ' || v[len - 1] == '\t'))
        len--;
    *n = len;
}

/* The launch bound of required_work_group_size's three sizes: all zero is none (0), all positive their
   product, at most INT32_MAX; a zero beside a non-zero size is no work-group (the runtime refuses it). */
static bool wg_bound(const int64_t size[3], int32_t *out)
{
    if (size[0] == 0 && size[1] == 0 && size[2] == 0) {
        *out = 0;
        return true;
    }
    int64_t product = 1;
    for (int i = 0; i < 3; i++) {
        product *= size[i]; /* both at most INT32_MAX: no overflow */
        if (size[i] == 0 || product > INT32_MAX)
            return false;
    }
    *out = (int32_t)product;
    return true;
}

/* required_work_group_size as a flow sequence, "[ x, y, z ]" whole on its line: three decimal counts. */
static int32_t wg_flow(struct ze_reader *r, const char *v, size_t n)
{
    if (n < 2 || v[0] != '[' || v[n - 1] != ']')
        return GPUOCC_ERR_FORMAT;
    int64_t size[3];
    int items = 0;
    for (size_t at = 1; at < n; items++) {
        size_t end = at;
        while (end < n - 1 && v[end] != ',')
            end++;
        size_t from = at, to = end;
        while (from < to && (v[from] == ' ' || v[from] == '\t'))
            from++;
        while (to > from && (v[to - 1] == ' ' || v[to - 1] == '\t'))
            to--;
        if (items == 3 || !count_value(v + from, to - from, &size[items]))
            return GPUOCC_ERR_FORMAT; /* an empty, nested, quoted or fourth value */
        at = end + 1;
    }
    int32_t bound;
    if (items != 3 || !wg_bound(size, &bound))
        return GPUOCC_ERR_FORMAT;
    r->k.max_threads_per_block = bound;
    return GPUOCC_OK;
}

/* One item of a block-style required_work_group_size ("- 128"), its text after the "- " (not empty). */
static int32_t wg_item(struct ze_reader *r, const char *s, size_t n)
{
    if (s[0] == '\'' || s[0] == '"')
        return GPUOCC_ERR_FORMAT; /* a string, not the spec's int32 */
    value_of(&s, &n);
    if (r->wg_items == 3 || !count_value(s, n, &r->wg_size[r->wg_items]))
        return GPUOCC_ERR_FORMAT;
    r->wg_items++;
    return GPUOCC_OK;
}

/* A block-style required_work_group_size as it closes: three items. */
static int32_t wg_end(struct ze_reader *r)
{
    int32_t bound;
    if (r->wg_items != 3 || !wg_bound(r->wg_size, &bound))
        return GPUOCC_ERR_FORMAT;
    r->k.max_threads_per_block = bound;
    return GPUOCC_OK;
}

static void kernel_start(struct ze_reader *r)
{
    gpuocc_binary_kernel *b = &r->k;
    memset(b, 0, sizeof *b);
    b->size = (uint32_t)sizeof *b;
    b->vendor = GPUOCC_VENDOR_INTEL;
    b->linked = 1; /* a zebin is what the runtime loads (ET_EXEC) */
    b->registers = -1;
    b->cmem_bytes = b->stack_frame_bytes = -1;
    b->max_regs_per_thread = -1;
    b->spill_bytes = -1;
    b->product_family = r->product_family;
    r->name = NULL;
    r->name_len = 0;
    r->have_simd = r->have_grf = false;
}

static int32_t kernel_end(struct ze_reader *r)
{
    gpuocc_binary_kernel *b = &r->k;
    bool simd_ok = b->sub_group == 1 || b->sub_group == 8 || b->sub_group == 16 || b->sub_group == 32;
    if (!r->name || r->name_len == 0 || !r->have_simd || !simd_ok || !r->have_grf || b->grf <= 0)
        return GPUOCC_ERR_FORMAT;
    size_t start, short_len;
    gpuocc_short_name(r->name, r->name_len, &start, &short_len);
    b->name_offset = (uint64_t)((const uint8_t *)r->name - r->origin);
    b->name_length = r->name_len;
    b->short_offset = b->name_offset + start;
    b->short_length = short_len;
    b->smem_bytes = b->slm_bytes; /* the vendor-neutral view */
    return gpuocc_sink_put_record(r->sink, b);
}

static int32_t buffer_end(struct ze_reader *r)
{
    const struct ze_buffer *f = &r->buffer;
    gpuocc_binary_kernel *b = &r->k;
    if (f->type == 0 || f->size < 0)
        return GPUOCC_ERR_FORMAT;
    if (f->type == 2) /* each at most INT32_MAX, and at most one per line: no overflow before 2^32 lines */
        b->scratch_per_thread_bytes += f->size;
    else if (f->type == 1) {
        b->private_bytes += f->size;
        b->private_per_work_item = f->simt > 0;
    }
    return GPUOCC_OK;
}

/* A kernel or buffer checked as it closes: a failure is the line that opened it. */
static int32_t pop(struct ze_reader *r)
{
    const struct ze_level *level = &r->stack[--r->depth];
    int32_t rc = level->kind == ZE_KERNEL    ? kernel_end(r)
                 : level->kind == ZE_BUFFER  ? buffer_end(r)
                 : level->kind == ZE_WG_SIZE ? wg_end(r)
                                             : GPUOCC_OK;
    if (rc == GPUOCC_ERR_FORMAT)
        r->line = level->line, r->text = level->text;
    return rc;
}

/* Close the levels that a line at `col` ends: deeper ones, and (for a sequence item) a sibling item. */
static int32_t close_to(struct ze_reader *r, size_t col, bool item)
{
    while (r->depth > 0) {
        const struct ze_level *top = &r->stack[r->depth - 1];
        if (!(top->col > col || (top->col == col && (top->item || !item))))
            break;
        int32_t rc = pop(r);
        if (rc != GPUOCC_OK)
            return rc;
    }
    return GPUOCC_OK;
}

static int32_t push(struct ze_reader *r, size_t col, bool item, enum ze_kind kind)
{
    if (r->depth == ZE_DEPTH_MAX)
        return GPUOCC_ERR_FORMAT;
    r->stack[r->depth++] = (struct ze_level){col, item, kind, r->line, r->text};
    if (kind == ZE_KERNEL)
        kernel_start(r);
    else if (kind == ZE_BUFFER)
        r->buffer = (struct ze_buffer){0, -1, -1};
    else if (kind == ZE_WG_SIZE)
        r->wg_items = 0;
    return GPUOCC_OK;
}

static enum ze_kind parent(const struct ze_reader *r)
{
    return r->depth > 0 ? r->stack[r->depth - 1].kind : ZE_OTHER;
}

/* Whether a line at `col` that is no sequence item falls inside a block-style required_work_group_size (the
   innermost open level indented less than it is that key or one of its items): no such line is a size. */
static bool inside_wg(const struct ze_reader *r, size_t col)
{
    for (int i = r->depth - 1; i >= 0; i--)
        if (r->stack[i].col < col)
            return r->stack[i].kind == ZE_WG_SIZE || r->stack[i].kind == ZE_WG_ITEM;
    return false;
}

/* "key: value" under the open levels; `quoted`: the value was a quoted scalar (a string, never a sequence). */
static int32_t field(struct ze_reader *r, const char *key, size_t key_len, const char *v, size_t n, bool quoted)
{
    enum ze_kind at = parent(r);
    gpuocc_binary_kernel *b = &r->k;
    int64_t x;
    if (at == ZE_ENV && is(key, key_len, "required_work_group_size")) {
        return quoted ? GPUOCC_ERR_FORMAT : wg_flow(r, v, n);
    } else if (at == ZE_KERNEL && is(key, key_len, "name")) {
        r->name = v;
        r->name_len = n;
    } else if (at == ZE_ENV) {
        int32_t *i32 = is(key, key_len, "simd_size")       ? &b->sub_group
                       : is(key, key_len, "grf_count")     ? &b->grf
                       : is(key, key_len, "barrier_count") ? &b->barriers
                                                           : NULL;
        int64_t *i64 = is(key, key_len, "slm_size") ? &b->slm_bytes : is(key, key_len, "spill_size") ? &b->spill_bytes
                                                                                                     : NULL;
        if (!i32 && !i64)
            return GPUOCC_OK;
        if (!count_value(v, n, &x))
            return GPUOCC_ERR_FORMAT;
        if (i32)
            *i32 = (int32_t)x;
        else
            *i64 = x;
        r->have_simd |= i32 == &b->sub_group;
        r->have_grf |= i32 == &b->grf;
    } else if (at == ZE_BUFFER) {
        if (is(key, key_len, "type")) {
            r->buffer.type = is(v, n, "global") ? 1 : is(v, n, "scratch") ? 2 : is(v, n, "slm") ? 3 : -1;
            if (r->buffer.type < 0)
                return GPUOCC_ERR_FORMAT;
        } else if (is(key, key_len, "size")) {
            if (!count_value(v, n, &x))
                return GPUOCC_ERR_FORMAT;
            r->buffer.size = x;
        } else if (is(key, key_len, "is_simt_thread")) {
            if (!is(v, n, "true") && !is(v, n, "false"))
                return GPUOCC_ERR_FORMAT;
            r->buffer.simt = is(v, n, "true");
        }
    }
    return GPUOCC_OK;
}

/* One line [s, s + n), its terminator dropped. */
static int32_t line(struct ze_reader *r, const char *s, size_t n)
{
    if (n > 0 && s[n - 1] == '\r')
        n--;
    size_t col = 0;
    while (col < n && s[col] == ' ')
        col++;
    if (col == n || s[col] == '#')
        return GPUOCC_OK; /* blank, or a comment */
    if (s[col] == '\t')
        return GPUOCC_ERR_FORMAT; /* YAML indents with spaces only */
    if (col == 0 && n >= 3 && (memcmp(s, "---", 3) == 0 || memcmp(s, "...", 3) == 0))
        return GPUOCC_OK; /* document markers */
    int32_t rc;
    if (s[col] == '-' && (col + 1 == n || s[col + 1] == ' ')) { /* a sequence item */
        if ((rc = close_to(r, col, true)) != GPUOCC_OK)
            return rc;
        enum ze_kind up = parent(r);
        if (up == ZE_WG_ITEM)
            return GPUOCC_ERR_FORMAT; /* a sequence inside a size */
        enum ze_kind kind = up == ZE_KERNELS  ? ZE_KERNEL
                            : up == ZE_BUFFERS ? ZE_BUFFER
                            : up == ZE_WG_SIZE ? ZE_WG_ITEM
                                               : ZE_OTHER;
        if ((rc = push(r, col, true, kind)) != GPUOCC_OK)
            return rc;
        col++;
        while (col < n && s[col] == ' ')
            col++;
        if (col == n || s[col] == '#')
            return kind == ZE_WG_ITEM ? GPUOCC_ERR_FORMAT : GPUOCC_OK; /* a size without its value */
        if (kind == ZE_WG_ITEM)
            return wg_item(r, s + col, n - col);
    }
    if (inside_wg(r, col))
        return GPUOCC_ERR_FORMAT; /* a mapping or a continued scalar where a size's items go */
    size_t colon = col;
    while (colon < n && !(s[colon] == ':' && (colon + 1 == n || s[colon + 1] == ' ')))
        colon++;
    if (colon == n || colon == col || s[col] == '-' || s[col] == '[' || s[col] == '{')
        return GPUOCC_OK; /* a scalar, a nested sequence or a flow collection: nothing read here */
    const char *key = s + col, *v = s + colon + 1;
    size_t key_len = colon - col, v_len = n - colon - 1;
    value_of(&key, &key_len);
    while (v_len > 0 && *v == ' ')
        v++, v_len--;
    if ((rc = close_to(r, col, false)) != GPUOCC_OK)
        return rc;
    bool quoted = v_len > 0 && (*v == '\'' || *v == '"');
    value_of(&v, &v_len);
    if (v_len > 0)
        return field(r, key, key_len, v, v_len, quoted);
    enum ze_kind up = parent(r), kind = ZE_OTHER;
    if (r->depth == 0 && col == 0 && is(key, key_len, "kernels"))
        kind = ZE_KERNELS;
    else if (up == ZE_KERNEL && is(key, key_len, "execution_env"))
        kind = ZE_ENV;
    else if (up == ZE_KERNEL && is(key, key_len, "per_thread_memory_buffers"))
        kind = ZE_BUFFERS;
    else if (up == ZE_ENV && is(key, key_len, "required_work_group_size"))
        kind = ZE_WG_SIZE; /* its items on the lines below */
    return push(r, col, false, kind);
}

static int32_t read_lines(struct ze_reader *r, const char *text, size_t n)
{
    int32_t rc;
    for (size_t pos = 0; pos < n; r->line++) {
        const char *end = (const char *)memchr(text + pos, '\n', n - pos);
        size_t len = end ? (size_t)(end - (text + pos)) : n - pos;
        r->text = text + pos;
        if (memchr(text + pos, 0, len)) /* text: a NUL ends nothing here */
            return GPUOCC_ERR_FORMAT;
        if ((rc = line(r, text + pos, len)) != GPUOCC_OK)
            return rc;
        pos += len + 1;
    }
    while (r->depth > 0)
        if ((rc = pop(r)) != GPUOCC_OK)
            return rc;
    return GPUOCC_OK;
}

/* The kernels of the .ze_info text; a failure names its line in the sink's fault. */
static int32_t read_zeinfo(struct ze_reader *r, const char *text, size_t n)
{
    r->line = 1;
    r->text = text;
    int32_t rc = read_lines(r, text, n);
    if (rc == GPUOCC_ERR_FORMAT)
        r->sink->fault = (struct gpuocc_fault){GPUOCC_BINARY_FAULT_YAML, r->line > INT32_MAX ? INT32_MAX : (int32_t)r->line,
                                               -1, (const uint8_t *)r->text};
    return rc;
}

#define FAMILY_FOUND ((uint64_t)1 << 32)

/* The product family of one .note.intelgt.compat section's notes, the last one's (a gpuocc_note_walk):
   FAMILY_FOUND | family, or 0 when none. */
static int32_t product_family(const uint8_t *d, uint64_t size, void *ctx, uint64_t *out)
{
    (void)ctx;
    *out = 0;
    uint64_t pos = 0;
    struct gpuocc_note note;
    int32_t more;
    while ((more = gpuocc_note_next(d, size, &pos, &note)) == 1)
        if (note.type == NT_INTELGT_PRODUCT_FAMILY && note.namesz == 8 && memcmp(note.name, "IntelGT", 8) == 0 &&
            note.descsz == 4)
            *out = FAMILY_FOUND | gpuocc_le32(note.desc);
    if (more < 0)
        return more;
    return GPUOCC_OK;
}

int32_t gpuocc_zebin_read(const uint8_t *origin, const uint8_t *p, size_t n, struct gpuocc_kernel_sink *sink)
{
    struct gpuocc_elf elf;
    int32_t rc = gpuocc_elf_open(p, n, &elf);
    if (rc != GPUOCC_OK)
        return rc;
    if (elf.machine != GPUOCC_EM_INTELGT)
        return GPUOCC_ERR_FORMAT;
    const uint8_t *zeinfo = NULL;
    uint64_t zeinfo_len = 0;
    uint32_t family = 0;
    struct gpuocc_note_memo notes = {.count = 0};
    for (uint32_t i = 1; i < elf.shnum; i++) {
        struct gpuocc_section s;
        gpuocc_elf_section(&elf, i, &s);
        const char *name;
        size_t length;
        if (s.type == GPUOCC_SHT_NOBITS || gpuocc_elf_section_name(&elf, &s, &name, &length) != GPUOCC_OK)
            continue;
        bool info = is(name, length, ".ze_info"), compat = is(name, length, ".note.intelgt.compat");
        if (!info && !compat)
            continue;
        const uint8_t *d;
        uint64_t found;
        if (info) {
            if ((rc = gpuocc_elf_data(&elf, &s, &d)) != GPUOCC_OK)
                return rc;
            zeinfo = d;
            zeinfo_len = s.size;
        } else if ((rc = gpuocc_note_once(&notes, &elf, &s, product_family, NULL, &found)) != GPUOCC_OK) {
            return rc;
        } else if (found) {
            family = (uint32_t)found;
        }
    }
    if (!zeinfo)
        return GPUOCC_ERR_UNSUPPORTED; /* the legacy patch-token format, which gpuocc does not read */
    struct ze_reader r;
    memset(&r, 0, sizeof r);
    r.origin = origin;
    r.sink = sink;
    r.product_family = family;
    return read_zeinfo(&r, (const char *)zeinfo, (size_t)zeinfo_len);
}
