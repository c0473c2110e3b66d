/* The WebAssembly module's entry points (docs/web.md): the CLI's own commands (tools/main.c's cli_main) run
   in the page, their standard output and error captured in memory.  So the page answers with the very text
   `gpuocc report --json`, `gpuocc binary - --json`, `gpuocc sweep --json` and `gpuocc plot` print: it builds
   no JSON of its own.  Built by web/build.py with clang --target=wasm32-wasi, never by the native build.

   The page calls gpuocc_web_alloc(n) for each argument string and for the input bytes, gpuocc_web_run()
   with the argument vector, reads the answer it returns, and frees it all (each page thread has its own
   instance).  report() has its own way, gpuocc_web_report_values: the same command's code (tools/report.h)
   with the launch given as numbers by field (no argument text), without the streams, its object written as
   a tape of values into buffers kept from call to call (docs/web.md, "How it is built"); gpuocc_web_report
   is the same from argument text.  Their context (one per instance) also keeps the last few devices looked
   up by name: the only state that outlives a call, and this instance's own. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT(name) __attribute__((export_name(name)))

/* What one run hands back, allocated by the run and freed by gpuocc_web_free_answer: five 32-bit words the
   page reads at the returned address (status, out, out_len, err, err_len).  No state outlives a call. */
struct web_answer {
    int32_t status; /* the exit status (tools/cli.h), -1 when memory for the streams ran out */
    char *out;
    uint32_t out_len;
    char *err;
    uint32_t err_len;
};

EXPORT("gpuocc_web_alloc") void *web_alloc(size_t n)
{
    return malloc(n ? n : 1);
}

EXPORT("gpuocc_web_free") void web_free(void *p)
{
    free(p);
}

EXPORT("gpuocc_web_free_answer") void web_free_answer(struct web_answer *a)
{
    if (!a)
        return;
    free(a->out);
    free(a->err);
    free(a);
}

/* Runs `gpuocc ARGV...` (argv[0] is "gpuocc") with `input` [0, input_len) as its standard input.  NULL only
   when memory ran out for the answer itself. */
EXPORT("gpuocc_web_run") struct web_answer *web_run(int argc, char **argv, const char *input, size_t input_len)
{
    struct web_answer *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    char *out_buf = NULL, *err_buf = NULL;
    size_t out_len = 0, err_len = 0;
    FILE *out = open_memstream(&out_buf, &out_len);
    FILE *err = open_memstream(&err_buf, &err_len);
    /* fmemopen refuses a size of 0: an empty input is a one-byte stream already read to its end */
    FILE *in = fmemopen((void *)(input_len ? input : " "), input_len ? input_len : 1, "rb");
    if (in && !input_len)
        (void)fgetc(in);
    if (!out || !err || !in) {
        if (out)
            fclose(out);
        if (err)
            fclose(err);
        if (in)
            fclose(in);
        free(out_buf);
        free(err_buf);
        a->status = -1;
        return a;
    }
    struct cli_io io = {.in = in, .out = out, .err = err};
    int status = cli_main(&io, argc, argv);
    fclose(in);
    if (fclose(out) != 0 && status != CLI_OUTPUT)
        status = CLI_OUTPUT;
    fclose(err);
    *a = (struct web_answer){status, out_buf, (uint32_t)out_len, err_buf, (uint32_t)err_len};
    return a;
}

/* report()'s answer as values, not text (docs/web.md, "Size and speed"): the object the report writes
   (tools/report.h, cli_report_write: the same events its JSON text is made of) as a tape of numbers the
   page turns into the object with no knowledge of any field.  Each event is a tag, then its operands:
     1 '{'   2 '}'   3 '['   4 ']'   a key: one number, 16 + its address (a NUL-terminated literal of the
     module, far above 16: the page reads it once and keeps it)
     6 null  7 true  8 false  9 number: its value (an integer exactly; a "%.6f" value as JSON.parse reads
     that text)  10 string: offset in the string area, length (UTF-8)  11 a word (a string literal of the
     module): its address, read once as a key is */
enum { TAPE_OPEN_OBJECT = 1, TAPE_CLOSE_OBJECT, TAPE_OPEN_ARRAY, TAPE_CLOSE_ARRAY, TAPE_NULL = 6, TAPE_TRUE,
       TAPE_FALSE, TAPE_NUMBER, TAPE_STRING, TAPE_WORD };

/* What the page reads of a report: status, the tape and its length in numbers, the error line, the string
   area, the input over a limit as the text report's `exceeded` line words it (cli_exceeded: NUL-terminated,
   NULL when no input is over one), and the text report's notes (cli_report_notes: its `note` lines, each ending
   in a line break, NUL-terminated; NULL when there are none) (nine 32-bit words). */
struct web_values {
    int32_t status;
    double *tape;
    uint32_t tape_len;
    char *err;
    uint32_t err_len;
    char *strings;
    uint32_t strings_len;
    const char *exceeded;
    const char *notes;
};

/* report()'s context, made once by the page (gpuocc_web_report_context) and used for every call: the
   answer, the tape and string area (grown when a report needs more) and a stream over a fixed buffer for the
   command's error line. */
struct web_report {
    struct web_values a;
    double *tape;
    size_t tape_len, tape_cap;
    char *strings;
    size_t strings_len, strings_cap;
    bool failed; /* memory ran out while writing */
    FILE *err;
    char err_buf[4096];
    char exceeded[256]; /* the size the text report's line is written into */
    char notes[256];    /* the size the text report writes its notes into */
    struct cli_report rep;
    /* The last few devices looked up by name (the catalog never changes, so a name always finds the same
       device): this instance's own (one context per module instance, that is per page thread), never shared. */
    struct {
        char name[64];
        gpuocc_device dev;
    } devices[8];
    int32_t devices_len, devices_next;
    /* report()'s fields by number (gpuocc_web_report_fields): each of the command's flags, and for each its
       launch field (cli_launch_flags' number) or -1 */
    int32_t fields_len;
    const char *field_flag[64];
    int32_t field_launch[64];
    bool field_switch[64];
    char fields_text[1024];
};

/* The tape twice as long; false (and c->failed) when memory ran out. */
static __attribute__((noinline)) bool tape_grow(struct web_report *c)
{
    size_t cap = c->tape_cap * 2;
    double *more = c->failed ? NULL : realloc(c->tape, cap * sizeof *more);
    if (!more) {
        c->failed = true;
        return false;
    }
    c->tape = more;
    c->tape_cap = cap;
    return true;
}

static inline __attribute__((always_inline)) void tape_put(struct web_report *c, double v)
{
    if (c->tape_len == c->tape_cap && !tape_grow(c))
        return;
    c->tape[c->tape_len++] = v;
}

static void tape_open(void *c, char bracket)
{
    tape_put(c, bracket == '{' ? TAPE_OPEN_OBJECT : TAPE_OPEN_ARRAY);
}

static void tape_close(void *c, char bracket)
{
    tape_put(c, bracket == '}' ? TAPE_CLOSE_OBJECT : TAPE_CLOSE_ARRAY);
}

static void tape_key(void *c, const char *key)
{
    tape_put(c, 16.0 + (double)(uintptr_t)key); /* the page reads it up to its NUL, once */
}

static void tape_null(void *c)
{
    tape_put(c, TAPE_NULL);
}

static void tape_boolean(void *c, bool v)
{
    tape_put(c, v ? TAPE_TRUE : TAPE_FALSE);
}

static void tape_integer(void *c, int64_t v)
{
    tape_put(c, TAPE_NUMBER);
    tape_put(c, (double)v); /* the nearest double, as JSON.parse reads the integer's text */
}

/* The value JSON.parse reads from "%.6f" of v: the decimal v rounded to 6 places, N / 10^6.  N is v * 10^6
   rounded to an integer; where that product is far from a half (more than 10^-3 away: its rounding error is
   below 2^-13 while |v| < 10^6), its rounding is the exact value's, and N / 10^6 (both exact) is the double
   nearest the decimal, as strtod gives.  Anything else (near a half, large, not finite) goes through the text. */
static double fixed6_value(double v)
{
    if (fabs(v) < 1e6) {
        double p = v * 1e6, n = nearbyint(p);
        if (fabs(fabs(p - n) - 0.5) > 1e-3)
            return n / 1e6;
    }
    char text[400]; /* the longest, -DBL_MAX: 309 digits, the sign, the point and 6 */
    snprintf(text, sizeof text, "%.6f", v);
    return strtod(text, NULL);
}

static void tape_fixed6(void *c, double v)
{
    tape_put(c, TAPE_NUMBER);
    tape_put(c, fixed6_value(v)); /* the text's value, as JSON.parse reads it */
}

static void tape_string(void *cv, const char *s)
{
    struct web_report *c = cv;
    size_t n = strlen(s);
    if (c->strings_len + n > c->strings_cap) {
        size_t cap = 2 * (c->strings_cap + n);
        char *more = c->failed ? NULL : realloc(c->strings, cap);
        if (!more) {
            c->failed = true;
            return;
        }
        c->strings = more;
        c->strings_cap = cap;
    }
    memcpy(c->strings + c->strings_len, s, n);
    tape_put(c, TAPE_STRING);
    tape_put(c, (double)c->strings_len);
    tape_put(c, (double)n);
    c->strings_len += n;
}

static void tape_word(void *c, const char *s)
{
    tape_put(c, TAPE_WORD);
    tape_put(c, (double)(uintptr_t)s); /* the page reads it up to its NUL, once, as a key */
}

static const struct cli_json_ops tape_ops = {tape_open, tape_close, tape_key, tape_null, tape_boolean, tape_integer,
                                             tape_fixed6, tape_string, tape_word};

EXPORT("gpuocc_web_report_context") struct web_report *web_report_context(void)
{
    struct web_report *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->tape_cap = 512;
    c->tape = malloc(c->tape_cap * sizeof *c->tape);
    c->strings_cap = 1024;
    c->strings = malloc(c->strings_cap);
    c->err = fmemopen(c->err_buf, sizeof c->err_buf, "w");
    /* the fields by number: report's options, in their order (docs/web.md) */
    size_t at = 0;
    for (const struct cli_option *o = cli_cmd_report.options; o->name && c->fields_len < 64; o++) {
        size_t n = strlen(o->name);
        if (at + n + 3 > sizeof c->fields_text)
            break;
        int32_t id = -1;
        for (int32_t j = 0; j < CLI_LAUNCH_FLAG_COUNT; j++)
            if (!strcmp(cli_launch_flags[j], o->name))
                id = j;
        c->field_flag[c->fields_len] = o->name;
        c->field_launch[c->fields_len] = id;
        c->field_switch[c->fields_len] = o->value == NULL;
        c->fields_len++;
        memcpy(c->fields_text + at, o->name, n); /* "--threads\n", a switch "--cu-mode!\n" */
        at += n;
        if (!o->value)
            c->fields_text[at++] = '!';
        c->fields_text[at++] = '\n';
    }
    c->fields_text[at] = '\0';
    if (!c->tape || !c->strings || !c->err) {
        if (c->err)
            fclose(c->err);
        free(c->tape);
        free(c->strings);
        free(c);
        return NULL;
    }
    return c;
}

/* After the flags: the answer (cli_report_finish), its object as the tape, the status and the error line. */
static struct web_values *report_answer(struct web_report *c, struct cli_io *io, bool parsed)
{
    int status;
    const char *exceeded = NULL, *notes = NULL;
    if (!parsed || !cli_report_finish(io, &c->rep))
        status = io->status;
    else {
        if (cli_exceeded(&c->rep.l.dev, &c->rep.l.k, &c->rep.r, c->exceeded, sizeof c->exceeded))
            exceeded = c->exceeded;
        if (cli_report_notes(&c->rep.l, c->notes, sizeof c->notes))
            notes = c->notes;
        cli_report_write(&c->rep, &tape_ops, c);
        if (c->failed)
            return NULL;
        status = cli_report_status(io, &c->rep);
        if (io->status > status)
            status = io->status;
    }
    long err_len = 0;
    if (ftell(c->err) > 0) {
        fflush(c->err);
        err_len = ftell(c->err);
    }
    c->a = (struct web_values){status, c->tape, (uint32_t)c->tape_len, c->err_buf,
                               (uint32_t)(err_len > 0 ? err_len : 0), c->strings, (uint32_t)c->strings_len,
                               exceeded, notes};
    return &c->a;
}

static void report_start(struct web_report *c, struct cli_io *io)
{
    fseek(c->err, 0, SEEK_SET);
    *io = (struct cli_io){.in = NULL, .out = c->err, .err = c->err, .cmd = &cli_cmd_report};
    c->tape_len = c->strings_len = 0;
    c->failed = false;
}

/* `gpuocc report ARGV...` (argv[0] is "report") as gpuocc_web_run answers it, status and error alike, its
   object as the tape above: the command's own parser and cli_report_finish / cli_report_write in place of
   the dispatcher, its streams and the JSON text.  The answer lives in the context until the next call.  NULL
   when the command line asks for help (the page runs the whole command then) or memory ran out. */
EXPORT("gpuocc_web_report") struct web_values *web_report(struct web_report *c, int argc, char **argv)
{
    if (!c || argc < 1)
        return NULL;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return NULL;
    struct cli_io io;
    report_start(c, &io);
    cli_report_init(&c->rep);
    struct cli_args a = {.io = &io, .argc = argc, .argv = argv, .i = 1};
    for (; cli_more(&a); a.i++)
        if (!cli_report_flag(&a, &c->rep))
            cli_unknown(&a);
    return report_answer(c, &io, true);
}

/* report()'s fields by number: the report command's flags, one a line in their order ("--arch\n--threads\n
   ...", a switch marked "--cu-mode!"), read once by the page; a field's number is its line's. */
EXPORT("gpuocc_web_report_fields") const char *web_report_fields(struct web_report *c)
{
    return c ? c->fields_text : NULL;
}

/* The device `name` looks up to, from this instance's last few (a hit), else looked up and kept; NULL for a
   name the catalog does not know (the flag's own code then says so, as on the command line). */
static const gpuocc_device *device_named(struct web_report *c, const char *name)
{
    for (int32_t i = 0; i < c->devices_len; i++)
        if (!strcmp(c->devices[i].name, name))
            return &c->devices[i].dev;
    size_t n = strlen(name);
    gpuocc_device d = {.size = sizeof d};
    if (gpuocc_device_lookup(name, &d) != GPUOCC_OK)
        return NULL;
    if (n >= sizeof c->devices[0].name) /* too long to keep (and no catalog name is): used once */
        return NULL;
    const int32_t kept = (int32_t)(sizeof c->devices / sizeof c->devices[0]);
    int32_t i = c->devices_len < kept ? c->devices_len++ : c->devices_next;
    c->devices_next = (i + 1) % kept;
    memcpy(c->devices[i].name, name, n + 1);
    c->devices[i].dev = d;
    return &c->devices[i].dev;
}

/* An integer's decimal text, as "%lld" (and JavaScript's String()) writes it. */
static const char *decimal(double v, char *buf, size_t cap)
{
    char *p = buf + cap - 1;
    *p = '\0';
    if (!(fabs(v) <= 9007199254740992.0)) /* not a safe integer: the page sends none */
        return p;
    int64_t x = (int64_t)v;
    uint64_t u = x < 0 ? 0 - (uint64_t)x : (uint64_t)x;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (x < 0)
        *--p = '-';
    return p;
}

/* report() with its fields by number, not as argument text: `in` holds n pairs of numbers in the order the
   params name them, (field, value) for a number (an integer: the page sends others as text), (-1 - field,
   address) for text (NUL-terminated), (field, anything) for a switch.  Each is applied as its flag would be
   on the command line (cli_launch_set for a launch field, the command's own parser for the others: the same
   checks and messages), and the device found by name from the instance's last few; then --json, the answer
   and the tape as gpuocc_web_report.  NULL when memory ran out or a field number is unknown. */
EXPORT("gpuocc_web_report_values") struct web_values *web_report_values(struct web_report *c, const double *in,
                                                                         int32_t n)
{
    if (!c || (n > 0 && !in))
        return NULL;
    struct cli_io io;
    report_start(c, &io);
    cli_report_init(&c->rep);
    struct cli_launch *l = &c->rep.l;
    for (int32_t i = 0; i < n && !io.status; i++) {
        double f = in[2 * i], v = in[2 * i + 1];
        bool is_text = f < 0;
        int32_t field = is_text ? (int32_t)(-1 - f) : (int32_t)f;
        if (!(f > -1.0 - c->fields_len && f < c->fields_len) || field < 0 || field >= c->fields_len)
            return NULL;
        char buf[32];
        const char *text = c->field_switch[field] ? NULL
                           : is_text ? (const char *)(uintptr_t)v
                                     : decimal(v, buf, sizeof buf);
        int32_t id = c->field_launch[field];
        if (id >= 0)
            cli_launch_set(&io, l, id, text, id == CLI_ARCH ? device_named(c, text) : NULL);
        else { /* the command's own flags (clusters, --setmaxnreg ...): its parser, on that one flag */
            char *argv[2] = {(char *)c->field_flag[field], (char *)text};
            struct cli_args a = {.io = &io, .argc = text ? 2 : 1, .argv = argv, .i = 0};
            if (!cli_report_flag(&a, &c->rep))
                cli_unknown(&a);
        }
    }
    c->rep.json = true;
    return report_answer(c, &io, !io.status);
}
