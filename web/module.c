/* The WebAssembly module's entry points (docs/web.md): the CLI's own commands (tools/main.c's cli_main) run
   in the page, their standard output and error captured in memory.  So the page answers with the very text
   `gpuocc report --json`, `gpuocc binary - --json`, `gpuocc sweep --json` and `gpuocc plot` print: it builds
   no JSON of its own.  Built by web/build.py with clang --target=wasm32-wasi, never by the native build.

   The page calls gpuocc_web_alloc(n) for each argument string and for the input bytes, gpuocc_web_run()
   with the argument vector, reads the answer it returns, and frees it all (each page thread has its own
   instance).  report() has its own way, gpuocc_web_report: the same command's code (tools/report.h) without
   the streams, its JSON written into a buffer kept from call to call (docs/web.md, "Size and speed"). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "report.h"

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
     1 '{'   2 '}'   3 '['   4 ']'   5 key: its address (a NUL-terminated literal of the module: the page reads it once and keeps it)
     6 null  7 true  8 false  9 number: its value (an integer exactly; a "%.6f" value as JSON.parse reads
     that text)  10 string: offset in the string area, length (UTF-8) */
enum { TAPE_OPEN_OBJECT = 1, TAPE_CLOSE_OBJECT, TAPE_OPEN_ARRAY, TAPE_CLOSE_ARRAY, TAPE_KEY, TAPE_NULL, TAPE_TRUE,
       TAPE_FALSE, TAPE_NUMBER, TAPE_STRING };

/* What the page reads of a report: status, the tape and its length in numbers, the error line, the string
   area (eight 32-bit words). */
struct web_values {
    int32_t status;
    double *tape;
    uint32_t tape_len;
    char *err;
    uint32_t err_len;
    char *strings;
    uint32_t strings_len;
    int32_t pad;
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
    struct cli_report rep;
};

static void tape_put(struct web_report *c, double v)
{
    if (c->tape_len == c->tape_cap) {
        size_t cap = c->tape_cap * 2;
        double *more = c->failed ? NULL : realloc(c->tape, cap * sizeof *more);
        if (!more) {
            c->failed = true;
            return;
        }
        c->tape = more;
        c->tape_cap = cap;
    }
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
    tape_put(c, TAPE_KEY);
    tape_put(c, (double)(uintptr_t)key); /* the page reads it up to its NUL, once */
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

static void tape_fixed6(void *c, double v)
{
    char text[64];
    snprintf(text, sizeof text, "%.6f", v);
    tape_put(c, TAPE_NUMBER);
    tape_put(c, strtod(text, NULL)); /* the text's value, as JSON.parse reads it */
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

static const struct cli_json_ops tape_ops = {tape_open, tape_close, tape_key, tape_null, tape_boolean, tape_integer,
                                             tape_fixed6, tape_string};

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

/* `gpuocc report ARGV...` (argv[0] is "report") as gpuocc_web_run answers it, status and error alike, its
   object as the tape above: `cli_report_answer` and `cli_report_write` in place of the dispatcher, its
   streams and the JSON text.  The answer lives in the context until the next call.  NULL when the command
   line asks for help (the page runs the whole command then) or memory ran out. */
EXPORT("gpuocc_web_report") struct web_values *web_report(struct web_report *c, int argc, char **argv)
{
    if (!c || argc < 1)
        return NULL;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return NULL;
    fseek(c->err, 0, SEEK_SET);
    struct cli_io io = {.in = NULL, .out = c->err, .err = c->err, .cmd = &cli_cmd_report};
    int status;
    c->tape_len = c->strings_len = 0;
    c->failed = false;
    if (!cli_report_answer(&io, &c->rep, argc, argv))
        status = io.status;
    else {
        cli_report_write(&c->rep, &tape_ops, c);
        if (c->failed)
            return NULL;
        status = cli_report_status(&io, &c->rep);
        if (io.status > status)
            status = io.status;
    }
    fflush(c->err);
    long err_len = ftell(c->err);
    c->a = (struct web_values){status, c->tape, (uint32_t)c->tape_len, c->err_buf,
                               (uint32_t)(err_len > 0 ? err_len : 0), c->strings, (uint32_t)c->strings_len, 0};
    return &c->a;
}
