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

/* report()'s context, made once by the page (gpuocc_web_report_context) and used for every call: the answer
   the page reads (its first five words are a struct web_answer), the JSON buffer, grown when a report needs
   more, and a stream over a fixed buffer for the command's error line. */
struct web_report {
    struct web_answer a;
    char *out;
    size_t out_cap;
    FILE *err;
    char err_buf[4096];
    struct cli_report rep;
};

EXPORT("gpuocc_web_report_context") struct web_report *web_report_context(void)
{
    struct web_report *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->out_cap = 4096;
    c->out = malloc(c->out_cap);
    c->err = fmemopen(c->err_buf, sizeof c->err_buf, "w");
    if (!c->out || !c->err) {
        if (c->err)
            fclose(c->err);
        free(c->out);
        free(c);
        return NULL;
    }
    return c;
}

/* `gpuocc report ARGV...` (argv[0] is "report") as gpuocc_web_run answers it, status, output and error
   alike, with `cli_report_answer` and `cli_report_json` in place of the dispatcher and its streams.  The
   answer lives in the context until the next call.  NULL when the command line asks for help (the page runs
   the whole command then) or memory ran out. */
EXPORT("gpuocc_web_report") struct web_answer *web_report(struct web_report *c, int argc, char **argv)
{
    if (!c || argc < 1)
        return NULL;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return NULL;
    fseek(c->err, 0, SEEK_SET);
    struct cli_io io = {.in = NULL, .out = c->err, .err = c->err, .cmd = &cli_cmd_report};
    int status;
    size_t n = 0;
    if (!cli_report_answer(&io, &c->rep, argc, argv))
        status = io.status;
    else {
        n = cli_report_json(&c->rep, c->out, c->out_cap);
        if (n >= c->out_cap) {
            char *more = malloc(n + 1);
            if (!more)
                return NULL;
            free(c->out);
            c->out = more;
            c->out_cap = n + 1;
            cli_report_json(&c->rep, c->out, c->out_cap);
        }
        status = cli_report_status(&io, &c->rep);
        if (io.status > status)
            status = io.status;
    }
    fflush(c->err);
    long err_len = ftell(c->err);
    c->a = (struct web_answer){status, c->out, (uint32_t)n, c->err_buf, (uint32_t)(err_len > 0 ? err_len : 0)};
    return &c->a;
}
