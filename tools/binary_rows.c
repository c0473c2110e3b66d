/* gpuocc binary: the cells an AMD kernel's row (tools/cmd_binary.c) and an Intel kernel's row
   (tools/binary_intel.c) both begin with, in each of the three formats.  A file of its own, so that each
   vendor's rows use it and neither uses the other's. */
#include "inputs.h"

void binary_put_int(FILE *out, int64_t v, const char *unknown)
{
    if (v < 0)
        fputs(unknown, out);
    else
        fprintf(out, "%lld", (long long)v);
}

void binary_table_head(FILE *out, const gpuocc_binary_kernel *b, const char *short_name, const char *arch,
                       int64_t regs, const int64_t cells[5])
{
    fprintf(out, "%-36.*s %-7s %4lld ", (int)(b->short_length < 36 ? b->short_length : 36), short_name, arch,
            (long long)regs);
    static const int widths[5] = {3, 7, 6, 6, 6};
    for (size_t i = 0; i < 5; i++) {
        char cell[32] = "-";
        if (cells[i] >= 0)
            snprintf(cell, sizeof cell, "%lld", (long long)cells[i]);
        fprintf(out, "%*s ", widths[i], cell);
    }
}

void binary_csv_head(FILE *out, const gpuocc_binary_kernel *b, const char *origin, const char *arch,
                     const struct binary_count *shared, size_t n_shared, const char *status, const gpuocc_result *r)
{
    csv_cell(out, origin + b->name_offset, (size_t)b->name_length);
    fputc(',', out);
    csv_cell(out, origin + b->short_offset, (size_t)b->short_length);
    fprintf(out, ",%s", arch);
    for (size_t i = 0; i < n_shared; i++) {
        fputc(',', out);
        if (shared[i].value != INT64_MIN)
            binary_put_int(out, shared[i].value, "-1");
    }
    fprintf(out, ",%s", status);
    if (r) {
        char lim[96];
        cli_limiters(r->limiters, lim, sizeof lim);
        fprintf(out, ",%d,%d,%.6f,%s,", r->blocks_per_sm, r->warps_per_sm, r->occupancy, lim);
    } else
        fputs(",,,,,", out);
    fputs(",,", out); /* NVIDIA's min_blocks_reached, min_blocks_preventing: empty */
}

void binary_json_head(FILE *out, bool *first, const struct input_options *o, const char *file,
                      const gpuocc_binary_kernel *b, const char *origin, const char *arch,
                      const struct binary_count *shared, size_t n_shared, const char *status, const gpuocc_result *r)
{
    fprintf(out, "%s{", o->rows == 0 ? "" : ",");
    json_key(out, first, "file");
    json_string(out, file);
    json_key(out, first, "cluster_verdict"); /* NVIDIA's */
    fputs("null", out);
    json_key(out, first, "name");
    json_string_n(out, origin + b->name_offset, (size_t)b->name_length);
    json_key(out, first, "short_name");
    json_string_n(out, origin + b->short_offset, (size_t)b->short_length);
    json_key(out, first, "arch");
    json_string(out, arch);
    for (size_t i = 0; i < n_shared; i++) {
        json_key(out, first, shared[i].key);
        binary_put_int(out, shared[i].value, "null");
    }
    json_key(out, first, "status");
    json_string(out, status);
    if (r) {
        fprintf(out, ",\"blocks_per_sm\":%d,\"warps_per_sm\":%d,\"occupancy\":%.6f,\"limiters\":", r->blocks_per_sm,
                r->warps_per_sm, r->occupancy);
        json_limiters(out, r->limiters);
    } else
        fputs(",\"blocks_per_sm\":null,\"warps_per_sm\":null,\"occupancy\":null,\"limiters\":null", out);
    fputs(",\"min_blocks_reached\":null,\"min_blocks_preventing\":null", out); /* NVIDIA's */
}
