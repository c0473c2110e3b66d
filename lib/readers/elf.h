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

/* One ELF note of a note section's bytes data[0, size), from *pos (0 for the first): 1 with the note (its type,
   and its name and desc inside the bytes) and *pos past it, padding included; 0 at the end (fewer than a
   header's 12 bytes left, or the last note's padding past them); GPUOCC_ERR_TRUNCATED for a name or desc that
   runs past the bytes. */
struct gpuocc_note {
    uint32_t type;
    const uint8_t *name, *desc;
    uint64_t namesz, descsz;
};
int32_t gpuocc_note_next(const uint8_t *data, uint64_t size, uint64_t *pos, struct gpuocc_note *note);

/* The note sections a reader walks (zebin.c, amdgpu.c, cubin.c), each (offset, size) once: a section header
   naming bytes already walked gets what that walk gave, without a second walk.  The last GPUOCC_NOTE_MEMO
   distinct ranges are remembered, and the bytes walked in all may not pass the image's size, which note
   sections that do not overlap never do.  So the walks are linear in the image, however many headers name
   the same notes (a crafted zebin of 17,000 headers over one 1 MB range was walked 17,000 times). */
#define GPUOCC_NOTE_MEMO 8
struct gpuocc_note_memo {
    uint64_t offset[GPUOCC_NOTE_MEMO], size[GPUOCC_NOTE_MEMO];
    uint64_t result[GPUOCC_NOTE_MEMO]; /* what each walk gave (the reader's own encoding) */
    uint32_t count, next;              /* ranges held; the slot written next */
    uint64_t walked;                   /* bytes walked so far */
};
/* A note walk over data[0, size): GPUOCC_OK with *result, or an error. */
typedef int32_t gpuocc_note_walk(const uint8_t *data, uint64_t size, void *ctx, uint64_t *result);
/* Section `s` (its bytes inside the image: gpuocc_elf_data) walked by `walk`, or what the walk of the same
   bytes gave before; GPUOCC_ERR_FORMAT when walking it would take the bytes walked past the image's size
   (note sections that overlap without being the same). */
int32_t gpuocc_note_once(struct gpuocc_note_memo *m, const struct gpuocc_elf *elf, const struct gpuocc_section *s,
                         gpuocc_note_walk *walk, void *ctx, uint64_t *result);

#define GPUOCC_EM_CUDA 190u
#define GPUOCC_EM_AMDGPU 224u
#define GPUOCC_EM_INTELGT 205u /* Intel GPUs: zebin (zebin.c) */
#define GPUOCC_SHT_NOTE 7u
#define GPUOCC_ET_REL 1u  /* relocatable: a cubin before nvlink (-rdc=true), an object */
#define GPUOCC_ET_EXEC 2u /* executable: a linked cubin */

#endif
