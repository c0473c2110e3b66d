/*
 * ELF64 little-endian, the container of NVIDIA cubins and of the host objects that embed them.  Field
 * offsets are those of the System V gABI (Elf64_Ehdr, Elf64_Shdr).  Every read is checked against the
 * image's length first.
 */
#include "elf.h"

#ifndef GPUOCC_EXPERIMENTAL
#define GPUOCC_EXPERIMENTAL /* the library defines the experimental part too */
#endif
#include "gpuocc.h"

#define EHDR_SIZE 64u
#define SHDR_SIZE 64u
#define SHN_XINDEX 0xffffu

int32_t gpuocc_elf_open(const uint8_t *p, size_t n, struct gpuocc_elf *elf)
{
    static const uint8_t magic[4] = {0x7f, 'E', 'L', 'F'};
    if (n < 4 || memcmp(p, magic, 4) != 0)
        return GPUOCC_ERR_FORMAT;
    if (n < EHDR_SIZE)
        return GPUOCC_ERR_TRUNCATED;
    if (p[4] != 2 || p[5] != 1) /* EI_CLASS = ELFCLASS64, EI_DATA = ELFDATA2LSB */
        return (p[4] == 1 || p[5] == 2) ? GPUOCC_ERR_UNSUPPORTED : GPUOCC_ERR_FORMAT;
    memset(elf, 0, sizeof *elf);
    elf->p = p;
    elf->n = n;
    elf->abi_version = p[8];
    elf->type = gpuocc_le16(p + 16);
    elf->machine = gpuocc_le16(p + 18);
    elf->flags = gpuocc_le32(p + 48);
    elf->shoff = gpuocc_le64(p + 40);
    uint16_t shentsize = gpuocc_le16(p + 58);
    uint64_t shnum = gpuocc_le16(p + 60);
    uint32_t shstrndx = gpuocc_le16(p + 62);
    if (elf->shoff == 0)
        return shnum == 0 ? GPUOCC_OK : GPUOCC_ERR_FORMAT; /* no section table */
    if (shentsize != SHDR_SIZE)
        return GPUOCC_ERR_FORMAT;
    if (!gpuocc_fits(n, elf->shoff, SHDR_SIZE))
        return GPUOCC_ERR_TRUNCATED;
    /* Extended numbering: section 0 holds the real count and string-table index. */
    const uint8_t *zero = p + elf->shoff;
    if (shnum == 0)
        shnum = gpuocc_le64(zero + 32);
    if (shstrndx == SHN_XINDEX)
        shstrndx = gpuocc_le32(zero + 40);
    if (shnum == 0 || shnum > (n - elf->shoff) / SHDR_SIZE)
        return shnum == 0 ? GPUOCC_ERR_FORMAT : GPUOCC_ERR_TRUNCATED;
    if (shstrndx >= shnum)
        return GPUOCC_ERR_FORMAT;
    elf->shnum = (uint32_t)shnum;
    elf->shstrndx = shstrndx;
    return GPUOCC_OK;
}

void gpuocc_elf_section(const struct gpuocc_elf *elf, uint32_t index, struct gpuocc_section *s)
{
    const uint8_t *h = elf->p + elf->shoff + (uint64_t)index * SHDR_SIZE;
    s->name = gpuocc_le32(h);
    s->type = gpuocc_le32(h + 4);
    s->flags = gpuocc_le64(h + 8);
    s->offset = gpuocc_le64(h + 24);
    s->size = gpuocc_le64(h + 32);
    s->link = gpuocc_le32(h + 40);
    s->info = gpuocc_le32(h + 44);
    s->entsize = gpuocc_le64(h + 56);
}

int32_t gpuocc_elf_data(const struct gpuocc_elf *elf, const struct gpuocc_section *s, const uint8_t **data)
{
    if (s->type == GPUOCC_SHT_NOBITS)
        return GPUOCC_ERR_FORMAT;
    if (!gpuocc_fits(elf->n, s->offset, s->size))
        return GPUOCC_ERR_TRUNCATED;
    *data = elf->p + s->offset;
    return GPUOCC_OK;
}

int32_t gpuocc_elf_string(const struct gpuocc_elf *elf, uint32_t table, uint64_t offset, const char **str,
                          size_t *length)
{
    if (table == 0 || table >= elf->shnum)
        return GPUOCC_ERR_FORMAT;
    struct gpuocc_section s;
    gpuocc_elf_section(elf, table, &s);
    const uint8_t *data;
    int32_t rc = gpuocc_elf_data(elf, &s, &data);
    if (rc != GPUOCC_OK)
        return rc;
    if (offset >= s.size)
        return GPUOCC_ERR_FORMAT;
    const uint8_t *nul = (const uint8_t *)memchr(data + offset, 0, (size_t)(s.size - offset));
    if (!nul)
        return GPUOCC_ERR_FORMAT;
    *str = (const char *)(data + offset);
    *length = (size_t)(nul - (data + offset));
    return GPUOCC_OK;
}

int32_t gpuocc_elf_section_name(const struct gpuocc_elf *elf, const struct gpuocc_section *s, const char **name,
                                size_t *length)
{
    return gpuocc_elf_string(elf, elf->shstrndx, s->name, name, length);
}

static uint64_t note_align(uint64_t v)
{
    return (v + 3) & ~(uint64_t)3;
}

int32_t gpuocc_note_next(const uint8_t *d, uint64_t size, uint64_t *pos, struct gpuocc_note *note)
{
    if (*pos > size || size - *pos < 12)
        return 0;
    uint64_t at = *pos, namesz = gpuocc_le32(d + at), descsz = gpuocc_le32(d + at + 4);
    uint64_t name_at = at + 12, desc_at = name_at + note_align(namesz); /* no overflow: each < 2^33 */
    if (desc_at > size || descsz > size - desc_at)
        return GPUOCC_ERR_TRUNCATED;
    *note = (struct gpuocc_note){gpuocc_le32(d + at + 8), d + name_at, d + desc_at, namesz, descsz};
    *pos = desc_at + note_align(descsz);
    return 1;
}

int32_t gpuocc_note_once(struct gpuocc_note_memo *m, const struct gpuocc_elf *elf, const struct gpuocc_section *s,
                         gpuocc_note_walk *walk, void *ctx, uint64_t *result)
{
    for (uint32_t i = 0; i < m->count; i++)
        if (m->offset[i] == s->offset && m->size[i] == s->size) {
            *result = m->result[i];
            return GPUOCC_OK;
        }
    const uint8_t *data;
    int32_t rc = gpuocc_elf_data(elf, s, &data);
    if (rc != GPUOCC_OK)
        return rc;
    if (s->size > elf->n - m->walked) /* the sections walked overlap */
        return GPUOCC_ERR_FORMAT;
    m->walked += s->size;
    if ((rc = walk(data, s->size, ctx, result)) != GPUOCC_OK)
        return rc;
    uint32_t at = m->next;
    m->offset[at] = s->offset, m->size[at] = s->size, m->result[at] = *result;
    m->next = (at + 1) % GPUOCC_NOTE_MEMO;
    m->count += m->count < GPUOCC_NOTE_MEMO;
    return GPUOCC_OK;
}
