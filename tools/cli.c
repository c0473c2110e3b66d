/* Argument parsing and output helpers shared by the subcommands. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void cli_fail(const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "gpuocc: %s: ", field);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(CLI_USAGE_ERROR);
}

bool cli_flag(struct cli_args *a, const char *name, const char **value)
{
    const char *arg = a->argv[a->i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return false;
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return true;
    }
    if (arg[n] != '\0')
        return false;
    if (a->i + 1 >= a->argc)
        cli_fail(name, "missing value");
    *value = a->argv[++a->i];
    return true;
}

bool cli_switch(struct cli_args *a, const char *name)
{
    return strcmp(a->argv[a->i], name) == 0;
}

void cli_unknown(struct cli_args *a)
{
    cli_fail(a->argv[a->i], "unknown option or argument");
}

bool cli_try_int(const char *text, int64_t lo, int64_t hi, int64_t *out)
{
    if (!text || !*text)
        return false;
    errno = 0;
    char *end;
    long long v = strtoll(text, &end, 10);
    if (errno || *end != '\0' || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

int32_t cli_int(const char *field, const char *text, int64_t lo, int64_t hi)
{
    int64_t v;
    if (!cli_try_int(text, lo, hi, &v))
        cli_fail(field, "expected an integer from %lld to %lld, got '%s'", (long long)lo, (long long)hi, text);
    return (int32_t)v;
}

bool cli_try_size(const char *text, int64_t *out)
{
    if (!text || !*text)
        return false;
    errno = 0;
    char *end;
    long long v = strtoll(text, &end, 10);
    if (errno || end == text || v < 0)
        return false;
    int shift = 0;
    if (*end == 'K' || *end == 'k')
        shift = 10, end++;
    else if (*end == 'M' || *end == 'm')
        shift = 20, end++;
    else if (*end == 'G' || *end == 'g')
        shift = 30, end++;
    if (*end == 'i')
        end++;
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end != '\0' || v > (INT64_MAX >> shift))
        return false;
    *out = (int64_t)v << shift;
    return true;
}

int64_t cli_size(const char *field, const char *text)
{
    int64_t v;
    if (!cli_try_size(text, &v))
        cli_fail(field, "expected a byte count like 49152, 48K or 1M, got '%s'", text);
    return v;
}

double cli_double(const char *field, const char *text)
{
    errno = 0;
    char *end;
    double v = strtod(text, &end);
    if (errno || end == text || *end != '\0' || !isfinite(v))
        cli_fail(field, "expected a finite number, got '%s'", text);
    return v;
}

void cli_device(const char *field, const char *name, gpuocc_device *dev)
{
    dev->size = sizeof *dev;
    if (gpuocc_device_lookup(name, dev) != GPUOCC_OK)
        cli_fail(field, "unknown architecture or product '%s' (see 'gpuocc devices')", name);
}

void cli_arch_name(const gpuocc_device *d, char *out, size_t cap)
{
    snprintf(out, cap, "sm_%d%d", d->cc_major, d->cc_minor);
}

void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

void json_key(FILE *f, bool *first, const char *key)
{
    if (!*first)
        fputc(',', f);
    *first = false;
    json_string(f, key);
    fputc(':', f);
}

void cli_limiters(uint32_t limiters, char *out, size_t cap)
{
    out[0] = '\0';
    size_t n = 0;
    for (int32_t i = 0; i < GPUOCC_RESOURCE_COUNT; i++) {
        if (!(limiters & (1u << i)))
            continue;
        int w = snprintf(out + n, cap - n, "%s%s", n ? "|" : "", gpuocc_resource_name(i));
        if (w < 0 || (size_t)w >= cap - n)
            return;
        n += (size_t)w;
    }
}
