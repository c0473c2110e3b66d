/* gpuocc binary (alias gpuocc cubin): every kernel of the device code in binaries (cubins, fatbinaries,
   host objects, executables, shared libraries, static archives of objects), with its occupancy.  Files are
   mapped, not read; entries are read one at a time (compressed ones decoded into one reused workspace), so
   memory stays near the largest entry whatever the file's size.  A failed entry is reported on stderr and
   the others still print (exit 1); exit 2 when nothing at all could be read. */
#define _DEFAULT_SOURCE /* madvise */
#define _POSIX_C_SOURCE 200809L
#include "inputs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct binary_run {
    struct cli_io *io;
    struct input_options *o;
    uint8_t *workspace;
    size_t workspace_len;
    gpuocc_binary_kernel *records;
    int32_t capacity;
    int64_t entries_read;
    void *map; /* the file's mapping (NULL for stdin): its pages are dropped as the reading goes on */
    size_t map_len;
};

static gpuocc_compiled_kernel as_compiled(const gpuocc_binary_kernel *b)
{
    gpuocc_compiled_kernel k;
    memset(&k, 0, sizeof k);
    k.name_offset = b->name_offset;
    k.name_length = b->name_length;
    k.short_offset = b->short_offset;
    k.short_length = b->short_length;
    k.cc = b->cc;
    k.registers = b->registers;
    k.barriers = b->barriers;
    k.smem_bytes = b->smem_bytes;
    k.cmem_bytes = b->cmem_bytes;
    k.stack_frame_bytes = b->stack_frame_bytes;
    k.spill_store_bytes = k.spill_load_bytes = k.lmem_bytes = -1; /* binaries do not record spills */
    k.max_threads_per_block = b->max_threads_per_block;
    k.min_blocks_per_sm = b->min_blocks_per_sm;
    k.max_regs_per_thread = b->max_regs_per_thread;
    k.max_blocks_per_cluster = b->max_blocks_per_cluster;
    k.cluster_x = b->cluster_x;
    k.cluster_y = b->cluster_y;
    k.cluster_z = b->cluster_z;
    return k;
}

static bool grow_records(struct binary_run *r, int32_t count)
{
    gpuocc_binary_kernel *bigger = realloc(r->records, (size_t)count * sizeof *bigger);
    if (!bigger)
        return false;
    r->records = bigger;
    r->capacity = count;
    gpuocc_binary_kernel_init(&r->records[0]);
    return true;
}

/* One entry: its kernels printed, or a problem naming the file and the entry. */
static void read_entry(struct binary_run *r, const char *label, const uint8_t *p, size_t n, int32_t entry,
                       gpuocc_binary_summary *s)
{
    int32_t count = 0;
    int32_t rc = gpuocc_binary_read_entry(p, n, entry, r->workspace, r->workspace_len, r->records, r->capacity,
                                          &count, s);
    if (rc == GPUOCC_ERR_BUFFER) {
        if (!grow_records(r, count)) {
            cli_problem(r->io, label, "entry %d: out of memory", entry);
            return;
        }
        rc = gpuocc_binary_read_entry(p, n, entry, r->workspace, r->workspace_len, r->records, r->capacity, &count,
                                      s);
    }
    if (rc != GPUOCC_OK) {
        cli_problem(r->io, label, "entry %d: %s", entry, gpuocc_strerror(rc));
        return;
    }
    r->entries_read++;
    for (int32_t i = 0; i < count && !cli_output_failed(r->io); i++) {
        gpuocc_compiled_kernel k = as_compiled(&r->records[i]);
        const char *origin = r->records[i].name_buffer == GPUOCC_BINARY_NAME_INPUT ? (const char *)p
                                                                                     : (const char *)r->workspace;
        input_kernel(r->io->out, r->o, label, origin, &k);
    }
}

/* The device code of one image (a whole file or an archive member).  In an archive, a member without
   device code is skipped quietly: host objects sit beside device objects there. */
static void read_image(struct binary_run *r, const char *label, const uint8_t *p, size_t n, bool member)
{
    gpuocc_binary_summary s = {.size = sizeof s};
    int32_t rc = gpuocc_binary_scan(p, n, &s);
    if (rc != GPUOCC_OK) {
        if (!(member && rc == GPUOCC_ERR_FORMAT))
            cli_problem(r->io, label, "%s%s", gpuocc_strerror(rc),
                        rc == GPUOCC_ERR_FORMAT ? " (no cubin, fatbinary, or host binary with .nv_fatbin)" : "");
        return;
    }
    if (s.workspace_bytes > r->workspace_len) {
        uint8_t *bigger = s.workspace_bytes <= SIZE_MAX ? realloc(r->workspace, (size_t)s.workspace_bytes) : NULL;
        if (!bigger) {
            cli_problem(r->io, label, "cannot allocate a %llu-byte workspace", (unsigned long long)s.workspace_bytes);
            return;
        }
        r->workspace = bigger;
        r->workspace_len = (size_t)s.workspace_bytes;
    }
    input_file(r->io->out, r->o, label);
    for (int32_t e = 0; e < s.entries && !cli_output_failed(r->io); e++) {
        read_entry(r, label, p, n, e, &s);
        /* the mapped pages already read would stay resident: drop them now and then (they are read
           again from the file if needed), so memory stays near the workspace whatever the file's size */
        if (r->map && e % 64 == 63)
            madvise(r->map, r->map_len, MADV_DONTNEED);
    }
}

/* ar(1) archives: "!<arch>\n", then members, each a 60-byte header (name, dates, ids, mode, decimal size,
   "`\n") and its data padded to an even length.  GNU names end in '/', long ones are "/N" into the "//"
   member; BSD long names are "#1/N", the name's N bytes opening the data. */
#define AR_MAGIC "!<arch>\n"

static void read_archive(struct binary_run *r, const char *path, const uint8_t *p, size_t n)
{
    const uint8_t *names = NULL;
    size_t names_len = 0;
    bool any_member = false;
    for (size_t pos = 8; pos + 60 <= n;) {
        const uint8_t *h = p + pos;
        char field[17];
        memcpy(field, h + 48, 10);
        field[10] = 0;
        char *end;
        errno = 0;
        unsigned long long size = strtoull(field, &end, 10);
        if (errno || end == field || h[58] != '`' || h[59] != '\n' || size > n - pos - 60) {
            cli_problem(r->io, path, "archive member header at byte %zu is damaged", pos);
            return;
        }
        const uint8_t *data = h + 60;
        size_t data_len = (size_t)size;
        char name[256];
        size_t name_len = 0;
        if (h[0] == '/' && h[1] == '/') { /* the long-name table */
            names = data;
            names_len = data_len;
        } else if (h[0] == '/' && h[1] >= '0' && h[1] <= '9' && names) {
            memcpy(field, h + 1, 15);
            field[15] = 0;
            size_t at = (size_t)strtoull(field, NULL, 10);
            while (at < names_len && names[at] != '/' && names[at] != '\n' && name_len < sizeof name - 1)
                name[name_len++] = (char)names[at++];
        } else if (h[0] == '#' && h[1] == '1' && h[2] == '/') {
            memcpy(field, h + 3, 13);
            field[13] = 0;
            size_t len = (size_t)strtoull(field, NULL, 10);
            if (len > data_len)
                len = data_len;
            for (size_t i = 0; i < len && data[i] && name_len < sizeof name - 1; i++)
                name[name_len++] = (char)data[i];
            data += len;
            data_len -= len;
        } else if (h[0] != '/') {
            while (name_len < 16 && h[name_len] != '/' && h[name_len] != ' ')
                name[name_len] = (char)h[name_len], name_len++;
        }
        if (name_len > 0) {
            name[name_len] = 0;
            size_t label_len = strlen(path) + name_len + 3;
            char *label = malloc(label_len);
            if (!label) {
                cli_problem(r->io, path, "out of memory");
                return;
            }
            snprintf(label, label_len, "%s(%s)", path, name);
            int64_t before = r->entries_read;
            read_image(r, label, data, data_len, true);
            any_member |= r->entries_read > before;
            free(label);
        }
        pos += 60 + (size_t)size + (size & 1);
    }
    if (!any_member)
        cli_problem(r->io, path, "no member of the archive holds device code");
}

static void read_path(struct binary_run *r, const char *path)
{
    if (!strcmp(path, "-")) { /* a pipe cannot be mapped: read it whole */
        struct cli_io quiet = *r->io;
        size_t n;
        char *data = input_slurp(&quiet, path, &n);
        if (!data) {
            r->io->status = r->io->status > CLI_PARTIAL ? r->io->status : CLI_PARTIAL;
            return;
        }
        if (n >= 8 && !memcmp(data, AR_MAGIC, 8))
            read_archive(r, path, (const uint8_t *)data, n);
        else
            read_image(r, path, (const uint8_t *)data, n, false);
        free(data);
        return;
    }
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        cli_problem(r->io, path, "cannot open: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return;
    }
    if (!S_ISREG(st.st_mode) || st.st_size == 0) {
        cli_problem(r->io, path, "cannot read: %s", S_ISDIR(st.st_mode) ? strerror(EISDIR) : "not a regular file with data");
        close(fd);
        return;
    }
    size_t n = (size_t)st.st_size;
    void *map = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        cli_problem(r->io, path, "cannot map: %s", strerror(errno));
        return;
    }
    r->map = map;
    r->map_len = n;
    if (n >= 8 && !memcmp(map, AR_MAGIC, 8))
        read_archive(r, path, map, n);
    else
        read_image(r, path, map, n, false);
    r->map = NULL;
    munmap(map, n);
}

static int cmd_binary(struct cli_io *io, int argc, char **argv)
{
    struct input_options o;
    if (!input_parse_options(io, argc, argv, &o)) {
        free(o.paths);
        return io->status;
    }
    if (o.npaths == 0) {
        free(o.paths);
        return cli_fail(io, "FILE", "give cubins, fatbinaries, host objects, libraries or archives (or - for stdin)");
    }
    struct binary_run r = {io, &o, NULL, 0, NULL, 0, 0, NULL, 0};
    if (!grow_records(&r, 256)) {
        free(o.paths);
        return cli_fail(io, "memory", "out of memory");
    }
    input_begin(io->out, &o);
    for (int i = 0; i < o.npaths && !cli_output_failed(io); i++)
        read_path(&r, o.paths[i]);
    input_end(io->out, &o, r.entries_read > 0);
    free(r.workspace);
    free(r.records);
    if (r.entries_read == 0) /* nothing could be read at all */
        io->status = io->status > CLI_USAGE ? io->status : CLI_USAGE;
    return io->status;
}

const struct cli_command cli_cmd_binary = {
    "binary", cmd_binary,
    "every kernel of device code in binaries (cubins, fatbinaries, objects, libraries, archives), with its occupancy",
    "FILE...|- (--threads N | --best-block) [--arch NAME] [--json|--csv]", input_options,
    "gpuocc binary kernels.cubin --threads 256\n"
    "gpuocc binary app.o libfoo.a --best-block --json\n"
    "gpuocc binary /usr/local/cuda/lib64/libcublasLt.so --best-block --csv\n"};

const struct cli_command cli_cmd_cubin = {
    "cubin", cmd_binary, "the same as 'gpuocc binary' (its older name)",
    "FILE...|- (--threads N | --best-block) [--arch NAME] [--json|--csv]", input_options,
    "gpuocc cubin kernels.cubin --threads 256\n"};
