/* A Triton kernel's <name>.json: a small JSON reader that takes the fields of the launch and skips the rest.
   Bounded: the text is read once, containers nest at most JSON_DEPTH deep, strings are copied only where a
   field wants them and within their room. */
#include "triton_meta.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define JSON_DEPTH 64

struct reader {
    const char *p, *end;
    char *why;
    size_t cap;
};

static bool fail(struct reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, r->cap, fmt, ap);
    va_end(ap);
    return false;
}

static void spaces(struct reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

static bool take(struct reader *r, char c)
{
    spaces(r);
    if (r->p < r->end && *r->p == c) {
        r->p++;
        return true;
    }
    return false;
}

static bool word(struct reader *r, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, w, n) != 0)
        return false;
    r->p += n;
    return true;
}

static int hex(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A string at the cursor (after spaces), copied into out[0, cap) when out is not NULL (a character beyond
   ASCII as '?'); *cut set when it did not fit. */
static bool string(struct reader *r, char *out, size_t cap, bool *cut)
{
    spaces(r);
    if (r->p >= r->end || *r->p != '"')
        return fail(r, "expected a string");
    r->p++;
    size_t n = 0;
    *cut = false;
    for (;;) {
        if (r->p >= r->end)
            return fail(r, "a string does not end");
        unsigned char c = (unsigned char)*r->p++;
        if (c == '"')
            break;
        if (c < 0x20)
            return fail(r, "a control character in a string");
        if (c == '\\') {
            if (r->p >= r->end)
                return fail(r, "a string does not end");
            char e = *r->p++;
            if (e == 'u') {
                if (r->end - r->p < 4 || hex(r->p[0]) < 0 || hex(r->p[1]) < 0 || hex(r->p[2]) < 0 || hex(r->p[3]) < 0)
                    return fail(r, "a bad \\u escape");
                int v = hex(r->p[0]) << 12 | hex(r->p[1]) << 8 | hex(r->p[2]) << 4 | hex(r->p[3]);
                r->p += 4;
                c = v < 0x80 ? (unsigned char)v : '?';
            } else {
                const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
                const char *at = e ? strchr(from, e) : NULL;
                if (!at)
                    return fail(r, "a bad escape in a string");
                c = (unsigned char)to[at - from];
            }
        } else if (c >= 0x80)
            c = '?';
        if (out && n + 1 < cap)
            out[n++] = (char)c;
        else if (out)
            *cut = true;
    }
    if (out && cap)
        out[n] = 0;
    return true;
}

/* A number at the cursor: *integer false when it has a fraction or an exponent, or does not fit int64. */
static bool number(struct reader *r, int64_t *v, bool *integer)
{
    spaces(r);
    bool negative = r->p < r->end && *r->p == '-';
    if (negative)
        r->p++;
    if (r->p >= r->end || *r->p < '0' || *r->p > '9')
        return fail(r, "expected a value");
    *integer = true;
    uint64_t x = 0;
    while (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
        unsigned d = (unsigned)(*r->p++ - '0');
        if (x > (UINT64_MAX - d) / 10 || x * 10 + d > (uint64_t)INT64_MAX)
            *integer = false;
        else
            x = x * 10 + d;
    }
    if (r->p < r->end && *r->p == '.') {
        *integer = false;
        r->p++;
        if (r->p >= r->end || *r->p < '0' || *r->p > '9')
            return fail(r, "a bad number");
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
            r->p++;
    }
    if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
        *integer = false;
        r->p++;
        if (r->p < r->end && (*r->p == '+' || *r->p == '-'))
            r->p++;
        if (r->p >= r->end || *r->p < '0' || *r->p > '9')
            return fail(r, "a bad number");
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
            r->p++;
    }
    *v = negative ? -(int64_t)x : (int64_t)x;
    return true;
}

static bool skip_value(struct reader *r, int depth)
{
    spaces(r);
    if (r->p >= r->end)
        return fail(r, "the text ends where a value should be");
    if (depth > JSON_DEPTH)
        return fail(r, "nested more than %d deep", JSON_DEPTH);
    char c = *r->p;
    bool cut;
    if (c == '"')
        return string(r, NULL, 0, &cut);
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        r->p++;
        if (take(r, close))
            return true;
        do {
            if (c == '{' && (!string(r, NULL, 0, &cut) || !take(r, ':')))
                return fail(r, "a bad object member");
            if (!skip_value(r, depth + 1))
                return false;
        } while (take(r, ','));
        return take(r, close) || fail(r, "an unclosed %s", c == '{' ? "object" : "array");
    }
    if (word(r, "true") || word(r, "false") || word(r, "null"))
        return true;
    int64_t v;
    bool integer;
    return number(r, &v, &integer);
}

/* An integer field (null: *v keeps its default), within [lo, hi]. */
static bool integer_field(struct reader *r, const char *key, int64_t lo, int64_t hi, int64_t *v)
{
    spaces(r);
    if (word(r, "null"))
        return true;
    bool integer;
    int64_t x;
    if (!number(r, &x, &integer))
        return fail(r, "%s: expected an integer", key);
    if (!integer || x < lo || x > hi)
        return fail(r, "%s: expected an integer from %lld to %lld", key, (long long)lo, (long long)hi);
    *v = x;
    return true;
}

static bool string_field(struct reader *r, const char *key, char *out, size_t cap)
{
    bool cut;
    if (!string(r, out, cap, &cut))
        return fail(r, "%s: expected a string", key);
    return !cut || fail(r, "%s: longer than %zu bytes", key, cap - 1);
}

static bool target(struct reader *r, struct triton_meta *m, int64_t *warp_size)
{
    spaces(r);
    if (word(r, "null"))
        return true;
    if (!take(r, '{'))
        return fail(r, "target: expected an object");
    if (take(r, '}'))
        return true;
    do {
        char key[32];
        bool cut;
        if (!string(r, key, sizeof key, &cut) || !take(r, ':'))
            return fail(r, "target: a bad member");
        bool ok = cut                             ? skip_value(r, 2)
                  : !strcmp(key, "backend")       ? string_field(r, "target.backend", m->backend, sizeof m->backend)
                  : !strcmp(key, "warp_size")     ? integer_field(r, "target.warp_size", 1, 1024, warp_size)
                                                  : skip_value(r, 2);
        if (!ok)
            return false;
    } while (take(r, ','));
    return take(r, '}') || fail(r, "target: an unclosed object");
}

static bool cluster_dims(struct reader *r, struct triton_meta *m)
{
    spaces(r);
    if (word(r, "null"))
        return true;
    if (!take(r, '['))
        return fail(r, "cluster_dims: expected three integers");
    for (int i = 0; i < 3; i++)
        if ((i && !take(r, ',')) || !integer_field(r, "cluster_dims", 0, 65535, &m->cluster[i]))
            return fail(r, "cluster_dims: expected three integers");
    return take(r, ']') || fail(r, "cluster_dims: expected three integers");
}

bool triton_meta_parse(const char *p, size_t n, struct triton_meta *m, char *why, size_t cap)
{
    memset(m, 0, sizeof *m);
    m->num_ctas = 1;
    m->maxnreg = -1;
    m->num_warps = -1;
    int64_t top_warp = 0, target_warp = 0;
    struct reader r = {p, p + n, why, cap};
    if (!take(&r, '{'))
        return fail(&r, "not a JSON object");
    if (!take(&r, '}')) {
        do {
            char key[32];
            bool cut;
            if (!string(&r, key, sizeof key, &cut) || !take(&r, ':'))
                return fail(&r, "a bad object member");
            bool ok = cut                          ? skip_value(&r, 1)
                      : !strcmp(key, "name")       ? string_field(&r, "name", m->name, sizeof m->name)
                      : !strcmp(key, "num_warps")  ? integer_field(&r, "num_warps", 1, 1024, &m->num_warps)
                      : !strcmp(key, "num_ctas")   ? integer_field(&r, "num_ctas", 1, 65535, &m->num_ctas)
                      : !strcmp(key, "warp_size")  ? integer_field(&r, "warp_size", 1, 1024, &top_warp)
                      : !strcmp(key, "maxnreg")    ? integer_field(&r, "maxnreg", 1, 65535, &m->maxnreg)
                      : !strcmp(key, "shared")     ? integer_field(&r, "shared", 0, (int64_t)1 << 40, &m->shared)
                      : !strcmp(key, "tmem_size")  ? integer_field(&r, "tmem_size", 0, 65535, &m->tmem_size)
                      : !strcmp(key, "target")     ? target(&r, m, &target_warp)
                      : !strcmp(key, "cluster_dims") ? cluster_dims(&r, m)
                                                     : skip_value(&r, 1);
            if (!ok)
                return false;
        } while (take(&r, ','));
        if (!take(&r, '}'))
            return fail(&r, "an unclosed object");
    }
    spaces(&r);
    if (r.p != r.end)
        return fail(&r, "text after the object");
    if (m->num_warps < 0)
        return fail(&r, "no num_warps: not the metadata of a Triton kernel");
    m->warp_size = top_warp ? top_warp : target_warp;
    return true;
}
