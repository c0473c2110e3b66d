/* Fuzz target: the command line, in-process.  The first byte picks what the rest is: a batch CSV (as stdin,
   CSV or JSON lines out), a ptxas report or a cubin on stdin, or an argument vector (NUL-separated) for any
   subcommand.  Whatever comes in, a command must return an exit status from 0 to 3, never crash, never read
   outside its input, never leak. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run(char **argv, int argc, const uint8_t *in, size_t in_size)
{
    /* stdin from the fuzzer's bytes (a private copy, so an over-read is caught), output discarded */
    char *copy = malloc(in_size ? in_size : 1);
    if (!copy)
        return 0;
    memcpy(copy, in, in_size);
    FILE *f_in = in_size ? fmemopen(copy, in_size, "r") : fopen("/dev/null", "r");
    FILE *f_out = fopen("/dev/null", "w");
    int status = 0;
    if (f_in && f_out) {
        struct cli_io io = {.in = f_in, .out = f_out, .err = f_out};
        status = cli_main(&io, argc, argv);
    }
    if (f_in)
        fclose(f_in);
    if (f_out)
        fclose(f_out);
    free(copy);
    return status;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > (1 << 16))
        return 0;
    uint8_t mode = data[0] % 5;
    data++, size--;
    static char prog[] = "gpuocc", batch[] = "batch", json[] = "--json", ptxas[] = "ptxas", cubin[] = "cubin",
                threads[] = "--threads", n256[] = "256", best[] = "--best-block", dash[] = "-", csv[] = "--csv";
    int status;
    if (mode == 0) {
        char *argv[] = {prog, batch, NULL};
        status = run(argv, 2, data, size);
    } else if (mode == 1) {
        char *argv[] = {prog, batch, json, NULL};
        status = run(argv, 3, data, size);
    } else if (mode == 2) {
        char *argv[] = {prog, ptxas, size % 2 ? threads : best, n256, csv, NULL};
        status = run(argv, size % 2 ? 5 : 3, data, size);
    } else if (mode == 3) {
        char *argv[] = {prog, cubin, dash, threads, n256, json, NULL};
        status = run(argv, 6, data, size);
    } else {
        /* an argument vector: NUL-separated words; anything naming a path is kept off the file system
           (read stdin instead), so a run depends on its bytes alone */
        char *text = malloc(size + 1);
        char **argv = malloc((size + 3) * sizeof *argv);
        if (!text || !argv) {
            free(text);
            free(argv);
            return 0;
        }
        memcpy(text, data, size);
        text[size] = '\0';
        int argc = 0;
        argv[argc++] = prog;
        for (size_t i = 0; i <= size;) {
            char *word = text + i;
            size_t len = strlen(word);
            argv[argc++] = strchr(word, '/') ? dash : word;
            i += len + 1;
        }
        argv[argc] = NULL;
        status = run(argv, argc, (const uint8_t *)"", 0);
        free(argv);
        free(text);
    }
    if (status < 0 || status > 3)
        abort();
    return 0;
}
