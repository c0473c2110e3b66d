/* gpuocc batch: launches as CSV in, one output row per input data row, lossless.

   Input is RFC 4180 CSV: quoted cells (with "" for a quote, commas and line breaks inside), lines ending in
   CRLF, LF or a bare CR, an optional UTF-8 byte-order mark.  Blank lines are skipped.  Every other record
   gives one output row, in order: its cells as they came (a short row is padded with empty cells so the
   results stay in their columns), then the results, then `line` (the record's first physical line; the
   header is line 1) and `error` (empty, or a one-line reason naming the column).  Columns gpuocc does not
   know are echoed unchanged and named once on stderr (not a tag: `tag`, `tag_*`); one that most likely
   means an input column (a typo, another tool's name) is named with it and the run exits 1.  Each launch column is also read under its CLI flag's spelling (`smem-dynamic`,
   `wave-size`) and AMD's flag names (`vgprs`, `lds`, `lds_static`, `lds_dynamic`).  Speed matters (autotuners feed millions of rows), so the reading, number
   parsing and printing are done by hand over large buffers. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The launch columns: every vendor's, NVIDIA's (COL_BARRIERS .. COL_TMEM_COLUMNS; Intel reads barriers too),
   AMD's (COL_AGPRS .. COL_FLAT_WORKGROUP_SIZE_MIN; Intel reads model too, NVIDIA and Intel max_threads), Intel's (COL_SUB_GROUP on). */
enum column {
    COL_ARCH, COL_THREADS, COL_REGS, COL_SMEM_STATIC, COL_SMEM_DYNAMIC, COL_BARRIERS, COL_CARVEOUT,
    COL_SMEM_OPTIN, COL_VIRTUAL_RESOURCES, COL_TMEM_COLUMNS, COL_AGPRS, COL_SGPRS, COL_WAVE_SIZE, COL_CU_MODE, COL_MAX_THREADS, COL_MODEL, COL_ROCM,
    COL_DVGPR, COL_TRAP_HANDLER, COL_WAVES_PER_EU_MIN, COL_WAVES_PER_EU_MAX, COL_FLAT_WORKGROUP_SIZE_MIN,
    COL_SUB_GROUP, COL_GRF, COL_COUNT
};
static const char *const column_names[COL_COUNT] = {"arch", "threads", "regs", "smem_static", "smem_dynamic",
                                                    "barriers", "carveout", "smem_optin", "virtual_resources",
                                                    "tmem_columns", "agprs", "sgprs",
                                                    "wave_size", "cu_mode", "max_threads", "model", "rocm",
                                                    "dvgpr", "trap_handler", "waves_per_eu_min",
                                                    "waves_per_eu_max", "flat_workgroup_size_min", "sub_group",
                                                    "grf"};
/* Each column's other spellings: its CLI flag without "--" and with '-' (the flags' spelling), and AMD's flag
   names for the fields both vendors share (the same vendor rules as the column they name). */
static const struct {
    const char *name;
    int column;
} column_aliases[] = {
    {"smem-static", COL_SMEM_STATIC}, {"smem-dynamic", COL_SMEM_DYNAMIC}, {"wave-size", COL_WAVE_SIZE},
    {"cu-mode", COL_CU_MODE},         {"max-threads", COL_MAX_THREADS},   {"vgprs", COL_REGS},
    {"lds", COL_SMEM_STATIC},         {"lds_dynamic", COL_SMEM_DYNAMIC},  {"lds-dynamic", COL_SMEM_DYNAMIC},
    {"lds_static", COL_SMEM_STATIC},  {"lds-static", COL_SMEM_STATIC},  {"sub-group", COL_SUB_GROUP},
    {"slm", COL_SMEM_STATIC},         {"slm_static", COL_SMEM_STATIC},  {"slm-static", COL_SMEM_STATIC},
    {"slm_dynamic", COL_SMEM_DYNAMIC}, {"slm-dynamic", COL_SMEM_DYNAMIC}, {"virtual-resources", COL_VIRTUAL_RESOURCES},
    {"tmem-columns", COL_TMEM_COLUMNS}, {"trap-handler", COL_TRAP_HANDLER},
    {"waves-per-eu-min", COL_WAVES_PER_EU_MIN}, {"waves-per-eu-max", COL_WAVES_PER_EU_MAX},
    {"flat-workgroup-size-min", COL_FLAT_WORKGROUP_SIZE_MIN},
};
#define ALIAS_COUNT (sizeof column_aliases / sizeof column_aliases[0])
/* The results: `model` only when the input has no `model` column of its own (its cells say the model then). */
static const char result_header[] = "status,blocks_per_sm,warps_per_sm,occupancy,limiters,limit_warps,limit_regs,"
                                    "limit_smem,limit_blocks,limit_barriers,regs_per_block,smem_per_block,";
/* exceeded, exceeded_limit: the value over a limit (docs/output.md); before line and error, which stay last */
static const char result_header_tail[] = "waves_per_simd,limit_sgprs,workgroups_per_gpu,limit_virtual_resources,exceeded,exceeded_limit,line,error";

#define MAX_COLUMNS 1024
/* The longest record kept (--max-record-bytes): a longer one is a bad row, read past without being kept. */
#define MAX_RECORD ((size_t)1 << 20)
#define MAX_RECORD_CEILING ((int64_t)1 << 30) /* what --max-record-bytes may raise it to (cells are 32-bit) */
/* Input without a line break in its first MiB is not CSV at all (/dev/zero, one huge line): stop. */
#define TEXT_PROBE ((uint64_t)1 << 20)
#define CHUNK ((size_t)1 << 16)

/* ---- records ---- */

struct reader {
    FILE *f;
    char *buf, *scratch;  /* scratch: as large as buf, for unquoted cell values */
    size_t cap, pos, end; /* unread bytes are buf[pos, end) */
    bool eof;
    int64_t line;         /* physical line of buf[pos] */
    size_t max;           /* the longest record kept (the buffer stays under max + CHUNK) */
    uint64_t probed;      /* bytes of the input's first TEXT_PROBE looked at for a line break */
    bool broke;           /* a line break among them */
    bool not_text;        /* none in the first TEXT_PROBE bytes */
    bool oom;             /* the buffer could not grow */
};

struct cell {
    uint32_t off, len; /* the raw cell within the record, quotes included */
};

struct record {
    const char *text;
    size_t len;    /* without the line break */
    int64_t line;  /* first physical line */
    int32_t ncells;
    bool open_quote; /* the input ended inside a quoted cell */
    bool skipped;    /* longer than the reader keeps: read past, no cells (a bad row) */
    struct cell cells[MAX_COLUMNS + 1];
};

/* Read more input behind the unread bytes; false at the end of input (or a read error: see ferror). */
static bool refill(struct reader *rd)
{
    if (rd->eof)
        return false;
    if (rd->pos > 0) {
        memmove(rd->buf, rd->buf + rd->pos, rd->end - rd->pos);
        rd->end -= rd->pos;
        rd->pos = 0;
    }
    if (rd->end == rd->cap) {
        if (rd->cap >= rd->max + CHUNK)
            return false;
        char *bigger = realloc(rd->buf, rd->cap * 2);
        if (!bigger)
            return rd->oom = true, false;
        rd->buf = bigger;
        bigger = realloc(rd->scratch, rd->cap * 2);
        if (!bigger)
            return rd->oom = true, false;
        rd->scratch = bigger;
        rd->cap *= 2;
    }
    size_t got = fread(rd->buf + rd->end, 1, rd->cap - rd->end, rd->f);
    if (!rd->broke && rd->probed < TEXT_PROBE) {
        size_t look = got < TEXT_PROBE - rd->probed ? got : (size_t)(TEXT_PROBE - rd->probed);
        rd->broke = memchr(rd->buf + rd->end, '\n', look) || memchr(rd->buf + rd->end, '\r', look);
        rd->probed += look;
        rd->not_text = !rd->broke && rd->probed >= TEXT_PROBE;
    }
    rd->end += got;
    if (got == 0)
        rd->eof = true;
    return got > 0;
}

enum { REC_NONE, REC_OK, REC_TOO_LONG, REC_READ_ERROR, REC_NOT_TEXT, REC_NO_MEMORY };

/* Past the rest of a record too long to keep, from p[i] (the scan's state there: inside quotes or not, at a
   cell's start or not): its bytes are read and dropped, so memory stays at the buffer's size.  Quotes are
   followed as next_record follows them, so the record ends at the next line break outside quotes (or at
   the end of input); the line breaks inside it are counted into *breaks. */
static int skip_record(struct reader *rd, size_t i, bool quoted, bool at_start, int64_t *breaks)
{
    rd->pos += i;
    bool quote_seen = false, cr_in_quotes = false, cr_end = false;
    for (;;) {
        while (rd->pos < rd->end) {
            char c = rd->buf[rd->pos];
            if (cr_end) { /* CRLF ends it as one line break */
                rd->pos += c == '\n';
                return REC_TOO_LONG;
            }
            rd->pos++;
            if (quote_seen) { /* "" inside quotes, or the closing quote and then c outside them */
                quote_seen = false;
                if (c == '"')
                    continue;
                quoted = false;
            } else if (cr_in_quotes) {
                cr_in_quotes = false;
                if (c == '\n')
                    continue;
            }
            if (quoted) {
                if (c == '"')
                    quote_seen = true;
                else if (c == '\r')
                    (*breaks)++, cr_in_quotes = true;
                else
                    *breaks += c == '\n';
                continue;
            }
            if (c == '\n')
                return REC_TOO_LONG;
            if (c == '\r') {
                cr_end = true;
                continue;
            }
            if (c == '"' && at_start)
                quoted = true;
            at_start = c == ',';
        }
        rd->pos = rd->end = 0; /* all of it read: drop it */
        if (!refill(rd))
            return ferror(rd->f) ? REC_READ_ERROR : rd->not_text ? REC_NOT_TEXT : REC_TOO_LONG;
        if (rd->not_text)
            return REC_NOT_TEXT;
    }
}

/* The next record at rd->pos.  Cells split at commas outside quotes; a quote opens a quoted cell only at
   the start of a cell (elsewhere it is an ordinary byte, as lenient readers take it). */
static int next_record(struct reader *rd, struct record *rec)
{
    for (;;) {
        if (rd->not_text)
            return REC_NOT_TEXT;
        const char *p = rd->buf + rd->pos;
        size_t avail = rd->end - rd->pos, i = 0, cell_start = 0;
        int32_t n = 0;
        int64_t breaks = 0; /* line breaks inside quoted cells */
        bool quoted = false, complete = false;
        size_t term = 0; /* length of the line break that ends the record */
        while (i < avail) {
            char c = p[i];
            if (quoted) {
                if (c == '"') {
                    if (i + 1 == avail && !rd->eof)
                        break; /* "" or a closing quote: need the next byte */
                    if (i + 1 < avail && p[i + 1] == '"')
                        i += 2;
                    else
                        quoted = false, i++;
                    continue;
                }
                if (c == '\r') {
                    if (i + 1 == avail && !rd->eof)
                        break;
                    breaks++;
                    i += (i + 1 < avail && p[i + 1] == '\n') ? 2 : 1;
                    continue;
                }
                breaks += c == '\n';
                i++;
                continue;
            }
            if (c == ',') {
                if (n <= MAX_COLUMNS)
                    rec->cells[n] = (struct cell){(uint32_t)cell_start, (uint32_t)(i - cell_start)};
                n++;
                cell_start = ++i;
                continue;
            }
            if (c == '\n' || c == '\r') {
                if (c == '\r' && i + 1 == avail && !rd->eof)
                    break;
                term = (c == '\r' && i + 1 < avail && p[i + 1] == '\n') ? 2 : 1;
                complete = true;
                break;
            }
            if (c == '"' && i == cell_start)
                quoted = true;
            i++;
        }
        if (!complete && !rd->eof) {
            if (i >= rd->max) { /* too long to keep: a bad row with no cells, read past */
                int64_t line = rd->line;
                int rc = skip_record(rd, i, quoted, i == cell_start, &breaks);
                if (rc != REC_TOO_LONG)
                    return rc;
                *rec = (struct record){.text = "", .len = 0, .line = line, .ncells = 1, .skipped = true};
                rec->cells[0] = (struct cell){0, 0};
                rd->line += 1 + breaks;
                return REC_TOO_LONG;
            }
            if (!refill(rd) && !rd->eof)
                return ferror(rd->f) ? REC_READ_ERROR : rd->not_text ? REC_NOT_TEXT
                                                      : rd->oom ? REC_NO_MEMORY : REC_READ_ERROR;
            if (!rd->eof || rd->end > rd->pos)
                continue; /* scan again with more bytes */
            return REC_NONE;
        }
        if (!complete && avail == 0)
            return REC_NONE;
        size_t len = complete ? i : avail;
        if (len > rd->max) { /* whole in the buffer, but longer than kept: the same bad row */
            *rec = (struct record){.text = "", .len = 0, .line = rd->line, .ncells = 1, .skipped = true};
            rec->cells[0] = (struct cell){0, 0};
            rd->pos += len + term;
            rd->line += 1 + breaks;
            return REC_TOO_LONG;
        }
        if (n <= MAX_COLUMNS)
            rec->cells[n] = (struct cell){(uint32_t)cell_start, (uint32_t)(len - cell_start)};
        rec->ncells = n + 1;
        rec->text = p;
        rec->len = len;
        rec->line = rd->line;
        rec->open_quote = quoted;
        rec->skipped = false;
        rd->pos += len + term;
        rd->line += 1 + breaks;
        return REC_OK;
    }
}

/* A cell's value: quotes removed and "" made ", then spaces and tabs trimmed (into `scratch` when quoted). */
static const char *cell_value(const struct record *rec, int32_t i, char *scratch, size_t *len)
{
    const char *s = rec->text + rec->cells[i].off;
    size_t n = rec->cells[i].len;
    if (n && s[0] == '"') {
        size_t w = 0;
        bool in = true;
        for (size_t k = 1; k < n; k++) {
            if (in && s[k] == '"') {
                if (k + 1 < n && s[k + 1] == '"')
                    scratch[w++] = '"', k++;
                else
                    in = false;
            } else
                scratch[w++] = s[k];
        }
        s = scratch, n = w;
    }
    while (n && (*s == ' ' || *s == '\t'))
        s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    *len = n;
    return s;
}

static bool blank(const struct record *rec)
{
    for (size_t i = 0; i < rec->len; i++)
        if (rec->text[i] != ' ' && rec->text[i] != '\t')
            return false;
    return true;
}

/* ---- output buffer with hand-made number formatting ---- */

struct out {
    FILE *f;
    char *buf;
    size_t n, cap;
    bool failed;
    int err; /* errno of the failed write */
};

static void out_flush(struct out *o)
{
    if (o->n && !o->failed && fwrite(o->buf, 1, o->n, o->f) != o->n)
        o->failed = true, o->err = errno;
    o->n = 0;
}

static inline void out_room(struct out *o, size_t need)
{
    if (o->cap - o->n < need)
        out_flush(o);
}

static void out_bytes(struct out *o, const char *s, size_t n)
{
    if (o->cap - o->n < n) {
        out_flush(o);
        if (n > o->cap) {
            if (!o->failed && fwrite(s, 1, n, o->f) != n)
                o->failed = true, o->err = errno;
            return;
        }
    }
    memcpy(o->buf + o->n, s, n);
    o->n += n;
}

static void out_str(struct out *o, const char *s)
{
    out_bytes(o, s, strlen(s));
}

static const char digit_pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                  "8081828384858687888990919293949596979899";

/* Decimal digits of v into the end of `tmp` (20 bytes); returns where they start. */
static char *u64_digits(uint64_t v, char *end)
{
    char *p = end;
    while (v >= 100) {
        unsigned d = (unsigned)(v % 100) * 2;
        v /= 100;
        *--p = digit_pairs[d + 1];
        *--p = digit_pairs[d];
    }
    if (v >= 10) {
        *--p = digit_pairs[v * 2 + 1];
        *--p = digit_pairs[v * 2];
    } else
        *--p = (char)('0' + v);
    return p;
}

/* Caller guarantees 21 bytes of room. */
static inline void put_i64(struct out *o, int64_t v)
{
    char tmp[20], *end = tmp + sizeof tmp;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    char *p = u64_digits(u, end);
    if (v < 0)
        o->buf[o->n++] = '-';
    memcpy(o->buf + o->n, p, (size_t)(end - p));
    o->n += (size_t)(end - p);
}

/* printf's "%.6f" for 0 <= v <= 1e12, exactly: rounding to 6 decimals by hand, and printf itself where the
   scaled value is too close to a tie for the product's rounding error to be ruled out. */
static void put_fixed6(struct out *o, double v)
{
    double t = v * 1e6;
    if (!(v >= 0 && v <= 1e12)) {
        o->n += (size_t)snprintf(o->buf + o->n, 64, "%.6f", v);
        return;
    }
    uint64_t n = (uint64_t)t;
    double frac = t - (double)n;
    if (frac > 0.5 - 1e-6 && frac < 0.5 + 1e-6) {
        o->n += (size_t)snprintf(o->buf + o->n, 64, "%.6f", v);
        return;
    }
    n += frac > 0.5;
    char tmp[20], *end = tmp + sizeof tmp;
    char *p = u64_digits(n / 1000000, end);
    memcpy(o->buf + o->n, p, (size_t)(end - p));
    o->n += (size_t)(end - p);
    o->buf[o->n++] = '.';
    uint64_t f = n % 1000000;
    for (int k = 5; k >= 0; k--, f /= 10)
        o->buf[o->n + (size_t)k] = (char)('0' + f % 10);
    o->n += 6;
}

/* One CSV cell made of k pieces, quoted when it needs to be. */
static void put_csv_parts(struct out *o, const char *const *part, const size_t *len, int k)
{
    bool quote = false;
    for (int p = 0; p < k; p++)
        for (size_t i = 0; i < len[p] && !quote; i++)
            quote = part[p][i] == ',' || part[p][i] == '"' || part[p][i] == '\r' || part[p][i] == '\n';
    if (quote)
        out_bytes(o, "\"", 1);
    for (int p = 0; p < k; p++) {
        if (!quote) {
            out_bytes(o, part[p], len[p]);
            continue;
        }
        for (size_t i = 0; i < len[p]; i++) {
            out_bytes(o, part[p] + i, 1);
            if (part[p][i] == '"')
                out_bytes(o, "\"", 1);
        }
    }
    if (quote)
        out_bytes(o, "\"", 1);
}

/* The body of a JSON string (no quotes around it): as json_string_n (tools/cli.h) writes it. */
static void put_json_body(struct out *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            char esc[2] = {'\\', (char)c};
            out_bytes(o, esc, 2);
        } else if (c < 0x20 || c == 0x7f) {
            char esc[8];
            snprintf(esc, sizeof esc, "\\u%04x", c);
            out_bytes(o, esc, 6);
        } else if (c < 0x80)
            out_bytes(o, s + i, 1);
        else { /* a UTF-8 character whole; a byte that is not UTF-8 as U+FFFD (JSON text is UTF-8) */
            size_t len = cli_utf8_len(s + i, n - i);
            if (len) {
                out_bytes(o, s + i, len);
                i += len - 1;
            } else
                out_bytes(o, CLI_REPLACEMENT, 3);
        }
    }
}

static void put_json_string(struct out *o, const char *s, size_t n)
{
    out_bytes(o, "\"", 1);
    put_json_body(o, s, n);
    out_bytes(o, "\"", 1);
}

/* ---- one row ---- */

struct arch_entry {
    char key[48];
    size_t len;
    int32_t rc;
    gpuocc_device dev;
};

struct batch {
    struct cli_io *io;
    struct out o;
    bool json;
    int32_t ncols;
    int32_t where[COL_COUNT];
    char *names;                /* header cell values, NUL-separated (JSON keys) */
    const char *name[MAX_COLUMNS];
    char label[COL_COUNT][64];  /* the launch columns' names as the header gives them, escaped (messages) */
    struct arch_entry arch[8];  /* the last devices looked up: rows mostly repeat a few */
    unsigned arch_next;
    char *scratch;              /* the reader's scratch */
    int64_t bad_rows;
    /* columns of launch inputs the batch does not read (setmaxnreg, min_blocks ...): named on stderr at the
       first row that gives one a value (an empty cell gives none: report's CSV has them all), once each */
    int32_t unread_input_col[16], unread_input_why[16], unread_input_count;
    bool vendor_columns;        /* the header has a column only one vendor reads (checked per row) */
    /* input columns named as one of the batch's results (a batch's or a sweep's output read again): not echoed,
       the fresh answer stands in their place among the results (one column of each name) */
    bool replaced[MAX_COLUMNS];
    bool any_replaced;
    bool result_model;          /* the results include `model` (the input has no `model` column) */
};

static const gpuocc_device *find_arch(struct batch *b, const char *s, size_t n, int32_t *rc)
{
    for (unsigned i = 0; i < 8; i++) {
        struct arch_entry *e = &b->arch[i];
        if (e->len == n && n && memcmp(e->key, s, n) == 0) {
            *rc = e->rc;
            return &e->dev;
        }
    }
    struct arch_entry *e = &b->arch[b->arch_next++ % 8];
    char name[48];
    if (n == 0 || n >= sizeof name || memchr(s, '\0', n)) {
        *rc = GPUOCC_ERR_UNKNOWN_DEVICE;
        return NULL;
    }
    memcpy(name, s, n);
    name[n] = '\0';
    e->dev = (gpuocc_device){.size = sizeof e->dev};
    e->rc = gpuocc_device_lookup(name, &e->dev);
    memcpy(e->key, s, n);
    e->len = n;
    *rc = e->rc;
    return &e->dev;
}

/* A launch column as the input names it (an alias is named as the header spells it), fit for a message. */
static const char *label(const struct batch *b, int c)
{
    return b->where[c] >= 0 ? b->label[c] : column_names[c];
}

struct verdict {
    const char *status;
    char error[512];
    /* the launch's value over a limit no block passes (a 0-block answer, or a refused row), else NULL */
    const char *exceeded;
    int64_t exceeded_limit;
};

/* "column: what, got 'value'" with the value's first 40 bytes, control bytes escaped (a NUL would end it). */
static void bad_cell(struct verdict *v, const char *status, const char *column, const char *what, const char *s,
                     size_t n)
{
    char got[4 * 40 + 1];
    cli_escape(s, n > 40 ? 40 : n, got, sizeof got); /* a character the 40th byte cuts is left out */
    v->status = status;
    snprintf(v->error, sizeof v->error, "%s: %s, got '%s'", column, what, got);
}

/* An integer cell of column c into *out (absent or empty optional cells keep the default). */
static bool int_cell(struct batch *b, const struct record *rec, int c, int64_t lo, int64_t hi, int64_t *out,
                     bool size, struct verdict *v)
{
    if (b->where[c] < 0)
        return true;
    size_t n;
    const char *s = cell_value(rec, b->where[c], b->scratch, &n);
    if (n == 0) {
        if (c > COL_REGS)
            return true;
        v->status = "parse";
        snprintf(v->error, sizeof v->error, "%s: empty", label(b, c));
        return false;
    }
    bool ok = size ? cli_parse_size(s, n, out) : cli_parse_int(s, n, INT64_MIN, INT64_MAX, out);
    if (!ok) {
        bad_cell(v, "parse", label(b, c), size ? "expected a byte count (49152, 48K)" : "expected an integer",
                 s, n);
        return false;
    }
    if (*out < lo || *out > hi) {
        bad_cell(v, "argument", label(b, c), "out of range", s, n);
        return false;
    }
    return true;
}

/* A column the row fills (present, not empty after trimming). */
static bool cell_given(struct batch *b, const struct record *rec, int c, const char **s, size_t *n)
{
    if (b->where[c] < 0)
        return false;
    *s = cell_value(rec, b->where[c], b->scratch, n);
    return *n > 0;
}

/* The other vendors' columns must be empty on a row (as the CLI refuses the other vendors' flags). */
static bool vendor_cells(struct batch *b, const struct record *rec, const gpuocc_device *dev, struct verdict *v)
{
    bool amd = dev->vendor == GPUOCC_VENDOR_AMD, intel = dev->vendor == GPUOCC_VENDOR_INTEL;
    for (int c = COL_BARRIERS; c < COL_COUNT; c++) {
        bool nvidia_col = c <= COL_TMEM_COLUMNS, amd_col = c >= COL_AGPRS && c <= COL_FLAT_WORKGROUP_SIZE_MIN, intel_col = c >= COL_SUB_GROUP;
        const char *why = NULL;
        if (amd && nvidia_col)
            why = "NVIDIA only, but arch is an AMD device (leave it empty)";
        else if (amd && intel_col)
            why = "Intel only, but arch is an AMD device (leave it empty)";
        else if (intel && nvidia_col && c != COL_BARRIERS)
            why = "NVIDIA only, but arch is an Intel device (leave it empty)";
        else if (intel && amd_col && c != COL_MODEL && c != COL_MAX_THREADS) /* the launch bound: every vendor's */
            why = "AMD only, but arch is an Intel device (leave it empty)";
        else if (!amd && !intel && amd_col && c != COL_MAX_THREADS) /* the launch bound is NVIDIA's too */
            why = "AMD only, but arch is an NVIDIA device (leave it empty)";
        else if (!amd && !intel && intel_col)
            why = "Intel only, but arch is an NVIDIA device (leave it empty)";
        const char *s = "";
        size_t n = 0;
        if (why && cell_given(b, rec, c, &s, &n)) {
            bad_cell(v, "argument", label(b, c), why, s, n);
            return false;
        }
    }
    return true;
}

/* Intel's columns into the kernel: sub_group, grf, model (calculator or runtime); regs stays empty. */
static bool intel_cells(struct batch *b, const struct record *rec, const gpuocc_device *dev, gpuocc_kernel *k,
                        struct verdict *v)
{
    int64_t x = 0;
    const char *s = "";
    size_t n = 0;
    if (!int_cell(b, rec, COL_SUB_GROUP, 0, 32, &x, false, v))
        return false;
    if (x && ((x != 8 && x != 16 && x != 32) || !(dev->sub_group_sizes & x))) {
        cell_given(b, rec, COL_SUB_GROUP, &s, &n);
        bad_cell(v, "argument", label(b, COL_SUB_GROUP), "not a sub-group size of the target", s, n);
        return false;
    }
    k->sub_group = (int32_t)x;
    x = 0;
    if (!int_cell(b, rec, COL_GRF, 0, 1024, &x, false, v))
        return false;
    k->grf = (int32_t)x;
    if (cell_given(b, rec, COL_MODEL, &s, &n)) {
        if (n == 10 && !memcmp(s, "calculator", 10))
            k->model = GPUOCC_MODEL_CALCULATOR;
        else if (n == 7 && !memcmp(s, "runtime", 7))
            k->model = GPUOCC_MODEL_INTEL_RUNTIME;
        else {
            bad_cell(v, "argument", label(b, COL_MODEL), "expected calculator or runtime", s, n);
            return false;
        }
    }
    return true;
}

/* The name of the model a result says filled it, or NULL (NVIDIA). */
static const char *model_name(int32_t model)
{
    switch (model) {
    case GPUOCC_MODEL_COMPILER: return "compiler";
    case GPUOCC_MODEL_LLVM19: return "llvm19";
    case GPUOCC_MODEL_RUNTIME:
    case GPUOCC_MODEL_INTEL_RUNTIME: return "runtime";
    case GPUOCC_MODEL_CALCULATOR: return "calculator";
    default: return NULL;
    }
}

/* A ROCm release "6.2" as 602; false if the text is not MAJOR.MINOR. */
static bool parse_rocm(const char *s, size_t n, int32_t *out)
{
    const char *dot = memchr(s, '.', n);
    int64_t major, minor;
    if (!dot || dot == s || dot + 1 == s + n || s[0] == '+' || s[0] == '-' || dot[1] == '+' || dot[1] == '-' ||
        !cli_parse_int(s, (size_t)(dot - s), 1, 99, &major) ||
        !cli_parse_int(dot + 1, (size_t)(s + n - dot - 1), 0, 99, &minor))
        return false;
    *out = (int32_t)(major * 100 + minor);
    return true;
}

/* AMD's compiler inputs: trap_handler (-1 off, 0 the default, 1 on), waves_per_eu_min/_max and
   flat_workgroup_size_min (0 or empty: unset), with the CLI's checks (the minimum needs max_threads). */
static bool compiler_cells(struct batch *b, const struct record *rec, gpuocc_kernel *k, struct verdict *v)
{
    static const int cols[] = {COL_TRAP_HANDLER, COL_WAVES_PER_EU_MIN, COL_WAVES_PER_EU_MAX,
                               COL_FLAT_WORKGROUP_SIZE_MIN};
    int32_t *fields[] = {&k->trap_handler, &k->waves_per_eu_min, &k->waves_per_eu_max, &k->flat_workgroup_size_min};
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
        int64_t x = 0;
        if (!int_cell(b, rec, cols[i], i == 0 ? -1 : 0, i == 0 ? 1 : 1024, &x, false, v))
            return false;
        *fields[i] = (int32_t)x;
    }
    const char *s = "";
    size_t n = 0;
    char what[160];
    if (k->waves_per_eu_max && k->waves_per_eu_min > k->waves_per_eu_max) {
        cell_given(b, rec, COL_WAVES_PER_EU_MIN, &s, &n);
        snprintf(what, sizeof what, "more than %s", label(b, COL_WAVES_PER_EU_MAX));
        bad_cell(v, "argument", label(b, COL_WAVES_PER_EU_MIN), what, s, n);
        return false;
    }
    int32_t lo = k->flat_workgroup_size_min;
    if (lo && (k->max_threads_per_block == 0 || lo > k->max_threads_per_block || k->threads_per_block < lo)) {
        cell_given(b, rec, COL_FLAT_WORKGROUP_SIZE_MIN, &s, &n);
        snprintf(what, sizeof what, "needs %s at least as large, and threads no smaller",
                 label(b, COL_MAX_THREADS));
        bad_cell(v, "argument", label(b, COL_FLAT_WORKGROUP_SIZE_MIN), what, s, n);
        return false;
    }
    return true;
}

/* AMD's columns into the kernel, with the checks the CLI's flags get (docs/amd.md). */
static bool amd_cells(struct batch *b, const struct record *rec, const gpuocc_device *dev, gpuocc_kernel *k,
                      struct verdict *v)
{
    int64_t x = 0;
    const char *s = "";
    size_t n = 0;
    if (!int_cell(b, rec, COL_AGPRS, 0, INT32_MAX, &x, false, v))
        return false;
    k->agprs = (int32_t)x;
    if (k->agprs > 0 && dev->agpr_file == GPUOCC_AGPR_NONE) {
        cell_given(b, rec, COL_AGPRS, &s, &n);
        bad_cell(v, "argument", label(b, COL_AGPRS), "the target has no AGPRs", s, n);
        return false;
    }
    x = 0;
    if (!int_cell(b, rec, COL_SGPRS, 0, INT32_MAX, &x, false, v))
        return false;
    k->sgprs = (int32_t)x;
    x = 0;
    if (!int_cell(b, rec, COL_WAVE_SIZE, 0, 64, &x, false, v))
        return false;
    if (x && ((x != 32 && x != 64) || !(dev->wave_sizes & x))) {
        cell_given(b, rec, COL_WAVE_SIZE, &s, &n);
        bad_cell(v, "argument", label(b, COL_WAVE_SIZE), dev->wave_sizes == 64 ? "the target runs wave64 only" : "expected 0 (the device's default), 32 or 64",
                 s, n);
        return false;
    }
    k->wave_size = (int32_t)x;
    x = 0;
    if (!int_cell(b, rec, COL_CU_MODE, 0, 1, &x, false, v))
        return false;
    k->cu_mode = (int32_t)x;
    x = 0;
    if (!int_cell(b, rec, COL_MAX_THREADS, 0, INT32_MAX, &x, false, v)) /* 0 or empty: none, as in C */
        return false;
    k->max_threads_per_block = (int32_t)x; /* threads above it: the library's 0 blocks, exceeded threads */
    if (cell_given(b, rec, COL_MODEL, &s, &n)) {
        if (n == 8 && !memcmp(s, "compiler", 8))
            k->model = GPUOCC_MODEL_COMPILER;
        else if (n == 7 && !memcmp(s, "runtime", 7))
            k->model = GPUOCC_MODEL_RUNTIME;
        else if (n == 6 && !memcmp(s, "llvm19", 6))
            k->model = GPUOCC_MODEL_LLVM19;
        else {
            bad_cell(v, "argument", label(b, COL_MODEL), "expected compiler, llvm19 or runtime", s, n);
            return false;
        }
    }
    if (cell_given(b, rec, COL_ROCM, &s, &n)) {
        if (!parse_rocm(s, n, &k->rocm_version)) {
            bad_cell(v, "parse", label(b, COL_ROCM), "expected a ROCm release MAJOR.MINOR (6.2)", s, n);
            return false;
        }
        if (k->model != GPUOCC_MODEL_RUNTIME) {
            char what[160];
            snprintf(what, sizeof what, "picks the release of HIP's rules: needs %s runtime", label(b, COL_MODEL));
            bad_cell(v, "argument", label(b, COL_ROCM), what, s, n);
            return false;
        }
    }
    x = 0;
    if (!int_cell(b, rec, COL_DVGPR, 0, 32, &x, false, v))
        return false;
    if (x != 0 && x != 16 && x != 32) {
        cell_given(b, rec, COL_DVGPR, &s, &n);
        bad_cell(v, "argument", label(b, COL_DVGPR), "expected 16 or 32 (0: off)", s, n);
        return false;
    }
    k->dvgpr = (int32_t)x;
    return compiler_cells(b, rec, k, v);
}

/* The column of each input the library names over a limit (GPUOCC_INPUT_*). */
static const int column_of_input[GPUOCC_INPUT_COUNT] = {
    [GPUOCC_INPUT_THREADS] = COL_THREADS, [GPUOCC_INPUT_REGS] = COL_REGS,
    [GPUOCC_INPUT_SMEM_STATIC] = COL_SMEM_STATIC, [GPUOCC_INPUT_SMEM_DYNAMIC] = COL_SMEM_DYNAMIC,
    [GPUOCC_INPUT_BARRIERS] = COL_BARRIERS, [GPUOCC_INPUT_VIRTUAL_RESOURCES] = COL_VIRTUAL_RESOURCES,
    [GPUOCC_INPUT_TMEM_COLUMNS] = COL_TMEM_COLUMNS, [GPUOCC_INPUT_AGPRS] = COL_AGPRS,
    [GPUOCC_INPUT_SGPRS] = COL_SGPRS, [GPUOCC_INPUT_WAVE_SIZE] = COL_WAVE_SIZE,
    [GPUOCC_INPUT_CU_MODE] = COL_CU_MODE, [GPUOCC_INPUT_MODEL] = COL_MODEL, [GPUOCC_INPUT_ROCM] = COL_ROCM,
    [GPUOCC_INPUT_DVGPR] = COL_DVGPR, [GPUOCC_INPUT_SUB_GROUP] = COL_SUB_GROUP, [GPUOCC_INPUT_GRF] = COL_GRF,
    [GPUOCC_INPUT_TRAP_HANDLER] = COL_TRAP_HANDLER, [GPUOCC_INPUT_WAVES_PER_EU] = COL_WAVES_PER_EU_MIN,
    [GPUOCC_INPUT_FLAT_WORKGROUP_SIZE] = COL_FLAT_WORKGROUP_SIZE_MIN,
};

/*
 * A row the vendor columns' checks refused (each with its reason in the column's words) is the library's
 * refusal when the library refuses it too: its status and the input it names, for the launch with every
 * column the row gives (what the library checks first, as every call sees it).  The reason stays the
 * column's own when it names that input.  A row the library would answer keeps the checks' verdict (a
 * column the device's rules do not read: NVIDIA's carveout on AMD ...).
 */
static void library_refusal(struct batch *b, const struct record *rec, const gpuocc_device *dev,
                            const gpuocc_kernel *parsed, struct verdict *v)
{
    if (!strcmp(v->status, "parse"))
        return;
    gpuocc_kernel k = *parsed;
    static const int cols[] = {COL_AGPRS, COL_SGPRS, COL_WAVE_SIZE, COL_CU_MODE, COL_MAX_THREADS, COL_DVGPR,
                               COL_TRAP_HANDLER, COL_WAVES_PER_EU_MIN, COL_WAVES_PER_EU_MAX,
                               COL_FLAT_WORKGROUP_SIZE_MIN, COL_SUB_GROUP, COL_GRF};
    int32_t *fields[] = {&k.agprs, &k.sgprs, &k.wave_size, &k.cu_mode, &k.max_threads_per_block, &k.dvgpr,
                         &k.trap_handler, &k.waves_per_eu_min, &k.waves_per_eu_max, &k.flat_workgroup_size_min,
                         &k.sub_group, &k.grf};
    const char *s;
    size_t n;
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
        int64_t x;
        if (!cell_given(b, rec, cols[i], &s, &n))
            continue;
        if (!cli_parse_int(s, n, INT32_MIN, INT32_MAX, &x))
            return;
        *fields[i] = (int32_t)x;
    }
    if (cell_given(b, rec, COL_MODEL, &s, &n)) {
        bool intel = dev->vendor == GPUOCC_VENDOR_INTEL;
        static const struct { const char *name; int32_t amd, intel; } models[] = {
            {"compiler", GPUOCC_MODEL_COMPILER, GPUOCC_MODEL_COMPILER},
            {"llvm19", GPUOCC_MODEL_LLVM19, GPUOCC_MODEL_LLVM19},
            {"runtime", GPUOCC_MODEL_RUNTIME, GPUOCC_MODEL_INTEL_RUNTIME},
            {"calculator", GPUOCC_MODEL_CALCULATOR, GPUOCC_MODEL_CALCULATOR},
        };
        size_t i = 0;
        while (i < sizeof models / sizeof models[0] && (strlen(models[i].name) != n || memcmp(s, models[i].name, n)))
            i++;
        if (i == sizeof models / sizeof models[0])
            return;
        k.model = intel ? models[i].intel : models[i].amd;
    }
    if (cell_given(b, rec, COL_ROCM, &s, &n) && !parse_rocm(s, n, &k.rocm_version))
        return;
    gpuocc_result r = {.size = sizeof r};
    int32_t rc = gpuocc_occupancy(dev, &k, &r);
    char why[256];
    const char *input = rc == GPUOCC_OK ? NULL : cli_exceeded(dev, &k, &r, why, sizeof why);
    if (!input)
        return;
    v->status = gpuocc_status_name(rc);
    v->exceeded = input, v->exceeded_limit = r.exceeded_limit;
    const char *column = label(b, column_of_input[r.exceeded]);
    size_t len = strlen(column);
    if (strncmp(v->error, column, len) != 0 || v->error[len] != ':')
        snprintf(v->error, sizeof v->error, "%s: %s", column, why);
}

static bool evaluate(struct batch *b, const struct record *rec, gpuocc_result *r, struct verdict *v)
{
    if (rec->open_quote) {
        v->status = "parse";
        snprintf(v->error, sizeof v->error, "a quoted cell is not closed before the end of the input");
        return false;
    }
    if (rec->ncells != b->ncols) {
        v->status = "parse";
        snprintf(v->error, sizeof v->error, "row has %ld cells, the header has %d", (long)rec->ncells, b->ncols);
        return false;
    }
    size_t n;
    const char *s = cell_value(rec, b->where[COL_ARCH], b->scratch, &n);
    int32_t rc;
    const gpuocc_device *dev = find_arch(b, s, n, &rc);
    if (rc != GPUOCC_OK) {
        if (n == 0) {
            v->status = "parse";
            snprintf(v->error, sizeof v->error, "%s: empty", label(b, COL_ARCH));
        } else
            bad_cell(v, gpuocc_status_name(rc), label(b, COL_ARCH), "unknown architecture or product", s, n);
        return false;
    }
    gpuocc_kernel k;
    gpuocc_kernel_init(&k);
    k.smem_optin = 1;
    int64_t x;
    if (!int_cell(b, rec, COL_THREADS, INT32_MIN, INT32_MAX, &x, false, v))
        return false;
    k.threads_per_block = (int32_t)x;
    x = 0;
    if (dev->vendor == GPUOCC_VENDOR_INTEL && cell_given(b, rec, COL_REGS, &s, &n)) {
        bad_cell(v, "argument", label(b, COL_REGS), "registers per thread do not apply to Intel: use grf", s, n);
        return false;
    }
    if (dev->vendor != GPUOCC_VENDOR_INTEL && b->where[COL_REGS] < 0) {
        v->status = "parse";
        snprintf(v->error, sizeof v->error, "regs: required for NVIDIA and AMD rows (the header has no regs column)");
        return false;
    }
    if (dev->vendor != GPUOCC_VENDOR_INTEL && !int_cell(b, rec, COL_REGS, INT32_MIN, INT32_MAX, &x, false, v))
        return false;
    k.regs_per_thread = (int32_t)x;
    x = k.smem_static_bytes;
    if (!int_cell(b, rec, COL_SMEM_STATIC, 0, INT64_MAX, &x, true, v))
        return false;
    k.smem_static_bytes = x;
    x = k.smem_dynamic_bytes;
    if (!int_cell(b, rec, COL_SMEM_DYNAMIC, 0, INT64_MAX, &x, true, v))
        return false;
    k.smem_dynamic_bytes = x;
    x = k.barriers;
    if (!int_cell(b, rec, COL_BARRIERS, INT32_MIN, INT32_MAX, &x, false, v))
        return false;
    k.barriers = (int32_t)x;
    x = k.carveout_percent;
    if (!int_cell(b, rec, COL_CARVEOUT, INT32_MIN, INT32_MAX, &x, false, v))
        return false;
    k.carveout_percent = (int32_t)x;
    x = k.smem_optin;
    if (!int_cell(b, rec, COL_SMEM_OPTIN, INT32_MIN, INT32_MAX, &x, false, v))
        return false;
    if (x != 0 && x != 1) {
        s = cell_value(rec, b->where[COL_SMEM_OPTIN], b->scratch, &n);
        bad_cell(v, "argument", label(b, COL_SMEM_OPTIN), "expected 0 or 1", s, n);
        return false;
    }
    k.smem_optin = (int32_t)x;
    /* NVIDIA's virtual resources and tensor-memory columns (empty: the kernel's 0); their domains are the
       library's to check */
    x = k.virtual_resources;
    if (!int_cell(b, rec, COL_VIRTUAL_RESOURCES, INT32_MIN, INT32_MAX, &x, false, v))
        return false;
    k.virtual_resources = (int32_t)x;
    x = k.tmem_columns;
    if (!int_cell(b, rec, COL_TMEM_COLUMNS, INT32_MIN, INT32_MAX, &x, false, v))
        return false;
    k.tmem_columns = (int32_t)x;
    /* the kernel's launch bound (NVIDIA's __launch_bounds__, Intel's largest work-group): a larger block fits 0
       blocks, exceeded threads (AMD's flat maximum is read with AMD's columns) */
    x = 0;
    if (dev->vendor != GPUOCC_VENDOR_AMD && !int_cell(b, rec, COL_MAX_THREADS, 0, INT32_MAX, &x, false, v))
        return false;
    if (dev->vendor != GPUOCC_VENDOR_AMD)
        k.max_threads_per_block = (int32_t)x;
    if ((b->vendor_columns && !vendor_cells(b, rec, dev, v)) ||
        (dev->vendor == GPUOCC_VENDOR_AMD && !amd_cells(b, rec, dev, &k, v)) ||
        (dev->vendor == GPUOCC_VENDOR_INTEL && !intel_cells(b, rec, dev, &k, v))) {
        library_refusal(b, rec, dev, &k, v);
        return false;
    }
    rc = gpuocc_occupancy(dev, &k, r);
    if (rc == GPUOCC_OK) {
        /* workgroups_per_gpu: Intel's, with an Xe-core count; -1 (an empty cell, null) elsewhere */
        if (dev->vendor != GPUOCC_VENDOR_INTEL || dev->sm_count <= 0)
            r->workgroups_per_gpu = -1;
        /* 0 blocks: the input over a limit, as the library names it (and `report` prints it) */
        char why[256];
        v->exceeded = cli_exceeded(dev, &k, r, why, sizeof why);
        v->exceeded_limit = r->exceeded_limit;
        return true;
    }
    /* the library's status, and the columns (as the input names them) that carry the value it rejected */
    int cols[2] = {-1, -1};
    if (rc == GPUOCC_ERR_THREADS)
        cols[0] = COL_THREADS;
    else if (rc == GPUOCC_ERR_REGISTERS)
        cols[0] = COL_REGS, cols[1] = dev->vendor == GPUOCC_VENDOR_AMD ? COL_AGPRS : -1;
    else if (rc == GPUOCC_ERR_SMEM)
        cols[0] = COL_SMEM_STATIC, cols[1] = COL_SMEM_DYNAMIC;
    else if (rc == GPUOCC_ERR_BARRIERS)
        cols[0] = COL_BARRIERS;
    else if (rc == GPUOCC_ERR_CARVEOUT)
        cols[0] = COL_CARVEOUT;
    else if (rc == GPUOCC_ERR_OVERFLOW) /* the block's total overflows: the larger size carries it */
        cols[0] = k.smem_dynamic_bytes >= k.smem_static_bytes ? COL_SMEM_DYNAMIC : COL_SMEM_STATIC;
    else if (rc == GPUOCC_ERR_ARGUMENT && r->exceeded == GPUOCC_INPUT_VIRTUAL_RESOURCES)
        cols[0] = COL_VIRTUAL_RESOURCES;
    else if (rc == GPUOCC_ERR_ARGUMENT && r->exceeded == GPUOCC_INPUT_TMEM_COLUMNS)
        cols[0] = COL_TMEM_COLUMNS;
    char why[256];
    const char *refused = cli_exceeded(dev, &k, r, why, sizeof why);
    if (refused) { /* a launch that cannot run: the column of the input the library names, and its limit */
        v->exceeded = refused, v->exceeded_limit = r->exceeded_limit;
        v->status = gpuocc_status_name(rc);
        snprintf(v->error, sizeof v->error, "%s: %s", label(b, column_of_input[r->exceeded]), why);
        return false;
    }
    char column[160] = "launch";
    if (cols[0] >= 0 && cols[1] >= 0)
        snprintf(column, sizeof column, "%s/%s", label(b, cols[0]), label(b, cols[1]));
    else if (cols[0] >= 0)
        snprintf(column, sizeof column, "%s", label(b, cols[0]));
    v->status = gpuocc_status_name(rc);
    snprintf(v->error, sizeof v->error, "%s: %s", column, gpuocc_strerror(rc));
    return false;
}

/* ---- printing a row ---- */

static void put_limit_csv(struct out *o, int32_t v)
{
    o->buf[o->n++] = ',';
    put_i64(o, v == GPUOCC_UNLIMITED ? -1 : v);
}

static void put_limiters(struct out *o, uint32_t mask, bool json)
{
    bool first = true;
    if (json)
        o->buf[o->n++] = '[';
    for (int32_t i = 0; i <= GPUOCC_RESOURCE_VIRTUAL; i++) /* every vendor's resources */
        if (mask & (1u << i)) {
            if (!first)
                o->buf[o->n++] = json ? ',' : '|';
            first = false;
            const char *name = gpuocc_resource_name(i);
            size_t len = strlen(name);
            if (json)
                o->buf[o->n++] = '"';
            memcpy(o->buf + o->n, name, len);
            o->n += len;
            if (json)
                o->buf[o->n++] = '"';
        }
    if (json)
        o->buf[o->n++] = ']';
}

#define EXTRA_LEAD "; the extra cells: "

/* A row longer than the header: its cells past the header's count, quoted in the error so no byte is lost. */
static void row_extra(const struct batch *b, const struct record *rec, const char **extra, size_t *n)
{
    if (rec->ncells <= b->ncols)
        return;
    size_t keep = rec->cells[b->ncols].off - 1;
    *extra = rec->text + keep + 1;
    *n = rec->len - keep - 1;
}

/* AMD's results, each followed by a comma: [model,] waves_per_simd, limit_sgprs (NVIDIA: empty, empty, -1). */
static void put_amd_csv(struct batch *b, const gpuocc_result *r)
{
    struct out *o = &b->o;
    bool amd = r->model == GPUOCC_MODEL_COMPILER || r->model == GPUOCC_MODEL_RUNTIME ||
               r->model == GPUOCC_MODEL_LLVM19;
    const char *m = model_name(r->model);
    if (b->result_model) {
        size_t n = m ? strlen(m) : 0;
        memcpy(o->buf + o->n, m ? m : "", n);
        o->n += n;
        o->buf[o->n++] = ',';
    }
    if (amd)
        put_i64(o, r->waves_per_simd);
    o->buf[o->n++] = ',';
    put_i64(o, r->limit_sgprs == GPUOCC_UNLIMITED ? -1 : r->limit_sgprs);
    o->buf[o->n++] = ',';
}

/* The cells `exceeded,exceeded_limit,` (both empty when nothing is over a limit). */
static void put_exceeded_csv(struct out *o, const struct verdict *x)
{
    if (!x->exceeded) {
        out_bytes(o, ",,", 2);
        return;
    }
    out_str(o, x->exceeded);
    out_room(o, 32);
    o->buf[o->n++] = ',';
    put_i64(o, x->exceeded_limit);
    o->buf[o->n++] = ',';
}

static void put_exceeded_json(struct out *o, const struct verdict *x)
{
    if (!x->exceeded) {
        out_str(o, ",\"exceeded\":null,\"exceeded_limit\":null");
        return;
    }
    out_str(o, ",\"exceeded\":\"");
    out_str(o, x->exceeded);
    out_str(o, "\",\"exceeded_limit\":");
    out_room(o, 32);
    put_i64(o, x->exceeded_limit);
}

/* The echoed cells of a record whose header has replaced columns: each kept cell as it came, a short row padded,
   a long one cut after the header's count (as print_csv_row echoes a record whole). */
/* The next column at or after *i that the echo keeps (a replaced one is this run's answer), the separator
   written before each but the first; false past the last. */
static bool next_echoed(struct batch *b, int32_t *i, bool *first)
{
    while (*i < b->ncols && b->replaced[*i])
        ++*i;
    if (*i >= b->ncols)
        return false;
    if (!*first)
        out_bytes(&b->o, ",", 1);
    *first = false;
    return true;
}

static void put_echo_cells(struct batch *b, const struct record *rec)
{
    struct out *o = &b->o;
    bool first = true;
    int32_t cells = rec->skipped ? 0 : rec->ncells;
    for (int32_t i = 0; next_echoed(b, &i, &first); i++) {
        if (i >= cells)
            continue;
        out_bytes(o, rec->text + rec->cells[i].off, rec->cells[i].len);
        if (rec->open_quote && i == cells - 1)
            out_bytes(o, "\"", 1); /* close what the input left open, so the results stay in their columns */
    }
}

/* v: the bad row's verdict, NULL for an answered row; x: the row's verdict either way (its `exceeded`). */
static void print_csv_row(struct batch *b, const struct record *rec, const gpuocc_result *r,
                          const struct verdict *v, const struct verdict *x)
{
    struct out *o = &b->o;
    /* the cells as they came; a short row padded, a long one cut after the header's count (the rest is
       quoted in the error) */
    if (b->any_replaced)
        put_echo_cells(b, rec);
    else {
        size_t keep = rec->len;
        if (rec->ncells > b->ncols)
            keep = rec->cells[b->ncols].off - 1;
        out_bytes(o, rec->text, keep);
        if (rec->open_quote && rec->ncells <= b->ncols)
            out_bytes(o, "\"", 1); /* close what the input left open, so the results stay in their columns */
        for (int32_t i = rec->ncells; i < b->ncols; i++)
            out_bytes(o, ",", 1);
    }
    out_room(o, 448);
    o->buf[o->n++] = ',';
    if (!v) {
        memcpy(o->buf + o->n, "ok,", 3);
        o->n += 3;
        put_i64(o, r->blocks_per_sm);
        o->buf[o->n++] = ',';
        put_i64(o, r->warps_per_sm);
        o->buf[o->n++] = ',';
        put_fixed6(o, r->occupancy);
        o->buf[o->n++] = ',';
        put_limiters(o, r->limiters, false);
        put_limit_csv(o, r->limit_warps);
        put_limit_csv(o, r->limit_regs);
        put_limit_csv(o, r->limit_smem);
        put_limit_csv(o, r->limit_blocks);
        put_limit_csv(o, r->limit_barriers);
        o->buf[o->n++] = ',';
        put_i64(o, r->regs_per_block);
        o->buf[o->n++] = ',';
        put_i64(o, r->smem_per_block_bytes);
        o->buf[o->n++] = ',';
        put_amd_csv(b, r);
        if (r->workgroups_per_gpu >= 0) /* Intel's GPU-wide count; empty where evaluate did not give one */
            put_i64(o, r->workgroups_per_gpu);
        put_limit_csv(o, r->limit_virtual_resources);
        o->buf[o->n++] = ',';
        put_exceeded_csv(o, x);
        out_room(o, 32);
        put_i64(o, rec->line);
        memcpy(o->buf + o->n, ",\n", 2);
        o->n += 2;
        return;
    }
    size_t sn = strlen(v->status);
    memcpy(o->buf + o->n, v->status, sn);
    o->n += sn;
    /* the results' empty cells, then the line */
    size_t empty = 16 + (b->result_model ? 1 : 0);
    memcpy(o->buf + o->n, ",,,,,,,,,,,,,,,,,", empty);
    o->n += empty;
    put_exceeded_csv(o, x);
    out_room(o, 32);
    put_i64(o, rec->line);
    o->buf[o->n++] = ',';
    const char *extra = "";
    size_t en = 0;
    row_extra(b, rec, &extra, &en);
    const char *parts[] = {v->error, EXTRA_LEAD, extra};
    const size_t lens[] = {strlen(v->error), en ? strlen(EXTRA_LEAD) : 0, en};
    put_csv_parts(o, parts, lens, 3);
    out_bytes(o, "\n", 1);
}

static void print_json_row(struct batch *b, const struct record *rec, const gpuocc_result *r,
                           const struct verdict *v, const struct verdict *x)
{
    struct out *o = &b->o;
    out_bytes(o, "{", 1);
    bool first = true;
    for (int32_t i = 0; next_echoed(b, &i, &first); i++) {
        put_json_string(o, b->name[i], strlen(b->name[i]));
        out_bytes(o, ":", 1);
        if (i >= rec->ncells || rec->skipped) {
            out_str(o, "null");
            continue;
        }
        size_t n;
        const struct cell *c = &rec->cells[i];
        const char *s = rec->text + c->off;
        n = c->len;
        if (n && s[0] == '"') /* the cell's value, unquoted (not trimmed: echoed as it came) */
            s = cell_value(rec, i, b->scratch, &n);
        put_json_string(o, s, n);
    }
    out_str(o, ",\"status\":");
    put_json_string(o, v ? v->status : "ok", strlen(v ? v->status : "ok"));
    out_room(o, 704);
    if (!v) {
        const char *keys[] = {",\"blocks_per_sm\":", ",\"warps_per_sm\":", ",\"occupancy\":", ",\"limiters\":"};
        out_str(o, keys[0]);
        put_i64(o, r->blocks_per_sm);
        out_str(o, keys[1]);
        put_i64(o, r->warps_per_sm);
        out_str(o, keys[2]);
        put_fixed6(o, r->occupancy);
        out_str(o, keys[3]);
        put_limiters(o, r->limiters, true);
        const char *lk[] = {",\"limit_warps\":", ",\"limit_regs\":", ",\"limit_smem\":", ",\"limit_blocks\":",
                            ",\"limit_barriers\":"};
        const int32_t lv[] = {r->limit_warps, r->limit_regs, r->limit_smem, r->limit_blocks, r->limit_barriers};
        for (int i = 0; i < 5; i++) {
            out_str(o, lk[i]);
            if (lv[i] == GPUOCC_UNLIMITED)
                out_str(o, "null");
            else
                put_i64(o, lv[i]);
        }
        out_str(o, ",\"regs_per_block\":");
        put_i64(o, r->regs_per_block);
        out_str(o, ",\"smem_per_block\":");
        put_i64(o, r->smem_per_block_bytes);
        bool amd = r->model == GPUOCC_MODEL_COMPILER || r->model == GPUOCC_MODEL_RUNTIME ||
                   r->model == GPUOCC_MODEL_LLVM19;
        const char *m = model_name(r->model);
        if (b->result_model) {
            out_str(o, ",\"model\":");
            if (m) {
                out_str(o, "\"");
                out_str(o, m);
                out_str(o, "\"");
            } else {
                out_str(o, "null");
            }
        }
        out_str(o, ",\"waves_per_simd\":");
        if (amd)
            put_i64(o, r->waves_per_simd);
        else
            out_str(o, "null");
        out_str(o, ",\"limit_sgprs\":");
        if (r->limit_sgprs == GPUOCC_UNLIMITED)
            out_str(o, "null");
        else
            put_i64(o, r->limit_sgprs);
        out_str(o, ",\"workgroups_per_gpu\":");
        if (r->workgroups_per_gpu >= 0)
            put_i64(o, r->workgroups_per_gpu);
        else
            out_str(o, "null");
        out_str(o, ",\"limit_virtual_resources\":");
        if (r->limit_virtual_resources == GPUOCC_UNLIMITED)
            out_str(o, "null");
        else
            put_i64(o, r->limit_virtual_resources);
    } else {
        out_str(o, ",\"blocks_per_sm\":null,\"warps_per_sm\":null,\"occupancy\":null,\"limiters\":null,"
                   "\"limit_warps\":null,\"limit_regs\":null,\"limit_smem\":null,\"limit_blocks\":null,"
                   "\"limit_barriers\":null,\"regs_per_block\":null,\"smem_per_block\":null");
        if (b->result_model)
            out_str(o, ",\"model\":null");
        out_str(o, ",\"waves_per_simd\":null,\"limit_sgprs\":null,\"workgroups_per_gpu\":null,"
                   "\"limit_virtual_resources\":null");
    }
    put_exceeded_json(o, x);
    out_str(o, ",\"line\":");
    out_room(o, 32);
    put_i64(o, rec->line);
    out_str(o, ",\"error\":");
    if (v) {
        const char *extra = "";
        size_t en = 0;
        row_extra(b, rec, &extra, &en);
        out_bytes(o, "\"", 1);
        put_json_body(o, v->error, strlen(v->error));
        if (en)
            put_json_body(o, EXTRA_LEAD, strlen(EXTRA_LEAD));
        put_json_body(o, extra, en);
        out_bytes(o, "\"", 1);
    } else
        out_str(o, "null");
    out_bytes(o, "}\n", 2);
}

/* ---- the header ---- */

/* The launch column a header cell names (its name or an alias), or -1. */
static int input_column(const char *name)
{
    for (int c = 0; c < COL_COUNT; c++)
        if (!strcmp(name, column_names[c]))
            return c;
    for (size_t k = 0; k < ALIAS_COUNT; k++)
        if (!strcmp(name, column_aliases[k].name))
            return column_aliases[k].column;
    return -1;
}

/* A header name as the tables below spell names: lowercase, without '_', '-', '.' and spaces.  False when
   it is longer than any of them could be. */
static bool fold(const char *name, char *out, size_t cap)
{
    size_t w = 0;
    for (; *name; name++) {
        char c = *name;
        if (c == '_' || c == '-' || c == '.' || c == ' ')
            continue;
        if (w + 1 == cap)
            return false;
        out[w++] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
    }
    out[w] = '\0';
    return true;
}

/* Launch inputs of the vocabulary (docs/vocabulary.md) that are no batch column, folded, and why: a column
   of one of them is named with the reason, and the run exits 1 (its answers do not include it). */
static const struct {
    const char *name, *why;
} unread_inputs[] = {
    {"smemdynamicmax", "the opt-in attribute's own value is no batch input (smem_optin 1 allows the device's "
                       "most; Python's kernel(smem_dynamic_max=) takes it)"},
    {"smemdynamicmaxbytes", "the opt-in attribute's own value is no batch input (smem_optin 1 allows the "
                            "device's most; Python's kernel(smem_dynamic_max=) takes it)"},
    {"setmaxnreg", "register reallocation is answered by 'gpuocc report --setmaxnreg'"},
    {"minblocks", "__launch_bounds__'s minimum of blocks is checked by 'gpuocc report --min-blocks'"},
    {"targetblocks", "the inverse queries are answered by 'gpuocc report --blocks' (and Python's "
                     "smem_dynamic_available, regs_max_for_blocks, max_stages)"},
    {"stagebytes", "pipeline stages are answered by 'gpuocc report --stage-bytes' (and Python's max_stages)"},
    {"basebytes", "pipeline stages are answered by 'gpuocc report --stage-bytes --base-bytes' (and Python's "
                  "max_stages)"},
    {"maxregs", "a register cap is no launch input: give the registers the kernel uses (regs); Python's "
                "gpuocc.fits judges a configuration at its max_regs"},
};

/* Output columns of gpuocc report and gpuocc sweep that are no batch input nor result (report's CSV read back):
   never taken for a near miss of an input ('waves' is no typo of waves-per-eu-max), named in the "columns not
   read" line as every other output column. */
static const char *const output_columns[] = {
    "device", "vendor", "sm_count", "max_warps_per_sm", "smem_per_sm", "tmem_holders_per_sm", "tmem_waiting_blocks", "setmaxnreg_fits", "setmaxnreg_pool_regs",
    "setmaxnreg_requested_regs", "setmaxnreg_mean_regs", "setmaxnreg_unfixed", "min_blocks_reached",
    "min_blocks_preventing", "cluster_x", "cluster_y", "cluster_z", "cluster_nonportable", "grid_x", "grid_y",
    "grid_z", "gpc_sms", "cluster_blocks", "cluster_blocks_max", "cluster_verdict", "clusters_kind",
    "clusters_min", "clusters_max", "grid_blocks", "waves", "smem_dynamic_available", "regs_max_for_blocks",
    "max_stages",
};

/* Whether a column is named as one of the batch's own results (result_header, `model`, result_header_tail) */
static bool result_column(const char *name)
{
    static const char *const results[] = {
        "status", "blocks_per_sm", "warps_per_sm", "occupancy", "limiters", "limit_warps", "limit_regs",
        "limit_smem", "limit_blocks", "limit_barriers", "regs_per_block", "smem_per_block", "waves_per_simd",
        "limit_sgprs", "workgroups_per_gpu", "limit_virtual_resources", "exceeded", "exceeded_limit", "line",
        "error",
    };
    for (size_t k = 0; k < sizeof results / sizeof results[0]; k++)
        if (!strcmp(name, results[k]))
            return true;
    return false;
}

/* The launch input of unread_inputs a column names (its index), or -1 */
static int unread_input(const char *name)
{
    char f[48];
    if (!fold(name, f, sizeof f))
        return -1;
    for (size_t k = 0; k < sizeof unread_inputs / sizeof unread_inputs[0]; k++)
        if (!strcmp(f, unread_inputs[k].name))
            return (int)k;
    return -1;
}

/* Other tools' names for an input column, folded (the C fields, CUDA's, Intel's zeinfo keys, AMD's metadata
   keys): a column of one of them is a near miss however far from the column's spelling it is.  Not the
   batch's own outputs (regs_per_block, smem_per_block: a batch's output read again), nor names of other
   quantities (block_size, a tile's size in tuning tables; max_regs, a cap). */
static const struct {
    const char *name, *column;
} column_meanings[] = {
    {"regsperthread", "regs"},           {"registersperthread", "regs"},   {"regperthread", "regs"},
    {"registers", "regs"},               {"numregs", "regs"},              {"numregisters", "regs"},
    {"nregs", "regs"},                   {"regcount", "regs"},             {"registercount", "regs"},
    {"vgprcount", "regs"},               {"numvgprs", "regs"},             {"sgprcount", "sgprs"},
    {"numsgprs", "sgprs"},               {"agprcount", "agprs"},           {"numagprs", "agprs"},
    {"threadsperblock", "threads"},      {"numthreads", "threads"},        {"nthreads", "threads"},
    {"blockdim", "threads"},             {"workgroupsize", "threads"},     {"localworksize", "threads"},
    {"maxthreadsperblock", "max_threads"}, {"maxflatworkgroupsize", "max_threads"},
    {"sharedsizebytes", "smem_static"},  {"groupsegmentfixedsize", "smem_static"}, {"slmsize", "slm"},
    {"numbarriers", "barriers"},         {"barriercount", "barriers"},     {"nbarriers", "barriers"},
    {"carveoutpercent", "carveout"},     {"sharedmemorycarveout", "carveout"},
    {"preferredsharedmemorycarveout", "carveout"}, {"simdsize", "sub_group"}, {"subgroupsize", "sub_group"},
    {"grfcount", "grf"},                 {"wavefrontsize", "wave_size"},   {"rocmversion", "rocm"},
    {"tmemcols", "tmem_columns"},
};

static bool ends_with(const char *s, size_t n, const char *word)
{
    size_t k = strlen(word);
    return n > k && !memcmp(s + n - k, word, k);
}

/* Shared memory in other words, folded ("sharedmem", "dynamicsmem", "shmembytes", "smemstaticsize"): an
   optional qualifier (dynamic, dyn, static) before or after sharedmemory, sharedmem, shmem or smem (or
   shared, with a qualifier or a unit), then an optional unit (bytes, size).  *second is the other column
   when the name does not say which. */
static bool shared_memory_meaning(const char *f, const char **first, const char **second)
{
    static const struct {
        const char *word;
        const char *column;
    } qualifiers[] = {{"dynamic", "smem_dynamic"}, {"dyn", "smem_dynamic"}, {"static", "smem_static"}};
    static const char *const cores[] = {"sharedmemory", "sharedmem", "shmem", "smem", "shared"};
    size_t start = 0, end = strlen(f);
    bool unit = ends_with(f, end, "bytes") || ends_with(f, end, "size");
    if (unit)
        end -= ends_with(f, end, "bytes") ? 5 : 4;
    const char *column = NULL;
    for (size_t q = 0; q < 3 && !column; q++) {
        size_t k = strlen(qualifiers[q].word);
        if (end > k && !memcmp(f, qualifiers[q].word, k))
            start = k, column = qualifiers[q].column;
        else if (ends_with(f, end, qualifiers[q].word))
            end -= k, column = qualifiers[q].column;
    }
    for (size_t c = 0; c < sizeof cores / sizeof cores[0]; c++) {
        size_t k = strlen(cores[c]);
        if (end - start == k && !memcmp(f + start, cores[c], k) && (c < 4 || unit || column)) {
            *first = column ? column : "smem_dynamic";
            *second = column ? NULL : "smem_static";
            return true;
        }
    }
    return false;
}

/* A header cell that is no input column but most likely means one: one stderr line naming it and the input
   column(s) it may mean, or why the batch does not read it; every row is still answered (without it) and
   the run exits 1.  False when it is no near miss. */
static bool near_miss(struct cli_io *io, const char *name, size_t n, const char *shown)
{
    char f[48];
    bool folded = fold(name, f, sizeof f);
    for (size_t k = 0; k < sizeof output_columns / sizeof output_columns[0]; k++)
        if (!strcmp(name, output_columns[k]))
            return false;
    if (!strcmp(name, "no_optin") || !strcmp(name, "no-optin")) {
        cli_problem(io, "header", "column '%s' is not read by gpuocc (echoed unchanged); did you mean "
                    "'smem_optin' (0: --no-optin)?", shown);
        return true;
    }
    const char *first = NULL, *second = NULL;
    for (size_t k = 0; folded && k < sizeof column_meanings / sizeof column_meanings[0] && !first; k++)
        if (!strcmp(f, column_meanings[k].name))
            first = column_meanings[k].column;
    if (!first && folded)
        shared_memory_meaning(f, &first, &second);
    if (!first && n > 3) { /* a typo; three letters or fewer are too short to tell one from another name */
        const char *names[COL_COUNT + ALIAS_COUNT];
        for (size_t k = 0; k < COL_COUNT + ALIAS_COUNT; k++)
            names[k] = k < COL_COUNT ? column_names[k] : column_aliases[k - COL_COUNT].name;
        first = cli_nearest(name, names, COL_COUNT + ALIAS_COUNT);
    }
    if (!first)
        return false;
    if (second)
        cli_problem(io, "header", "column '%s' is not read by gpuocc (echoed unchanged); did you mean '%s' or "
                    "'%s'?", shown, first, second);
    else
        cli_problem(io, "header", "column '%s' is not read by gpuocc (echoed unchanged); did you mean '%s'?", shown,
                    first);
    return true;
}

static int read_header(struct batch *b, const struct record *rec)
{
    struct cli_io *io = b->io;
    if (rec->ncells > MAX_COLUMNS)
        return cli_fail(io, "header", "more than %d columns", MAX_COLUMNS);
    b->ncols = rec->ncells;
    for (int c = 0; c < COL_COUNT; c++)
        b->where[c] = -1;
    b->names = malloc(rec->len + (size_t)rec->ncells + 1);
    if (!b->names)
        return cli_fail(io, "header", "out of memory");
    char *w = b->names;
    /* the columns not read, for one line after the header (each name at most as long as a label) */
    size_t unread_cap = (size_t)rec->ncells * (sizeof b->label[0] + 2) + 1, unread_len = 0;
    char *unread = malloc(unread_cap), *replaced = malloc(unread_cap);
    size_t replaced_len = 0;
    if (!unread || !replaced) {
        free(unread);
        free(replaced);
        return cli_fail(io, "header", "out of memory");
    }
    for (int32_t i = 0; i < rec->ncells; i++) {
        size_t n;
        const char *s = cell_value(rec, i, b->scratch, &n);
        memcpy(w, s, n);
        w[n] = '\0';
        b->name[i] = w;
        w += n + 1;
        /* a name holding a NUL names no input (its C string would be a prefix); messages show it escaped */
        int c = memchr(s, '\0', n) ? -1 : input_column(b->name[i]);
        char shown[sizeof b->label[0]];
        cli_escape(s, n, shown, sizeof shown);
        if (c < 0) {
            /* echoed unchanged; a tag (tag, tag_*) without a word; a near miss of an input column (a typo, or
               another tool's name for it), whose answers would look right, with one line and exit 1; any
               other column in the one line below, which changes no exit status */
            bool tag = !strcmp(b->name[i], "tag") || !strncmp(b->name[i], "tag_", 4);
            if (!memchr(s, '\0', n) && result_column(b->name[i])) { /* the fresh answer replaces it */
                b->replaced[i] = b->any_replaced = true;
                replaced_len += (size_t)snprintf(replaced + replaced_len, unread_cap - replaced_len, "%s%s",
                                                 replaced_len ? ", " : "", shown);
                continue;
            }
            int why = tag || memchr(s, '\0', n) ? -1 : unread_input(b->name[i]);
            if (why >= 0) { /* named at the first row that gives it a value */
                if (b->unread_input_count < (int32_t)(sizeof b->unread_input_col / sizeof b->unread_input_col[0])) {
                    b->unread_input_col[b->unread_input_count] = i;
                    b->unread_input_why[b->unread_input_count++] = why;
                } else
                    cli_problem(io, "header", "column '%s' is not read by gpuocc batch (echoed unchanged): %s",
                                shown, unread_inputs[why].why);
                continue;
            }
            if (!tag && !near_miss(io, b->name[i], n, shown)) {
                if (unread_len)
                    unread_len += (size_t)snprintf(unread + unread_len, unread_cap - unread_len, ", ");
                unread_len += (size_t)(n ? snprintf(unread + unread_len, unread_cap - unread_len, "%s", shown)
                                         : snprintf(unread + unread_len, unread_cap - unread_len,
                                                    "(column %d, no name)", (int)i + 1));
            }
            continue;
        }
        if (b->where[c] >= 0) {
            free(unread);
            free(replaced);
            if (!strcmp(b->name[b->where[c]], b->name[i]))
                return cli_fail(io, "header", "column '%s' appears twice", shown);
            return cli_fail(io, "header", "columns '%s' and '%s' both give %s: keep one of them", b->label[c], shown,
                            column_names[c]);
        }
        b->where[c] = i;
        memcpy(b->label[c], shown, sizeof shown);
    }
    if (unread_len) /* named once, whatever the rows: they are echoed (tags not named) */
        cli_notice(io, "header", "columns not read: %s", unread);
    if (replaced_len) /* a batch's or a sweep's output read again: one column of each name in the output */
        cli_notice(io, "header", "columns replaced by this run's answers: %s", replaced);
    free(unread);
    free(replaced);
    b->result_model = b->where[COL_MODEL] < 0;
    for (int c = COL_BARRIERS; c < COL_COUNT; c++)
        b->vendor_columns |= b->where[c] >= 0;
    /* regs may be left out where Intel's columns say the rows are Intel's (their register demand is grf) */
    bool intel_header = b->where[COL_SUB_GROUP] >= 0 || b->where[COL_GRF] >= 0;
    for (int c = COL_ARCH; c <= COL_REGS; c++)
        if (b->where[c] < 0 && !(c == COL_REGS && intel_header))
            return cli_fail(io, "header", "missing required column '%s' (the header needs arch,threads,regs; "
                            "regs may be named vgprs)",
                            column_names[c]);
    if (b->json)
        return CLI_OK;
    if (b->any_replaced)
        put_echo_cells(b, rec);
    else
        out_bytes(&b->o, rec->text, rec->len);
    out_bytes(&b->o, ",", 1);
    out_str(&b->o, result_header);
    if (b->result_model)
        out_str(&b->o, "model,");
    out_str(&b->o, result_header_tail);
    out_bytes(&b->o, "\n", 1);
    return CLI_OK;
}

/* ---- the command ---- */

static FILE *open_input(struct cli_io *io, const char *path)
{
    if (!path || !strcmp(path, "-")) {
        cli_note_terminal_input(io, "CSV");
        return io->in;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_fail(io, path, "cannot open: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        cli_fail(io, path, "cannot read: %s", strerror(EISDIR));
        return NULL;
    }
    return f;
}

/* A column of a launch input the batch does not read, given a value in this row: one stderr line, the first
   time only (the run exits 1; every row is answered without it). */
static void unread_input_cells(struct batch *b, const struct record *rec)
{
    for (int32_t k = 0; k < b->unread_input_count; k++) {
        int32_t i = b->unread_input_col[k];
        size_t n = 0;
        if (i >= rec->ncells || rec->skipped || (cell_value(rec, i, b->scratch, &n), n == 0))
            continue;
        char field[32], shown[64];
        snprintf(field, sizeof field, "line %lld", (long long)rec->line);
        cli_escape(b->name[i], strlen(b->name[i]), shown, sizeof shown);
        cli_problem(b->io, field, "column '%s' is not read by gpuocc batch (echoed unchanged): %s", shown,
                    unread_inputs[b->unread_input_why[k]].why);
        b->unread_input_col[k] = b->unread_input_col[--b->unread_input_count];
        b->unread_input_why[k--] = b->unread_input_why[b->unread_input_count];
    }
}

/* A bad row's stderr line: the text of its `error` cell (the extra cells included), control bytes escaped. */
static void report_row(struct batch *b, const struct record *rec, const struct verdict *v)
{
    b->bad_rows++;
    char field[32];
    snprintf(field, sizeof field, "line %lld", (long long)rec->line);
    const char *extra = "";
    size_t en = 0;
    row_extra(b, rec, &extra, &en);
    char *shown = en ? malloc(4 * en + 1) : NULL;
    if (shown)
        cli_escape(extra, en, shown, 4 * en + 1);
    cli_problem(b->io, field, "%s%s%s", v->error, en ? EXTRA_LEAD : "", shown ? shown : en ? "..." : "");
    free(shown);
}

static int run_batch(struct batch *b, struct reader *rd)
{
    struct cli_io *io = b->io;
    struct record *rec = malloc(sizeof *rec);
    if (!rec)
        return cli_fail(io, "batch", "out of memory");
    /* the header: the first non-blank record, after an optional UTF-8 byte-order mark */
    if (refill(rd) && rd->end - rd->pos >= 3 && memcmp(rd->buf + rd->pos, "\xef\xbb\xbf", 3) == 0)
        rd->pos += 3;
    int got;
    while ((got = next_record(rd, rec)) == REC_OK && blank(rec))
        ;
    b->scratch = rd->scratch;
    const char *where = rd->f == io->in ? "stdin" : "input";
    if (got == REC_NONE && !ferror(rd->f)) {
        free(rec);
        return cli_fail(io, where, "empty input: expected a CSV header with arch,threads,regs");
    }
    if (got == REC_TOO_LONG) {
        long long line = (long long)rec->line;
        free(rec);
        return cli_fail(io, where, "line %lld: a header longer than %zu bytes (--max-record-bytes raises the "
                        "limit)", line, rd->max);
    }
    if (got == REC_OK && read_header(b, rec) != CLI_OK) {
        free(rec);
        return io->status;
    }
    while (got == REC_OK && !b->o.failed) {
        got = next_record(rd, rec);
        if (got == REC_TOO_LONG) /* a bad row of its own; the reader went on at the next record */
            got = REC_OK;
        if (got != REC_OK)
            break;
        b->scratch = rd->scratch; /* the reader may have grown it */
        if (!rec->skipped && blank(rec))
            continue;
        gpuocc_result r = {.size = sizeof r};
        struct verdict v;
        v.exceeded = NULL, v.exceeded_limit = 0;
        bool ok = false;
        if (rec->skipped) {
            v.status = "parse";
            snprintf(v.error, sizeof v.error, "a record longer than %zu bytes (--max-record-bytes raises the "
                     "limit): not read", rd->max);
        } else
            ok = evaluate(b, rec, &r, &v);
        if (b->unread_input_count)
            unread_input_cells(b, rec);
        if (!ok)
            report_row(b, rec, &v);
        if (b->json)
            print_json_row(b, rec, &r, ok ? NULL : &v, &v);
        else
            print_csv_row(b, rec, &r, ok ? NULL : &v, &v);
    }
    if (got == REC_NOT_TEXT)
        cli_fail(io, where, "no line break in the first %llu bytes: not CSV text", (unsigned long long)TEXT_PROBE);
    else if (got == REC_NO_MEMORY)
        cli_fail(io, where, "out of memory");
    else if (got == REC_READ_ERROR || ferror(rd->f))
        cli_fail(io, where, "cannot read: %s", strerror(errno ? errno : EIO));
    free(rec);
    return io->status;
}

static int cmd_batch(struct cli_io *io, int argc, char **argv)
{
    bool json = false;
    const char *path = NULL, *v = NULL;
    int64_t max_record = (int64_t)MAX_RECORD;
    struct cli_args a = {.io = io, .argc = argc, .argv = argv, .i = 1};
    for (; cli_more(&a); a.i++) {
        if (cli_switch(&a, "--json"))
            json = true;
        else if (cli_flag(&a, "--max-record-bytes", &v)) {
            max_record = cli_size(io, "--max-record-bytes", v);
            if (!io->status && (max_record < 1 || max_record > MAX_RECORD_CEILING))
                cli_fail(io, "--max-record-bytes", "expected 1 to %lld bytes (1G), got '%s'",
                         (long long)MAX_RECORD_CEILING, v);
        }
        else if ((argv[a.i][0] != '-' || !strcmp(argv[a.i], "-")) && !path)
            path = argv[a.i];
        else
            cli_unknown(&a);
    }
    if (io->status)
        return io->status;
    FILE *in = open_input(io, path);
    if (!in)
        return io->status;
    struct batch *b = calloc(1, sizeof *b);
    struct reader rd = {.f = in, .buf = malloc(CHUNK), .scratch = malloc(CHUNK), .cap = CHUNK, .line = 1,
                         .max = (size_t)max_record};
    char *obuf = malloc(1 << 16);
    if (b && rd.buf && rd.scratch && obuf) {
        b->io = io;
        b->json = json;
        b->o = (struct out){.f = io->out, .buf = obuf, .cap = 1 << 16};
        run_batch(b, &rd);
        out_flush(&b->o);
        if (b->o.failed)
            cli_output_error(io, b->o.err);
        free(b->names);
    } else
        cli_fail(io, "batch", "out of memory");
    free(obuf);
    free(rd.buf);
    free(rd.scratch);
    free(b);
    if (in != io->in)
        fclose(in);
    return io->status;
}

static const struct cli_option batch_options[] = {
    {"--json", NULL, "JSON lines (one object per row, the same keys) instead of CSV"},
    {"--max-record-bytes", "BYTES", "the longest record read (default 1M); a longer one is a bad row, and the "
                                    "rows after it are answered"},
    {NULL, NULL, NULL},
};

const struct cli_command cli_cmd_batch = {
    "batch", cmd_batch,
    "CSV launches in (arch,threads,regs[,smem_static,smem_dynamic,barriers,carveout,smem_optin,...]; NVIDIA: "
    "virtual_resources, tmem_columns; every vendor: max_threads; AMD: "
    "agprs, sgprs, wave_size, cu_mode, model, rocm, dvgpr, trap_handler, waves_per_eu_min, "
    "waves_per_eu_max, flat_workgroup_size_min; Intel: sub_group, grf, slm, model), one row out per row in; other "
    "columns echoed, named once on stderr unless tag_*",
    "[FILE|-] [--json] [--max-record-bytes BYTES]", batch_options,
    "gpuocc batch launches.csv > occupancy.csv\n"
    "printf 'arch,threads,regs\\nH100,256,64\\n' | gpuocc batch\n"
    "printf 'arch,threads,regs,sgprs,smem_static,model\\nMI300X,256,128,32,32K,runtime\\n' | gpuocc batch\n"
    "printf 'arch,threads,sub_group,grf,slm,model\\nmax-1550,512,16,256,64K,runtime\\n' | gpuocc batch\n"};
