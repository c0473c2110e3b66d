/* Shared pieces of the gpuocc command-line program: argument parsing, errors, JSON output. */
#ifndef GPUOCC_CLI_H
#define GPUOCC_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gpuocc.h"

#define CLI_USAGE_ERROR 2

/* Print "gpuocc: FIELD: REASON" on stderr and exit with status 2. */
_Noreturn void cli_fail(const char *field, const char *fmt, ...);

/* Flag parsing: an iterator over argv.  cli_flag() matches "--name" and consumes its value. */
struct cli_args {
    int argc;
    char **argv;
    int i;
};
bool cli_flag(struct cli_args *a, const char *name, const char **value);
bool cli_switch(struct cli_args *a, const char *name);
/* The argument at the cursor is unknown: fail naming it. */
_Noreturn void cli_unknown(struct cli_args *a);

/* Numbers, each failing with the field's name.  Sizes accept K, M, G suffixes (powers of 1024). */
int32_t cli_int(const char *field, const char *text, int64_t lo, int64_t hi);
int64_t cli_size(const char *field, const char *text);
double cli_double(const char *field, const char *text);
bool cli_try_int(const char *text, int64_t lo, int64_t hi, int64_t *out);
bool cli_try_size(const char *text, int64_t *out);

/* A device by name, or fail naming --arch. */
void cli_device(const char *field, const char *name, gpuocc_device *dev);
/* "sm_90" for a device's compute capability. */
void cli_arch_name(const gpuocc_device *d, char *out, size_t cap);

/* Minimal JSON writer: keys and values with commas handled by the caller's `first` flag. */
void json_string(FILE *f, const char *s);
void json_key(FILE *f, bool *first, const char *key);

/* Limiters as "registers|shared_memory". */
void cli_limiters(uint32_t limiters, char *out, size_t cap);

int cmd_report(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_batch(int argc, char **argv);
int cmd_latency(int argc, char **argv);
int cmd_spill(int argc, char **argv);
int cmd_tradeoff(int argc, char **argv);
int cmd_waves(int argc, char **argv);
int cmd_divergence(int argc, char **argv);
int cmd_roofline(int argc, char **argv);
int cmd_diagnose(int argc, char **argv);
int cmd_ptxas(int argc, char **argv);
int cmd_cubin(int argc, char **argv);

#endif
