/* The WebAssembly module's entry points (docs/web.md): the CLI's own commands (tools/main.c's cli_main) run
   in the page, their standard output and error captured in memory.  So the page answers with the very text
   `gpuocc report --json`, `gpuocc binary - --json`, `gpuocc sweep --json` and `gpuocc plot` print: it builds
   no JSON of its own.  Built by web/build.py with clang --target=wasm32-wasi, never by the native build.

   The page calls gpuocc_web_alloc(n) for each argument string and for the input bytes, gpuocc_web_run()
   with the argument vector, reads the answer it returns, and frees it all (each page thread has its own
   instance). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

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
