/* The CLI framework: errors, output checks, flags, numbers, devices, help, JSON and CSV cells. */
#define _POSIX_C_SOURCE 200809L /* fileno, isatty: the note on reading a terminal */
#include "cli.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- errors and the output check ---- */

static void vreport(struct cli_io *io, const char *field, const char *fmt, va_list ap)
{
    cli_progress_clear(io);
    fprintf(io->err, "gpuocc: %s: ", field);
    vfprintf(io->err, fmt, ap);
    fputc('\n', io->err);
}

int cli_fail(struct cli_io *io, const char *field, const char *fmt, ...)
{
    if (io->status < CLI_USAGE) {
        va_list ap;
        va_start(ap, fmt);
        vreport(io, field, fmt, ap);
        va_end(ap);
        io->status = CLI_USAGE;
    }
    return CLI_USAGE;
}

void cli_problem(struct cli_io *io, const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(io, field, fmt, ap);
    va_end(ap);
    if (io->status < CLI_PARTIAL)
        io->status = CLI_PARTIAL;
}

void cli_notice(struct cli_io *io, const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(io, field, fmt, ap);
    va_end(ap);
}

void cli_output_error(struct cli_io *io, int err)
{
    if (!io->out_errno)
        io->out_errno = err;
}

bool cli_output_failed(struct cli_io *io)
{
    if (!ferror(io->out))
        return false;
    cli_output_error(io, errno);
    return true;
}

int cli_finish(struct cli_io *io, int status)
{
    errno = 0;
    if (fflush(io->out) != 0 || ferror(io->out)) {
        /* the flush's own reason, else the one kept when an earlier write failed */
        int e = errno ? errno : io->out_errno;
        fprintf(io->err, "gpuocc: output: cannot write%s%s\n", e ? ": " : "", e ? strerror(e) : "");
        return CLI_OUTPUT;
    }
    return status;
}

void cli_progress_clear(struct cli_io *io)
{
    if (io->progress_shown) {
        fputs("\r\033[K", io->err); /* back to the line's start, erase to its end */
        io->progress_shown = false;
    }
}

void cli_note_terminal_input(struct cli_io *io, const char *what)
{
    int fd = io->in ? fileno(io->in) : -1;
    if (fd >= 0 && isatty(fd))
        fprintf(io->err, "gpuocc %s: reading %s from standard input (a terminal); end with Ctrl-D\n",
                io->cmd ? io->cmd->name : "", what);
}

/* ---- help ---- */

void cli_help(FILE *f, const struct cli_command *c)
{
    fprintf(f, "usage: gpuocc %s %s\n\n%s\n\noptions:\n", c->name, c->synopsis, c->summary);
    for (const struct cli_option *o = c->options; o && o->name; o++) {
        char left[64];
        snprintf(left, sizeof left, "%s%s%s", o->name, o->value ? " " : "", o->value ? o->value : "");
        fprintf(f, "  %-22s %s\n", left, o->help);
    }
    fprintf(f, "  %-22s %s\n", "-h, --help", "this help");
    if (c->examples && *c->examples) {
        fprintf(f, "\nexamples:\n");
        for (const char *p = c->examples; *p;) {
            size_t n = strcspn(p, "\n");
            fprintf(f, "  %.*s\n", (int)n, p);
            p += n + (p[n] == '\n');
        }
    }
    fprintf(f, "\nexit status: 0 answered, 1 answered in part (or report: the launch cannot run), "
               "2 usage error or no usable input, 3 output not written\n");
}

/* ---- flags ---- */

bool cli_more(const struct cli_args *a)
{
    return a->i < a->argc && a->io->status == 0;
}

/* The flag at the cursor matched `name`: a usage error when it matched at another argument before. */
static void matched(struct cli_args *a, const char *name)
{
    for (int j = 0; j < a->seen; j++)
        if (a->seen_at[j] != a->i && strcmp(a->seen_name[j], name) == 0) {
            cli_fail(a->io, name, "given twice");
            return;
        }
    if (a->seen < CLI_FLAGS_SEEN) {
        a->seen_name[a->seen] = name;
        a->seen_at[a->seen++] = a->i;
    }
}

bool cli_flag(struct cli_args *a, const char *name, const char **value)
{
    const char *arg = a->argv[a->i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return false;
    if (arg[n] == '=') {
        matched(a, name);
        *value = arg + n + 1;
        return true;
    }
    if (arg[n] != '\0')
        return false;
    if (a->i + 1 >= a->argc) {
        cli_fail(a->io, name, "missing value");
        return false;
    }
    matched(a, name);
    *value = a->argv[++a->i];
    return true;
}

bool cli_switch(struct cli_args *a, const char *name)
{
    if (strcmp(a->argv[a->i], name) != 0)
        return false;
    matched(a, name);
    return true;
}

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* Levenshtein distance, case-insensitive, for words up to 63 characters (longer ones are never close). */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return SIZE_MAX;
    size_t row[64];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (lower((unsigned char)a[i - 1]) != lower((unsigned char)b[j - 1]));
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* Case-insensitive strcmp. */
static int compare_nocase(const char *a, const char *b)
{
    for (; *a && lower((unsigned char)*a) == lower((unsigned char)*b); a++, b++)
        ;
    return lower((unsigned char)*a) - lower((unsigned char)*b);
}

/* Whether `candidate` begins with `word` (case-insensitive), where the word says enough to mean something:
   two characters or more after any leading dashes ("H1", "--sm"). */
static bool begins(const char *word, const char *candidate)
{
    if (strlen(word + strspn(word, "-")) < 2)
        return false;
    for (; *word; word++, candidate++)
        if (lower((unsigned char)*word) != lower((unsigned char)*candidate))
            return false;
    return true;
}

const char *cli_nearest(const char *word, const char *const *candidates, size_t n)
{
    /* a name the word begins comes first ("H10": H100, not A10), the first of those in alphabetical order
       (so "H100" before "H100 PCIe", "--smem-dynamic" before "--smem-static") */
    const char *best = NULL;
    for (size_t i = 0; i < n; i++)
        if (begins(word, candidates[i]) && (!best || compare_nocase(candidates[i], best) < 0))
            best = candidates[i];
    if (best)
        return best;
    /* else close: at most a third of the word's letters wrong (at least one, at most three) */
    size_t len = strlen(word), limit = len / 3;
    limit = limit < 1 ? 1 : limit > 3 ? 3 : limit;
    size_t best_d = limit + 1;
    for (size_t i = 0; i < n; i++) {
        size_t d = distance(word, candidates[i]);
        if (d < best_d)
            best = candidates[i], best_d = d;
    }
    return best;
}

void cli_unknown(struct cli_args *a)
{
    const char *arg = a->argv[a->i];
    const char *names[128];
    size_t n = 0;
    if (a->io->cmd)
        for (const struct cli_option *o = a->io->cmd->options; o && o->name && n < 127; o++)
            names[n++] = o->name;
    names[n++] = "--help";
    /* "--flag=value": suggest from the flag part */
    char flag[64];
    snprintf(flag, sizeof flag, "%.*s", (int)strcspn(arg, "="), arg);
    const char *near = arg[0] == '-' ? cli_nearest(flag, names, n) : NULL;
    const char *cmd = a->io->cmd ? a->io->cmd->name : "";
    if (near)
        cli_fail(a->io, arg, "unknown option or argument; did you mean '%s'? (see 'gpuocc %s --help')", near, cmd);
    else
        cli_fail(a->io, arg, "unknown option or argument (see 'gpuocc %s --help')", cmd);
}

/* ---- numbers ---- */

/* Decimal digits with an optional sign, the whole of s[0, n): no spaces, no hex. */
bool cli_parse_int(const char *s, size_t n, int64_t lo, int64_t hi, int64_t *out)
{
    size_t i = 0;
    bool neg = n && s[0] == '-';
    if (n && (s[0] == '-' || s[0] == '+'))
        i++;
    if (i == n)
        return false;
    uint64_t v = 0;
    for (; i < n; i++) {
        unsigned d = (unsigned)(unsigned char)s[i] - '0';
        if (d > 9 || v > (UINT64_MAX - 9) / 10)
            return false;
        v = v * 10 + d;
    }
    if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)
        return false;
    int64_t x = neg ? (int64_t)(0 - v) : (int64_t)v;
    if (x < lo || x > hi)
        return false;
    *out = x;
    return true;
}

bool cli_try_int(const char *text, int64_t lo, int64_t hi, int64_t *out)
{
    return text && cli_parse_int(text, strlen(text), lo, hi, out);
}

int64_t cli_int64(struct cli_io *io, const char *field, const char *text, int64_t lo, int64_t hi)
{
    int64_t v;
    if (cli_try_int(text, lo, hi, &v))
        return v;
    cli_fail(io, field, "expected an integer from %lld to %lld, got '%s'", (long long)lo, (long long)hi, text);
    return 0;
}

int32_t cli_int(struct cli_io *io, const char *field, const char *text, int64_t lo, int64_t hi)
{
    lo = lo < INT32_MIN ? INT32_MIN : lo;
    hi = hi > INT32_MAX ? INT32_MAX : hi;
    return (int32_t)cli_int64(io, field, text, lo, hi);
}

/* Digits, then an optional K/M/G (with an optional "i"), then an optional "B": 64, 64B, 48K, 48KiB, 1MB. */
bool cli_parse_size(const char *s, size_t n, int64_t *out)
{
    size_t digits = 0;
    while (digits < n && s[digits] >= '0' && s[digits] <= '9')
        digits++;
    if (!digits)
        return false;
    size_t i = digits;
    int shift = 0;
    if (i < n) {
        char c = (char)(s[i] | 0x20);
        shift = c == 'k' ? 10 : c == 'm' ? 20 : c == 'g' ? 30 : 0;
    }
    if (shift) {
        i++;
        if (i < n && s[i] == 'i')
            i++;
    }
    if (i < n && (s[i] == 'B' || s[i] == 'b'))
        i++;
    int64_t v;
    if (i != n || !cli_parse_int(s, digits, 0, INT64_MAX >> shift, &v))
        return false;
    *out = v << shift;
    return true;
}

bool cli_try_size(const char *text, int64_t *out)
{
    return text && cli_parse_size(text, strlen(text), out);
}

int64_t cli_size(struct cli_io *io, const char *field, const char *text)
{
    int64_t v;
    if (cli_try_size(text, &v))
        return v;
    cli_fail(io, field, "expected a byte count like 49152, 48K or 1M, got '%s'", text);
    return 0;
}

bool cli_try_double(const char *text, double *out)
{
    /* decimal only: [sign] digits [. digits] [e [sign] digits]; no hex, inf or nan */
    const char *p = text;
    if (!p)
        return false;
    if (*p == '-' || *p == '+')
        p++;
    size_t digits = strspn(p, "0123456789");
    p += digits;
    if (*p == '.') {
        size_t frac = strspn(p + 1, "0123456789");
        digits += frac;
        p += 1 + frac;
    }
    if (!digits)
        return false;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '-' || *p == '+')
            p++;
        size_t exp = strspn(p, "0123456789");
        if (!exp)
            return false;
        p += exp;
    }
    if (*p != '\0')
        return false;
    errno = 0;
    char *end;
    double v = strtod(text, &end);
    /* a tiny value that underflows is still the finite number the user wrote */
    if (*end != '\0' || !isfinite(v) || (errno == ERANGE && fabs(v) > DBL_MIN))
        return false;
    *out = v;
    return true;
}

double cli_double(struct cli_io *io, const char *field, const char *text)
{
    double v;
    if (cli_try_double(text, &v))
        return v;
    cli_fail(io, field, "expected a finite decimal number, got '%s'", text);
    return 0;
}

/* ---- devices and launches ---- */

bool cli_device(struct cli_io *io, const char *field, const char *name, gpuocc_device *dev)
{
    gpuocc_device d = {.size = sizeof d};
    if (gpuocc_device_lookup(name, &d) == GPUOCC_OK) {
        *dev = d;
        return true;
    }
    char near[64];
    if (cli_device_nearest(name, near, sizeof near))
        cli_fail(io, field, "unknown architecture or product '%s'; did you mean '%s'? (see 'gpuocc devices')", name,
                 near);
    else
        cli_fail(io, field, "unknown architecture or product '%s' (see 'gpuocc devices')", name);
    return false;
}

bool cli_device_nearest(const char *name, char *out, size_t cap)
{
    /* every table name, and its first word where that alone is a name the lookup takes ("H100") */
    const char *names[256];
    char words[128][32];
    size_t n = 0, w = 0;
    for (int32_t i = 0; i < gpuocc_catalog_count() && n < 254; i++) {
        const char *full = gpuocc_catalog_name(i);
        names[n++] = full;
        size_t len = strcspn(full, " ");
        if (full[len] && len < sizeof words[0] && w < 128) {
            snprintf(words[w], sizeof words[w], "%.*s", (int)len, full);
            gpuocc_device probe = {.size = sizeof probe};
            if (gpuocc_device_lookup(words[w], &probe) == GPUOCC_OK)
                names[n++] = words[w++];
        }
    }
    const char *near = cli_nearest(name, names, n);
    if (near)
        snprintf(out, cap, "%s", near);
    return near != NULL;
}

bool cli_is_amd(const gpuocc_device *d)
{
    return d->vendor == GPUOCC_VENDOR_AMD;
}

bool cli_is_intel(const gpuocc_device *d)
{
    return d->vendor == GPUOCC_VENDOR_INTEL;
}

const char *cli_vendor_name(const gpuocc_device *d)
{
    return cli_is_amd(d) ? "amd" : cli_is_intel(d) ? "intel" : "nvidia";
}

/* Intel's architecture: the first catalog architecture with the same rules (its Xe-core count aside). */
static void intel_arch_name(const gpuocc_device *d, char *out, size_t cap)
{
    gpuocc_device bare = *d;
    bare.size = sizeof bare;
    bare.sm_count = 0;
    for (int32_t i = 0; i < gpuocc_catalog_count(); i++) {
        gpuocc_device row = {.size = sizeof row};
        if (gpuocc_catalog_kind(i) == GPUOCC_CATALOG_ARCH && gpuocc_catalog_device(i, &row) == GPUOCC_OK &&
            memcmp(&row, &bare, sizeof row) == 0) {
            snprintf(out, cap, "%s", gpuocc_catalog_name(i));
            return;
        }
    }
    snprintf(out, cap, "xe%d.%d", d->cc_major, d->cc_minor); /* a described device: its IP version */
}

/* "%d" of v at out[*at], and the position after it; nothing past cap - 1 (then out[cap - 1] ends it). */
static void put_decimal(char *out, size_t cap, size_t *at, int64_t v)
{
    char digits[24];
    size_t n = 0;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do
        digits[n++] = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        digits[n++] = '-';
    while (n && *at + 1 < cap)
        out[(*at)++] = digits[--n];
}

static void put_text(char *out, size_t cap, size_t *at, const char *s)
{
    for (; *s && *at + 1 < cap; s++)
        out[(*at)++] = *s;
}

void cli_arch_name(const gpuocc_device *d, char *out, size_t cap)
{
    if (cap == 0)
        return;
    if (cli_is_intel(d)) {
        intel_arch_name(d, out, cap);
        return;
    }
    /* as snprintf(out, cap, ...) writes "gfx%d%x%x" (AMD keeps the target's version in cc_major and its two
       hexadecimal digits in cc_minor: gfx90a = 9, 0x0a) or "sm_%d%d", without its cost on the page's path */
    size_t at = 0;
    if (cli_is_amd(d)) {
        static const char hex[] = "0123456789abcdef";
        put_text(out, cap, &at, "gfx");
        put_decimal(out, cap, &at, d->cc_major);
        char minor[3] = {hex[(unsigned)(d->cc_minor >> 4) & 0xf], hex[(unsigned)d->cc_minor & 0xf], 0};
        put_text(out, cap, &at, minor);
    } else {
        put_text(out, cap, &at, "sm_");
        put_decimal(out, cap, &at, d->cc_major);
        put_decimal(out, cap, &at, d->cc_minor);
    }
    out[at] = '\0';
}

void cli_launch_init(struct cli_launch *l)
{
    memset(l, 0, sizeof *l);
    l->dev.size = sizeof l->dev;
    gpuocc_kernel_init(&l->k);
    l->k.smem_optin = 1; /* on by default, as in C and Python (a kernel asking more than 48 KiB raised its limit); --no-optin turns it off */
}

/* A field both vendors' names set (--regs and --vgprs...): one of them, once. */
static bool same_field(struct cli_io *io, const char **seen, const char *flag)
{
    if (*seen && strcmp(*seen, flag) != 0) {
        cli_fail(io, flag, "sets the same field as %s: give one of them", *seen);
        return false;
    }
    *seen = flag;
    return true;
}

/* A vendor's own flags with the other vendor's --arch are usage errors (checked whichever comes first). */
static void vendor_check(struct cli_io *io, const struct cli_launch *l)
{
    if (!l->have_arch || io->status)
        return;
    char arch[16];
    cli_arch_name(&l->dev, arch, sizeof arch);
    if (cli_is_intel(&l->dev)) {
        if (l->nvidia_only_flag)
            cli_fail(io, l->nvidia_only_flag, "NVIDIA only, but --arch %s is an Intel device (%s): Intel has no "
                     "carveout, shared-memory opt-in, virtual resources or tensor memory", l->dev_name, arch);
        else if (l->amd_flag)
            cli_fail(io, l->amd_flag, "AMD only, but --arch %s is an Intel device (%s)%s", l->dev_name, arch,
                     !strcmp(l->amd_flag, "--lds")           ? ": use --slm"
                     : !strcmp(l->amd_flag, "--lds-dynamic") ? ": use --slm-dynamic"
                     : !strcmp(l->amd_flag, "--vgprs")       ? ": use --grf"
                                                             : "");
        else if (l->regs_flag)
            cli_fail(io, l->regs_flag, "registers per thread do not apply to --arch %s, an Intel device (%s): use "
                     "--grf (registers per hardware thread)", l->dev_name, arch);
        return;
    }
    if (l->intel_flag) {
        cli_fail(io, l->intel_flag, "Intel only, but --arch %s is %s device (%s)%s", l->dev_name,
                 cli_is_amd(&l->dev) ? "an AMD" : "an NVIDIA", arch,
                 !strcmp(l->intel_flag, "--slm")           ? ": use --smem-static"
                 : !strcmp(l->intel_flag, "--slm-dynamic") ? ": use --smem-dynamic"
                                                           : "");
        return;
    }
    if (cli_is_amd(&l->dev) && l->nvidia_flag)
        cli_fail(io, l->nvidia_flag, "NVIDIA only, but --arch %s is an AMD device (%s): AMD has no carveout, "
                 "shared-memory opt-in, named barriers, virtual resources or tensor memory", l->dev_name, arch);
    else if (!cli_is_amd(&l->dev) && l->amd_flag)
        cli_fail(io, l->amd_flag, "AMD only, but --arch %s is an NVIDIA device (%s)%s", l->dev_name, arch,
                 !strcmp(l->amd_flag, "--vgprs")         ? ": use --regs"
                 : !strcmp(l->amd_flag, "--lds")         ? ": use --smem-static"
                 : !strcmp(l->amd_flag, "--lds-dynamic") ? ": use --smem-dynamic"
                                                         : "");
}

const char *cli_amd_model_name(int32_t model)
{
    return model == GPUOCC_MODEL_RUNTIME ? "runtime" : model == GPUOCC_MODEL_LLVM19 ? "llvm19" : "compiler";
}

/* "6.2" -> 602: a ROCm release as major * 100 + minor. */
static int32_t rocm_release(struct cli_io *io, const char *text)
{
    const char *dot = strchr(text, '.');
    int64_t major, minor;
    if (dot && cli_parse_int(text, (size_t)(dot - text), 1, 99, &major) &&
        cli_parse_int(dot + 1, strlen(dot + 1), 0, 99, &minor) && text[0] != '+' && dot[1] != '+' && dot[1] != '-')
        return (int32_t)(major * 100 + minor);
    cli_fail(io, "--rocm", "expected a ROCm release MAJOR.MINOR such as 6.2 or 7.0, got '%s'", text);
    return 0;
}

const char *const cli_launch_flags[CLI_LAUNCH_FLAG_COUNT] = {
    "--arch", "--threads", "--regs", "--smem-static", "--smem-dynamic", "--barriers", "--carveout",
    "--virtual-resources", "--tmem-columns", "--no-optin",
    "--vgprs", "--agprs", "--sgprs", "--lds", "--lds-dynamic", "--wave-size", "--cu-mode", "--max-threads", "--model",
    "--rocm", "--dvgpr", "--no-trap-handler", "--waves-per-eu", "--flat-workgroup-size",
    "--sub-group", "--grf", "--slm", "--slm-dynamic"};

bool cli_launch_is_switch(int id)
{
    return id == CLI_NO_OPTIN || id == CLI_CU_MODE || id == CLI_TRAP_HANDLER;
}

/* "A" or "A,B" (each lo..hi) into *a and *b (b = 0 when absent, or `b_required`: then an error); false after
   reporting the flag. */
static bool int_pair(struct cli_io *io, const char *flag, const char *v, int64_t lo, int64_t hi, bool b_required,
                     int32_t *a, int32_t *b)
{
    const char *comma = strchr(v, ',');
    int64_t x, y = 0;
    bool ok = cli_parse_int(v, comma ? (size_t)(comma - v) : strlen(v), lo, hi, &x) &&
              (comma ? cli_parse_int(comma + 1, strlen(comma + 1), lo, hi, &y) : !b_required);
    if (!ok || (comma && x > y)) {
        cli_fail(io, flag, "expected %s from %lld to %lld%s, got '%s'", b_required ? "MIN,MAX" : "MIN[,MAX]",
                 (long long)lo, (long long)hi, " with MIN <= MAX", v);
        return false;
    }
    *a = (int32_t)x, *b = (int32_t)y;
    return true;
}

/* The flat workgroup maximum, from --max-threads or --flat-workgroup-size: both may be given if they agree. */
static void set_flat_max(struct cli_io *io, struct cli_launch *l, const char *flag, int32_t max)
{
    if (l->max_threads_flag && strcmp(l->max_threads_flag, flag) != 0 && l->k.max_threads_per_block != max) {
        cli_fail(io, flag, "gives the flat workgroup maximum %d, %s gave %d: give one of them", max,
                 l->max_threads_flag, l->k.max_threads_per_block);
        return;
    }
    l->k.max_threads_per_block = max;
    l->max_threads_flag = flag;
}

/* The name as given, at most 63 bytes of it (as "%s" into the 64 bytes would keep). */
static void keep_name(struct cli_launch *l, const char *v)
{
    size_t n = strlen(v);
    if (n >= sizeof l->dev_name)
        n = sizeof l->dev_name - 1;
    memcpy(l->dev_name, v, n);
    l->dev_name[n] = '\0';
}

void cli_launch_set(struct cli_io *io, struct cli_launch *l, int id, const char *v, const gpuocc_device *known)
{
    const char *flag = id >= 0 && id < CLI_LAUNCH_FLAG_COUNT ? cli_launch_flags[id] : "";
    switch (id) {
    case CLI_ARCH:
        if (known)
            l->dev = *known, keep_name(l, v);
        else if (cli_device(io, "--arch", v, &l->dev))
            keep_name(l, v);
        l->have_arch = true;
        break;
    case CLI_THREADS:
        l->k.threads_per_block = cli_int(io, "--threads", v, 1, INT32_MAX);
        l->have_threads = true;
        break;
    case CLI_REGS:
        if (same_field(io, &l->regs_flag, "--regs"))
            l->k.regs_per_thread = cli_int(io, "--regs", v, 0, INT32_MAX);
        l->have_regs = true;
        break;
    case CLI_SMEM_STATIC:
        if (same_field(io, &l->smem_static_flag, "--smem-static"))
            l->k.smem_static_bytes = cli_size(io, "--smem-static", v);
        l->have_smem_static = true;
        break;
    case CLI_SMEM_DYNAMIC:
        if (same_field(io, &l->smem_dynamic_flag, "--smem-dynamic"))
            l->k.smem_dynamic_bytes = cli_size(io, "--smem-dynamic", v);
        break;
    case CLI_BARRIERS:
        l->k.barriers = cli_int(io, "--barriers", v, 0, INT32_MAX);
        l->have_barriers = true;
        l->nvidia_flag = l->nvidia_flag ? l->nvidia_flag : "--barriers";
        break;
    case CLI_CARVEOUT:
        l->k.carveout_percent = cli_int(io, "--carveout", v, -1, 100);
        l->nvidia_flag = l->nvidia_flag ? l->nvidia_flag : "--carveout";
        l->nvidia_only_flag = l->nvidia_only_flag ? l->nvidia_only_flag : "--carveout";
        break;
    case CLI_VIRTUAL_RESOURCES:
        l->k.virtual_resources = cli_int(io, "--virtual-resources", v, 0, INT32_MAX);
        l->nvidia_flag = l->nvidia_flag ? l->nvidia_flag : "--virtual-resources";
        l->nvidia_only_flag = l->nvidia_only_flag ? l->nvidia_only_flag : "--virtual-resources";
        break;
    case CLI_TMEM_COLUMNS: {
        l->k.tmem_columns = cli_int(io, "--tmem-columns", v, 0, 512);
        int32_t c = l->k.tmem_columns;
        if (!io->status && c != 0 && (c < 32 || (c & (c - 1)) != 0))
            cli_fail(io, "--tmem-columns", "expected 0 or a power of two from 32 to 512 (tcgen05.alloc), got '%s'", v);
        l->nvidia_flag = l->nvidia_flag ? l->nvidia_flag : "--tmem-columns";
        l->nvidia_only_flag = l->nvidia_only_flag ? l->nvidia_only_flag : "--tmem-columns";
        break;
    }
    case CLI_NO_OPTIN:
        l->k.smem_optin = 0;
        l->nvidia_flag = l->nvidia_flag ? l->nvidia_flag : "--no-optin";
        l->nvidia_only_flag = l->nvidia_only_flag ? l->nvidia_only_flag : "--no-optin";
        break;
    /* AMD's */
    case CLI_VGPRS:
        if (same_field(io, &l->regs_flag, "--vgprs"))
            l->k.regs_per_thread = cli_int(io, "--vgprs", v, 0, INT32_MAX);
        l->have_regs = true;
        break;
    case CLI_AGPRS:
        l->k.agprs = cli_int(io, "--agprs", v, 0, INT32_MAX);
        break;
    case CLI_SGPRS:
        l->k.sgprs = cli_int(io, "--sgprs", v, 0, INT32_MAX);
        break;
    case CLI_LDS:
        if (same_field(io, &l->smem_static_flag, "--lds"))
            l->k.smem_static_bytes = cli_size(io, "--lds", v);
        l->have_smem_static = true;
        break;
    case CLI_LDS_DYNAMIC:
        if (same_field(io, &l->smem_dynamic_flag, "--lds-dynamic"))
            l->k.smem_dynamic_bytes = cli_size(io, "--lds-dynamic", v);
        break;
    case CLI_WAVE_SIZE:
        /* 0: the device's default, as the C field and every other interface read it */
        l->k.wave_size = cli_int(io, "--wave-size", v, 0, 64);
        if (!io->status && l->k.wave_size != 0 && l->k.wave_size != 32 && l->k.wave_size != 64)
            cli_fail(io, "--wave-size", "expected 0 (the device's default), 32 or 64, got '%s'", v);
        break;
    case CLI_CU_MODE:
        l->k.cu_mode = 1;
        break;
    case CLI_MAX_THREADS: {
        int32_t max = cli_int(io, "--max-threads", v, 1, INT32_MAX);
        if (!io->status)
            set_flat_max(io, l, "--max-threads", max);
        break;
    }
    case CLI_MODEL:
        /* runtime is AMD's or Intel's: the check after the flags picks by the device */
        l->model_runtime = false;
        if (!strcmp(v, "compiler"))
            l->k.model = GPUOCC_MODEL_COMPILER;
        else if (!strcmp(v, "llvm19"))
            l->k.model = GPUOCC_MODEL_LLVM19, l->amd_flag = l->amd_flag ? l->amd_flag : "--model";
        else if (!strcmp(v, "calculator"))
            l->k.model = GPUOCC_MODEL_CALCULATOR, l->intel_flag = l->intel_flag ? l->intel_flag : "--model";
        else if (!strcmp(v, "runtime"))
            l->k.model = GPUOCC_MODEL_RUNTIME, l->model_runtime = true;
        else
            cli_fail(io, "--model", "expected compiler, llvm19, calculator or runtime, got '%s'", v);
        if (l->k.model != GPUOCC_MODEL_COMPILER) {
            vendor_check(io, l);
            return;
        }
        break;
    case CLI_ROCM:
        l->k.rocm_version = rocm_release(io, v);
        break;
    case CLI_DVGPR:
        l->k.dvgpr = cli_int(io, "--dvgpr", v, 0, 32);
        if (!io->status && l->k.dvgpr != 0 && l->k.dvgpr != 16 && l->k.dvgpr != 32)
            cli_fail(io, "--dvgpr", "expected 16 or 32 (VGPRs per block; 0: off), got '%s'", v);
        break;
    case CLI_TRAP_HANDLER:
        l->k.trap_handler = -1;
        break;
    case CLI_WAVES_PER_EU:
        int_pair(io, "--waves-per-eu", v, 1, 1024, false, &l->k.waves_per_eu_min, &l->k.waves_per_eu_max);
        break;
    case CLI_FLAT_WORKGROUP_SIZE: {
        int32_t lo = 0, hi = 0;
        /* the range as the library takes it (a maximum past the device's is --max-threads's too) */
        if (int_pair(io, "--flat-workgroup-size", v, 1, INT32_MAX, true, &lo, &hi)) {
            l->k.flat_workgroup_size_min = lo;
            set_flat_max(io, l, "--flat-workgroup-size", hi);
        }
        break;
    }
    /* Intel's */
    case CLI_SUB_GROUP:
        l->k.sub_group = cli_int(io, "--sub-group", v, 0, 32);
        if (!io->status && l->k.sub_group != 0 && l->k.sub_group != 8 && l->k.sub_group != 16 && l->k.sub_group != 32)
            cli_fail(io, "--sub-group", "expected 0 (the device's default), 8, 16 or 32, got '%s'", v);
        break;
    case CLI_GRF:
        l->k.grf = cli_int(io, "--grf", v, 0, 1024); /* 0: the default, 128 */
        break;
    case CLI_SLM:
        if (same_field(io, &l->smem_static_flag, "--slm"))
            l->k.smem_static_bytes = cli_size(io, "--slm", v);
        l->have_smem_static = true;
        break;
    case CLI_SLM_DYNAMIC:
        if (same_field(io, &l->smem_dynamic_flag, "--slm-dynamic"))
            l->k.smem_dynamic_bytes = cli_size(io, "--slm-dynamic", v);
        break;
    default:
        return;
    }
    if (id >= CLI_SUB_GROUP)
        l->intel_flag = l->intel_flag ? l->intel_flag : flag;
    else if (id >= CLI_VGPRS && id != CLI_MAX_THREADS) /* the launch bound is NVIDIA's and AMD's */
        l->amd_flag = l->amd_flag ? l->amd_flag : flag;
    vendor_check(io, l);
}

/* One flag of cli_launch_flags[from, to) at the cursor, applied; false if the argument is none of them. */
static bool launch_flag_of(struct cli_args *a, struct cli_launch *l, int from, int to)
{
    for (int id = from; id < to; id++) {
        const char *v = NULL;
        if (cli_launch_is_switch(id) ? cli_switch(a, cli_launch_flags[id]) : cli_flag(a, cli_launch_flags[id], &v)) {
            cli_launch_set(a->io, l, id, v, NULL);
            return true;
        }
    }
    return false;
}

bool cli_launch_flag(struct cli_args *a, struct cli_launch *l)
{
    return launch_flag_of(a, l, CLI_ARCH, CLI_VGPRS);
}

bool cli_amd_launch_flag(struct cli_args *a, struct cli_launch *l)
{
    return launch_flag_of(a, l, CLI_VGPRS, CLI_SUB_GROUP);
}

bool cli_intel_launch_flag(struct cli_args *a, struct cli_launch *l)
{
    return launch_flag_of(a, l, CLI_SUB_GROUP, CLI_LAUNCH_FLAG_COUNT);
}

/* --model runtime is Intel's on an Intel device; no --model is NVIDIA's. */
static bool model_check(struct cli_io *io, struct cli_launch *l)
{
    if (!l->have_arch)
        return true;
    if (cli_is_intel(&l->dev) && l->model_runtime)
        l->k.model = GPUOCC_MODEL_INTEL_RUNTIME;
    if (!cli_is_intel(&l->dev) && !cli_is_amd(&l->dev) && l->model_runtime)
        return cli_fail(io, "--model", "AMD and Intel only: NVIDIA has one model"), false;
    return true;
}

bool cli_launch_check(struct cli_io *io, struct cli_launch *l)
{
    if (io->status || !model_check(io, l))
        return false;
    if (l->k.rocm_version && l->k.model != GPUOCC_MODEL_RUNTIME)
        return cli_fail(io, "--rocm", "picks the release of HIP's rules: give --model runtime too"), false;
    char arch[16];
    cli_arch_name(&l->dev, arch, sizeof arch);
    if (l->have_arch && cli_is_amd(&l->dev) && l->k.wave_size && !(l->dev.wave_sizes & l->k.wave_size))
        return cli_fail(io, "--wave-size", "%s runs wave%d only", arch, l->dev.warp_size), false;
    if (l->have_arch && cli_is_intel(&l->dev) && l->k.sub_group && !(l->dev.sub_group_sizes & l->k.sub_group))
        return cli_fail(io, "--sub-group", "%s runs sub-groups of %s only", arch,
                        l->dev.sub_group_sizes == (16 | 32) ? "16 and 32" : "8, 16 and 32"), false;
    if (l->have_arch && cli_is_amd(&l->dev) && l->k.agprs > 0 && l->dev.agpr_file == GPUOCC_AGPR_NONE)
        return cli_fail(io, "--agprs", "%s has no AGPRs (gfx908, gfx90a and later have them)", arch), false;
    if (l->have_threads && l->k.threads_per_block < l->k.flat_workgroup_size_min)
        return cli_fail(io, "--threads", "%d is less than the flat workgroup minimum %d the kernel was compiled "
                        "for (--flat-workgroup-size)", l->k.threads_per_block, l->k.flat_workgroup_size_min), false;
    return true;
}

/* ---- JSON, CSV, limiters ---- */

void cli_escape(const char *s, size_t n, char *out, size_t cap)
{
    size_t w = 0;
    for (size_t i = 0; i < n && cap;) {
        unsigned char c = (unsigned char)s[i];
        bool control = c < 0x20 || c == 0x7f;
        /* a UTF-8 character is copied whole or not at all: a cut never leaves half of one */
        size_t len = control || c < 0xc0 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
        if (len > n - i || w + (control ? 4 : len) >= cap) /* a character cut off by n, or one past cap */
            break;
        if (control)
            w += (size_t)snprintf(out + w, cap - w, "\\x%02x", c);
        else
            memcpy(out + w, s + i, len), w += len;
        i += len;
    }
    if (cap)
        out[w] = '\0';
}

size_t cli_utf8_len(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    if (!n)
        return 0;
    if (u[0] < 0x80)
        return 1;
    /* RFC 3629: the lead byte gives the length and the first continuation byte's range (no overlong form, no
       surrogate D800-DFFF, nothing above 10FFFF) */
    size_t len;
    unsigned char lo = 0x80, hi = 0xbf;
    if (u[0] >= 0xc2 && u[0] <= 0xdf)
        len = 2;
    else if (u[0] >= 0xe0 && u[0] <= 0xef) {
        len = 3;
        lo = u[0] == 0xe0 ? 0xa0 : 0x80;
        hi = u[0] == 0xed ? 0x9f : 0xbf;
    } else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
        len = 4;
        lo = u[0] == 0xf0 ? 0x90 : 0x80;
        hi = u[0] == 0xf4 ? 0x8f : 0xbf;
    } else
        return 0;
    if (n < len || u[1] < lo || u[1] > hi)
        return 0;
    for (size_t k = 2; k < len; k++)
        if (u[k] < 0x80 || u[k] > 0xbf)
            return 0;
    return len;
}

void json_string_n(FILE *f, const char *s, size_t n)
{
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        size_t len = c >= 0x80 ? cli_utf8_len(s + i, n - i) : 1;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            fprintf(f, "\\u%04x", c);
        else if (!len) /* not UTF-8: U+FFFD, one per byte */
            fputs(CLI_REPLACEMENT, f);
        else {
            fwrite(s + i, 1, len, f);
            i += len - 1;
        }
    }
    fputc('"', f);
}

void json_string(FILE *f, const char *s)
{
    json_string_n(f, s, strlen(s));
}

void json_key(FILE *f, bool *first, const char *key)
{
    if (!*first)
        fputc(',', f);
    *first = false;
    json_string(f, key);
    fputc(':', f);
}

void cli_buf_putc(struct cli_buf *b, char c)
{
    if (b->len < b->cap)
        b->p[b->len] = c;
    b->len++;
}

/* s[0, n) at the end (the bytes past cap dropped) */
static void buf_write(struct cli_buf *b, const char *s, size_t n)
{
    if (b->len < b->cap)
        memcpy(b->p + b->len, s, n < b->cap - b->len ? n : b->cap - b->len);
    b->len += n;
}

void cli_buf_puts(struct cli_buf *b, const char *s)
{
    buf_write(b, s, strlen(s));
}

void cli_buf_int(struct cli_buf *b, int64_t v)
{
    char digits[24];
    size_t n = sizeof digits;
    /* the magnitude as unsigned: INT64_MIN has no positive int64_t */
    uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do
        digits[--n] = (char)('0' + m % 10);
    while ((m /= 10) != 0);
    if (v < 0)
        digits[--n] = '-';
    buf_write(b, digits + n, sizeof digits - n);
}

void cli_buf_printf(struct cli_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char spare[1];
    bool room = b->len < b->cap;
    /* vsnprintf writes its terminator inside the buffer: a text that ends at cap-1 or later counts as cut */
    int n = vsnprintf(room ? b->p + b->len : spare, room ? b->cap - b->len : sizeof spare, fmt, ap);
    va_end(ap);
    if (n > 0)
        b->len += (size_t)n;
}

void cli_buf_json_string(struct cli_buf *b, const char *s)
{
    cli_buf_putc(b, '"');
    for (;;) { /* the plain run of characters copied at once, then the one to escape */
        size_t n = 0;
        unsigned char c;
        size_t len = 1;
        while ((c = (unsigned char)s[n]) != 0 && c != '"' && c != '\\' && c >= 0x20 && c != 0x7f
               && (c < 0x80 || (len = cli_utf8_len(s + n, strnlen(s + n, 4))) > 0))
            n += c < 0x80 ? 1 : len;
        buf_write(b, s, n);
        s += n;
        if (!c)
            break;
        if (c == '"' || c == '\\') {
            cli_buf_putc(b, '\\');
            cli_buf_putc(b, (char)c);
        } else if (c >= 0x80) /* not UTF-8: U+FFFD, one per byte */
            buf_write(b, CLI_REPLACEMENT, 3);
        else
            cli_buf_printf(b, "\\u%04x", c);
        s++;
    }
    cli_buf_putc(b, '"');
}

void cli_buf_json_key(struct cli_buf *b, bool *first, const char *key)
{
    if (!*first)
        cli_buf_putc(b, ',');
    *first = false;
    cli_buf_json_string(b, key);
    cli_buf_putc(b, ':');
}

void cli_buf_json_limiters(struct cli_buf *b, uint32_t limiters)
{
    cli_buf_putc(b, '[');
    bool first = true;
    for (int32_t i = 0; i <= GPUOCC_RESOURCE_VIRTUAL; i++) /* every vendor's resources, as json_limiters */
        if (limiters & (1u << i)) {
            if (!first)
                cli_buf_putc(b, ',');
            cli_buf_json_string(b, gpuocc_resource_name(i));
            first = false;
        }
    cli_buf_putc(b, ']');
}

void csv_cell(FILE *f, const char *s, size_t n)
{
    bool quote = false;
    for (size_t i = 0; i < n && !quote; i++)
        quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
    if (!quote) {
        fwrite(s, 1, n, f);
        return;
    }
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"')
            fputc('"', f);
        fputc(s[i], f);
    }
    fputc('"', f);
}

/* PTX ISA, "bar, barrier": barrier ids 0..15, so 16 per block; a described NVIDIA device's 0 means the same. */
#define NV_BARRIERS_PER_BLOCK 16

void cli_input_flag(const char *input, char *flag, size_t cap)
{
    int w = snprintf(flag, cap, "--%s", input);
    for (int i = 2; w > 0 && i < w && (size_t)i < cap; i++)
        if (flag[i] == '_')
            flag[i] = '-';
}

const char *cli_exceeded(const gpuocc_device *d, const gpuocc_kernel *k, const gpuocc_result *r, char *why, size_t cap)
{
    const char *input = gpuocc_input_name(r->exceeded);
    if (!*input)
        return NULL;
    long long limit = (long long)r->exceeded_limit;
    bool intel = cli_is_intel(d);
    long long slm = k->smem_dynamic_bytes > INT64_MAX - k->smem_static_bytes ? INT64_MAX
                                                                             : k->smem_static_bytes + k->smem_dynamic_bytes;
    switch (r->exceeded) {
    case GPUOCC_INPUT_THREADS:
        if (cli_is_amd(d) && limit < d->max_threads_per_block) /* HIP refuses a workgroup above it */
            snprintf(why, cap, "threads %d is over the flat workgroup maximum %lld the kernel was compiled for",
                     k->threads_per_block, limit);
        else if (limit < d->max_threads_per_block) /* a launch above it fails */
            snprintf(why, cap, intel ? "threads %d is over the kernel's largest work-group %lld (max_work_group_size)"
                                     : "threads %d is over the kernel's launch bound %lld (__launch_bounds__)",
                     k->threads_per_block, limit);
        else
            snprintf(why, cap, intel         ? "threads %d is over the largest work-group, %lld work-items"
                               : cli_is_amd(d) ? "threads %d is over the largest workgroup, %lld threads"
                                               : "threads %d is over the block's thread limit %lld",
                     k->threads_per_block, limit);
        break;
    case GPUOCC_INPUT_REGS:
        if (cli_is_amd(d)) {
            snprintf(why, cap, "VGPRs %d is over %lld, the most VGPRs per lane with which one workgroup of %d threads fits",
                     k->regs_per_thread, limit, k->threads_per_block);
            break;
        }
        snprintf(why, cap, "regs %d is over %lld, the most registers per thread with which one block of %d threads fits",
                 k->regs_per_thread, limit, k->threads_per_block);
        break;
    case GPUOCC_INPUT_SMEM_STATIC:
        if (intel)
            snprintf(why, cap, "SLM %lld B is over the %lld B one work-group may have", slm, limit);
        else if (d->vendor == GPUOCC_VENDOR_NVIDIA && k->smem_static_bytes > d->smem_per_block_bytes)
            snprintf(why, cap,
                     "%lld B is more than the static shared-memory limit of %lld B per block; more needs dynamic "
                     "shared memory and the opt-in", (long long)k->smem_static_bytes, limit);
        else
            snprintf(why, cap, cli_is_amd(d) ? "LDS %lld B is over the %lld B one workgroup may have"
                                             : "smem_static %lld B is over the %lld B one block may have",
                     (long long)k->smem_static_bytes, limit);
        break;
    case GPUOCC_INPUT_SMEM_DYNAMIC:
        if (intel)
            snprintf(why, cap, "SLM %lld B (static + dynamic) is over the %lld B one work-group may have", slm,
                     (long long)d->smem_per_block_bytes);
        else if (d->vendor == GPUOCC_VENDOR_NVIDIA && k->smem_optin && k->smem_dynamic_max_bytes >= 0 &&
                 k->smem_dynamic_bytes > k->smem_dynamic_max_bytes)
            snprintf(why, cap, "smem_dynamic %lld B is over the kernel's opt-in attribute %lld B",
                     (long long)k->smem_dynamic_bytes, limit);
        else if (d->vendor == GPUOCC_VENDOR_NVIDIA)
            snprintf(why, cap, "smem_dynamic %lld B is over the %lld B left of the per-block shared-memory limit %lld B%s",
                     (long long)k->smem_dynamic_bytes, limit,
                     (long long)(k->smem_optin ? d->smem_per_block_optin_bytes : d->smem_per_block_bytes),
                     k->smem_optin ? " (opt-in)" : " (without opt-in)");
        else
            snprintf(why, cap, "dynamic LDS %lld B is over the %lld B left of what one workgroup may have",
                     (long long)k->smem_dynamic_bytes, limit);
        break;
    case GPUOCC_INPUT_BARRIERS:
        if (intel)
            snprintf(why, cap, "barriers %d is over the %lld an Xe-core has (the runtime's)", k->barriers, limit);
        else if (d->vendor == GPUOCC_VENDOR_NVIDIA && k->barriers > d->barriers_per_sm)
            snprintf(why, cap, "barriers %d is over the %lld barriers an SM has", k->barriers, limit);
        else
            snprintf(why, cap, "%d is more than the %lld named barriers a block may use%s", k->barriers, limit,
                     d->barriers_per_block_max ? "" : " (PTX barrier ids 0..15)");
        break;
    case GPUOCC_INPUT_TMEM_COLUMNS:
        snprintf(why, cap, "tmem_columns %d: the device has no tensor memory (sm_100, sm_103 and sm_110 have it)",
                 k->tmem_columns);
        break;
    case GPUOCC_INPUT_AGPRS:
        if (limit <= 0)
            goto foreign;
        snprintf(why, cap,
                 "AGPRs %d is over %lld, the most AGPRs per lane with which one workgroup of %d threads fits (beside "
                 "%d VGPRs)",
                 k->agprs, limit, k->threads_per_block, k->regs_per_thread);
        break;
    case GPUOCC_INPUT_SGPRS:
        if (limit <= 0)
            goto foreign;
        snprintf(why, cap, "SGPRs %d is over the %lld one SIMD has", k->sgprs, limit);
        break;
    case GPUOCC_INPUT_VIRTUAL_RESOURCES:
        snprintf(why, cap, "virtual_resources %d is over the %lld an SM has", k->virtual_resources, limit);
        break;
    case GPUOCC_INPUT_GRF:
        if (limit == d->grf_max && k->grf > d->grf_max)
            snprintf(why, cap, "grf %d is over the device's largest GRF mode, %lld GRF registers per hardware thread",
                     k->grf, limit);
        else
            snprintf(why, cap,
                     "grf %d is over %lld, the most GRF registers per hardware thread with which one work-group of %d "
                     "work-items fits",
                     k->grf ? k->grf : 128, limit, k->threads_per_block);
        break;
    default:
    foreign:
        if (limit > 0)
            snprintf(why, cap, "%s is over its limit %lld", input, limit);
        else
            snprintf(why, cap, "%s is not a field of this vendor's devices", input);
        break;
    }
    return input;
}

void cli_limiters(uint32_t limiters, char *out, size_t cap)
{
    out[0] = '\0';
    size_t n = 0;
    for (int32_t i = 0; i <= GPUOCC_RESOURCE_VIRTUAL; i++) { /* every vendor's resources */
        if (!(limiters & (1u << i)))
            continue;
        int w = snprintf(out + n, cap - n, "%s%s", n ? "|" : "", gpuocc_resource_name(i));
        if (w < 0 || (size_t)w >= cap - n)
            return;
        n += (size_t)w;
    }
}

/* The words a person reads for a resource: the machine names (gpuocc_resource_name) on NVIDIA and AMD; on
   Intel its own (docs/intel.md, "Words"): hardware threads, GRF, SLM, the work-group cap, barriers. */
const char *cli_resource_word(const gpuocc_device *d, int32_t resource)
{
    if (cli_is_intel(d))
        switch (resource) {
        case GPUOCC_RESOURCE_WARPS: return "hardware threads";
        case GPUOCC_RESOURCE_REGISTERS: return "GRF";
        case GPUOCC_RESOURCE_SMEM: return "SLM";
        case GPUOCC_RESOURCE_BLOCKS: return "work-group cap";
        case GPUOCC_RESOURCE_BARRIERS: return "barriers";
        default: break;
        }
    return gpuocc_resource_name(resource);
}

void cli_limiter_words(const gpuocc_device *d, uint32_t limiters, char *out, size_t cap)
{
    if (!cli_is_intel(d)) {
        cli_limiters(limiters, out, cap);
        return;
    }
    out[0] = '\0';
    size_t n = 0;
    for (int32_t i = 0; i <= GPUOCC_RESOURCE_VIRTUAL; i++) {
        if (!(limiters & (1u << i)))
            continue;
        int w = snprintf(out + n, cap - n, "%s%s", n ? "|" : "", cli_resource_word(d, i));
        if (w < 0 || (size_t)w >= cap - n)
            return;
        n += (size_t)w;
    }
}

void json_limiters(FILE *f, uint32_t limiters)
{
    fputc('[', f);
    bool first = true;
    for (int32_t i = 0; i <= GPUOCC_RESOURCE_VIRTUAL; i++) /* every vendor's resources */
        if (limiters & (1u << i)) {
            if (!first)
                fputc(',', f);
            json_string(f, gpuocc_resource_name(i));
            first = false;
        }
    fputc(']', f);
}
