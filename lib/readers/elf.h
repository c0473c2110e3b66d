/* ELF64 little-endian images: the header, the section table, strings (elf.c). */
#ifndef GPUOCC_READERS_ELF_H
#define GPUOCC_READERS_ELF_H

#include "bytes.h"

/* An ELF64 little-endian image whose section table has been checked to lie inside it. */
struct gpuocc_elf {
    const uint8_t *p;
    size_t n;
    uint16_t type, machine; /* e_type (GPUOCC_ET_*), e_machine */
    uint8_t abi_version;
    uint32_t flags;
    uint64_t shoff;
    uint32_t shnum, shstrndx;
};

struct gpuocc_section {
    uint32_t name, type;
    uint64_t flags, offset, size;
    uint32_t link, info;
    uint64_t entsize;
};

#define GPUOCC_SHT_SYMTAB 2u
#define GPUOCC_SHT_NOBITS 8u

/* GPUOCC_ERR_FORMAT if `p` is not ELF, _UNSUPPORTED for ELF32 or big-endian, _TRUNCATED if the header or
   section table runs past `n`. */
int32_t gpuocc_elf_open(const uint8_t *p, size_t n, struct gpuocc_elf *elf);
/* Section `index` (< shnum) of an opened image. */
void gpuocc_elf_section(const struct gpuocc_elf *elf, uint32_t index, struct gpuocc_section *s);
/* The file bytes of a section; GPUOCC_ERR_TRUNCATED if they run past the image. */
int32_t gpuocc_elf_data(const struct gpuocc_elf *elf, const struct gpuocc_section *s, const uint8_t **data);
/* The NUL-terminated string at `offset` of string table `table`; GPUOCC_ERR_FORMAT if not inside it. */
int32_t gpuocc_elf_string(const struct gpuocc_elf *elf, uint32_t table, uint64_t offset, const char **str,
                          size_t *length);
/* A section's name. */
int32_t gpuocc_elf_section_name(const struct gpuocc_elf *elf, const struct gpuocc_section *s, const char **name,
                                size_t *length);

#define GPUOCC_EM_CUDA 190u
#define GPUOCC_EM_AMDGPU 224u
#define GPUOCC_EM_INTELGT 205u /* Intel GPUs: zebin (zebin.c) */
#define GPUOCC_SHT_NOTE 7u
#define GPUOCC_ET_REL 1u  /* relocatable: a cubin before nvlink (-rdc=true), an object */
#define GPUOCC_ET_EXEC 2u /* executable: a linked cubin */

#endif
