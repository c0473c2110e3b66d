"""Compiler output in: ptxas reports, cubins, whole binaries (NVIDIA and AMD device code), the caches
compilers leave (a Triton cache, CuPy's files) and LLVM's AMDGPU resource-usage remarks.  Imports _library,
_types and _caches."""
from __future__ import annotations

import ctypes
import dataclasses
import errno
import os
import warnings
from typing import Any, Optional, Union

from ._library import (Error, _CBinaryEntry, _CBinaryKernel, _CBinarySummary, _CCompiledKernel, _CRemarksKernel,
                       _ERR_ARGUMENT, _ERR_BUFFER, _ERR_FORMAT, _ERR_TRUNCATED, _OK, _VENDOR_AMD, _VENDOR_INTEL, _bytes,
                       _call, _from_c, c_i32, library, status_name)
from ._types import BinaryKernel, BinaryRead, CompiledKernel, Device, RemarksKernel, _recorded, _sm
from ._caches import cupy_prefix, read_meta, walk


# ======================================================================================================
# Compiler output in
# ======================================================================================================
def _records(symbol: str, data: bytes, *extra: Any) -> tuple:
    count = c_i32()
    status = getattr(library, symbol)(data, len(data), None, 0, ctypes.byref(count), *extra)
    if status not in (_OK, _ERR_BUFFER):
        return status, ()
    array_c = (_CCompiledKernel * max(count.value, 1))()
    status = getattr(library, symbol)(data, len(data), array_c, count.value, ctypes.byref(count), *extra)
    if status != _OK:
        return status, ()

    def text(offset: int, length: int) -> str:
        return data[offset:offset + length].decode(errors="replace")
    return status, tuple(_from_c(CompiledKernel, k, name=text(k.name_offset, k.name_length),
                                 short_name=text(k.short_offset, k.short_length), arch=_sm(k.cc, k.arch_variant))
                         for k in array_c[:count.value])


# What `gpuocc ptxas` and `gpuocc remarks` say of an input that holds no kernel (tools/cmd_inputs.c), and the
# binaries they point to `gpuocc binary` by their first bytes: here read_binary, the function that reads them
_BINARY_HINTS = ((b"\x7fELF", "; it is an ELF file (a cubin, code object, zebin or host binary): gpuocc.read_binary "
                              "reads it"),
                 (b"\x50\xed\x55\xba", "; it is a fatbinary: gpuocc.read_binary reads it"),
                 (b"__CLANG_OFFLOAD_BUNDLE__", "; it is an offload bundle: gpuocc.read_binary reads it"),
                 (b"CCOB", "; it is a compressed offload bundle: gpuocc.read_binary reads it"),
                 (b"!<arch>\n", "; it is an archive: gpuocc.read_binary reads it"))


def _no_kernel(data: bytes, expected: str, where: str) -> Error:
    """gpuocc.Error "format" for a log that holds no kernel, in the CLI's words ("no kernel found (expected
    ...)", and which reader takes a binary given instead)."""
    hint = next((h for magic, h in _BINARY_HINTS if data.startswith(magic)), "")
    return Error(_ERR_FORMAT, where, reason=f"no kernel found ({expected}){hint}")


def read_ptxas(text: Union[str, bytes]) -> tuple:
    """The kernels of a `ptxas -v` report or a whole build log (str or bytes), as CompiledKernel.

    Raises TypeError for anything else, gpuocc.Error "parse"/"truncated" naming the line at fault, and
    gpuocc.Error "format" for input that holds no kernel ("no kernel found", as `gpuocc ptxas` exits 2)."""
    if isinstance(text, str):
        data = text.encode()
    else:
        data = _bytes(text, "text")
    line = c_i32()
    status, rows = _records("gpuocc_ptxas_parse", data, ctypes.byref(line))
    if status != _OK:
        raise Error(status, f"line {line.value}")
    if not rows:
        raise _no_kernel(data, 'expected ptxas -v output: "ptxas info : Compiling entry function"', "read_ptxas")
    # a log prints neither launch bounds nor clusters: unknown (the C record's 0 means "not printed")
    return tuple(dataclasses.replace(k, max_threads=None, min_blocks=None, max_blocks_per_cluster=None, cluster_x=None,
                                     cluster_y=None, cluster_z=None) for k in rows)


def read_cubin(data: Union[bytes, bytearray, memoryview], max_entry_bytes: Optional[int] = None) -> list:
    """The kernels of every input `gpuocc binary` reads (bytes): a cubin, a fatbinary, a host object,
    executable, shared library or ar archive, compressed entries (zstd, LZ4) included, AMDGPU code objects and
    HIP offload bundles too; a list of CompiledKernel (arch with its variant: "sm_90a"; AMD: registers = the
    VGPRs, smem = the static LDS, stack = the scratch, as read_binary's neutral fields).  Every copy is listed
    (BinaryKernel.linked, from read_binary, says which one is relocatable).

    All or nothing: raises TypeError for a non-bytes argument, gpuocc.Error "format", "truncated",
    "unsupported" for input it cannot read, and the first failed entry's status when any entry could not be
    read (read_binary lists the others)."""
    read, first_status = _read_all(_bytes(data, "data"), MAX_ENTRY_BYTES if max_entry_bytes is None else max_entry_bytes)
    if read.entries_failed:
        raise Error(first_status, f"entry {read.first_failed_entry}")
    return [CompiledKernel(name=k.name, short_name=k.short_name, arch=k.arch, registers=k.registers or 0,
                           barriers=k.barriers, line=0, smem=k.smem or 0, cmem=k.cmem, stack=k.stack,
                           spill_stores=None, spill_loads=None, lmem=None, max_threads=k.max_threads,
                           min_blocks=k.min_blocks, max_regs=k.max_regs, max_blocks_per_cluster=k.max_blocks_per_cluster,
                           cluster_x=k.cluster_x, cluster_y=k.cluster_y, cluster_z=k.cluster_z) for k in read]


def _warn_again(data: bytes, records: Any) -> None:
    """One UserWarning per record whose "Function Name" line (location and name) came before in the current run
    of remarks: another compile's remarks, another --offload-arch's, start there, in `gpuocc remarks`'s words
    (tools/cmd_remarks.c, remarks_again; docs/amd.md)."""
    seen: dict = {}
    for k in records:
        start = data.rfind(b"\n", 0, k.name_offset) + 1
        key = data[start:k.name_offset + k.name_length]
        first = seen.get(key)
        if first is None:
            seen[key] = k.line
            continue
        name = data[k.name_offset:k.name_offset + k.name_length].decode(errors="replace")
        warnings.warn(f"line {k.line}: kernel '{name}' again (first at line {first}): another compile's remarks "
                      "start here (clang prints each --offload-arch's in turn and names none); give each target's "
                      "remarks on their own (one --offload-arch per compile)", UserWarning, stacklevel=3)
        seen = {key: k.line}


def read_remarks(text: Union[str, bytes]) -> tuple:
    """The kernels of LLVM's kernel-resource-usage remarks (`clang -Rpass-analysis=kernel-resource-usage`'s
    stderr, or a whole build log; str or bytes), as RemarksKernel.  The remarks do not name the target: one
    clang command for several --offload-arch prints each target's remarks in turn, so a kernel whose remarks
    come again (the same "Function Name" line) starts another compile's; each such record is named in a
    UserWarning ("line 23: kernel 'k' again (first at line 1): ...", as `gpuocc remarks` says on stderr) and
    every record is returned.

    Raises TypeError for anything else, gpuocc.Error "parse"/"truncated" naming the line at fault, and
    gpuocc.Error "format" for input that holds no kernel ("no kernel found", as `gpuocc remarks` exits 2)."""
    data = text.encode() if isinstance(text, str) else _bytes(text, "text")
    count, line = c_i32(), c_i32()
    status = library.gpuocc_remarks_parse(data, len(data), None, 0, ctypes.byref(count), ctypes.byref(line))
    if status in (_OK, _ERR_BUFFER) and count.value:
        records = (_CRemarksKernel * count.value)()
        library.gpuocc_remarks_kernel_init(records)
        status = library.gpuocc_remarks_parse(data, len(data), records, count.value, ctypes.byref(count),
                                              ctypes.byref(line))
    else:
        records = ()
    if status != _OK:
        raise Error(status, f"line {line.value}")
    if not count.value:
        raise _no_kernel(data, "expected LLVM's remarks: clang -Rpass-analysis=kernel-resource-usage", "read_remarks")

    _warn_again(data, records[:count.value])

    def text_at(offset: int, length: int) -> str:
        return data[offset:offset + length].decode(errors="replace")
    return tuple(_from_c(RemarksKernel, k, name=text_at(k.name_offset, k.name_length),
                         short_name=text_at(k.short_offset, k.short_length)) for k in records[:count.value])


def _processor(target: str) -> Optional[str]:
    """The processor of an AMD target ID: "amdgcn-amd-amdhsa--gfx90a:xnack-" -> "gfx90a"."""
    parts = target.split("-", 4)
    return parts[4].split(":")[0] or None if len(parts) == 5 else None


def _binary_kernel(k: Any, name: str, short_name: str, target: str) -> BinaryKernel:
    shared = dict(name=name, short_name=short_name, entry=k.entry, linked=k.linked)
    # a zebin: the architecture of its product family, as the CLI names it; max_threads its required work-group
    # size x*y*z (reqd_work_group_size), 0 none, as the CLI's row
    if k.vendor == _VENDOR_INTEL:
        return BinaryKernel(**shared, vendor="intel", arch={1270: "dg2", 1271: "pvc"}.get(k.product_family),
                            registers=None, barriers=k.barriers, smem=k.slm_bytes, cmem=None, stack=None,
                            max_threads=k.max_threads_per_block, min_blocks=None, max_regs=None,
                            max_blocks_per_cluster=None, cluster_x=None, cluster_y=None, cluster_z=None,
                            smem_static=k.slm_bytes, sub_group=k.sub_group, grf=k.grf, slm=k.slm_bytes,
                            scratch_per_thread=k.scratch_per_thread_bytes, private=k.private_bytes,
                            private_per_work_item=k.private_per_work_item, spill=_recorded(k.spill_bytes),
                            product_family=k.product_family)
    if k.vendor != _VENDOR_AMD:
        return BinaryKernel(**shared, vendor="nvidia", arch=_sm(k.cc, k.arch_variant), registers=k.registers,
                            barriers=_recorded(k.barriers), smem=k.smem_bytes, cmem=_recorded(k.cmem_bytes),
                            stack=_recorded(k.stack_frame_bytes), max_threads=_recorded(k.max_threads_per_block),
                            min_blocks=_recorded(k.min_blocks_per_sm), max_regs=_recorded(k.max_regs_per_thread),
                            max_blocks_per_cluster=_recorded(k.max_blocks_per_cluster),
                            cluster_x=_recorded(k.cluster_x), cluster_y=_recorded(k.cluster_y),
                            cluster_z=_recorded(k.cluster_z), smem_static=k.smem_bytes,
                            virtual_resources=k.virtual_resources, tmem_cta_group=k.tmem_cta_group,
                            setmaxnreg=k.setmaxnreg)
    # the reader leaves -1 in every AMD field the code object's metadata does not record: None, as JSON's null
    r = _recorded
    return BinaryKernel(**shared, vendor="amd", arch=_processor(target), registers=r(k.vgprs), barriers=None,
                        smem=r(k.lds_bytes), cmem=None, stack=r(k.scratch_bytes),
                        max_threads=r(k.max_flat_workgroup_size), min_blocks=None, max_regs=None,
                        max_blocks_per_cluster=None, cluster_x=None, cluster_y=None, cluster_z=None,
                        target=target or None, vgprs=r(k.vgprs), agprs=r(k.agprs), sgprs=r(k.sgprs),
                        wave_size=r(k.wave_size), smem_static=r(k.lds_bytes), scratch=r(k.scratch_bytes),
                        vgpr_spills=r(k.vgpr_spill_count), sgpr_spills=r(k.sgpr_spill_count),
                        dynamic_stack=r(k.uses_dynamic_stack),
                        cu_mode=None if k.workgroup_processor_mode == -1 else 1 - k.workgroup_processor_mode,
                        amd_mach=k.amd_mach, code_object_version=k.code_object_version)


def binary_kernel_registers(dev: Device, k: BinaryKernel) -> tuple:
    """(regs, agprs) as an occupancy question takes them (Kernel's regs and agprs) for a kernel read_binary
    found, on Device `dev` (gpuocc.device("gfx90a")): C's gpuocc_binary_kernel_registers, what `gpuocc binary` uses.
    AMD on a unified file (gfx90a+): (.vgpr_count - .agpr_count, .agpr_count), since the note counts the AGPRs
    in its VGPRs; elsewhere the recorded counts; NVIDIA (registers, 0).

    Raises TypeError for a non-Device or non-BinaryKernel; gpuocc.Error "argument" for a kernel of another
    vendor."""
    if not isinstance(dev, Device):
        raise TypeError("dev must be a Device (gpuocc.device(name))")
    if not isinstance(k, BinaryKernel):
        raise TypeError("k must be a BinaryKernel (from read_binary)")
    d = dev
    c = _CBinaryKernel()
    library.gpuocc_binary_kernel_init(ctypes.byref(c))
    c.vendor = _VENDOR_AMD if k.vendor == "amd" else 1
    c.registers = -1 if k.registers is None else k.registers
    c.vgprs = -1 if k.vgprs is None else k.vgprs
    c.agprs = -1 if k.agprs is None else k.agprs
    regs, agprs = c_i32(), c_i32()
    _call("gpuocc_binary_kernel_registers", ctypes.byref(d._to_c()), ctypes.byref(c), ctypes.byref(regs),
          ctypes.byref(agprs), where="binary_kernel_registers")
    return regs.value, agprs.value


MAX_ENTRY_BYTES = 1 << 30  # what one entry may claim decompressed unless max_entry_bytes says otherwise


def _workspace(current: Any, info: _CBinaryEntry, ceiling: int) -> Any:
    """A workspace for one entry: the fast one where memory allows, the needed one else, the current one
    when the entry claims more than the ceiling (the library then fails that entry alone)."""
    if info.image_bytes > ceiling:
        return current
    for size in (info.fast_workspace_bytes, info.workspace_bytes):
        if size <= len(current):
            return current
        try:
            return ctypes.create_string_buffer(size)
        except (MemoryError, OverflowError):
            continue
    return current


def read_binary(data: Union[bytes, bytearray, memoryview, str, "os.PathLike[str]"],
                max_entry_bytes: int = MAX_ENTRY_BYTES) -> BinaryRead:
    """The kernels of every device-code entry of a binary (bytes): a cubin, a fatbinary, a host object,
    executable or shared library, compressed entries (zstd, LZ4) included; AMDGPU code objects and HIP
    offload bundles (.hip_fatbin, compressed CCOB bundles) too; a CuPy kernel-cache file (the cubin's MD5 in
    32 hex digits, then the cubin) past its prefix.  An unreadable entry is counted in the result and does
    not hide the others.

    Given a path (str or os.PathLike), the file, or a folder walked as `gpuocc binary DIR` walks it (a
    Triton cache, an Inductor cache holding one, CuPy's kernel cache, any folder of binaries): each kernel's
    `file`; in a Triton cache each <name>.json paired with its binary gives the kernel it names its launch
    (`metadata`: the json's path; `launch_threads` = num_warps x warp size, `smem_dynamic` = shared,
    `tmem_columns` = tmem_size, `max_regs` = maxnreg, the cluster from num_ctas or cluster_dims where the
    binary records none).  What cannot be paired or read is in `problems` (path, what is wrong), never
    guessed: a json without its binary, a binary without its json (read without a launch), a json that is
    not Triton's or names a kernel its binary does not hold, a file without device code.

    The workspace is sized entry by entry: an entry claiming more than `max_entry_bytes` decompressed
    (default 1 GiB) fails alone ("argument"), as one the memory cannot hold does; never MemoryError.

    Raises TypeError for anything else, FileNotFoundError for a path that does not exist; gpuocc.Error
    "format", "truncated", "unsupported" when the containers cannot be walked, or the first failure's
    status when no entry could be read (a path: when no kernel at all could be read, naming the first
    problem)."""
    if isinstance(data, (str, os.PathLike)):
        path = os.fspath(data)
        if not os.path.exists(path):
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)
        return _read_path(path, max_entry_bytes)
    data = _bytes(data, "data")
    read, first_status = _read_all(data, max_entry_bytes)
    if read.entries_read == 0 and read.entries_failed > 0:
        raise Error(first_status, f"entry {read.first_failed_entry}")
    return read


_AR_MAGIC = b"!<arch>\n"


def _members(data: bytes):
    """The members of an ar(1) archive, as `gpuocc binary` reads them: 60-byte headers (decimal size at 48),
    data padded to an even length; the symbol table ("/", "/SYM64/") and the long-name table ("//") skipped."""
    at = len(_AR_MAGIC)
    while at + 60 <= len(data):
        name, size = data[at:at + 16].rstrip(), data[at + 48:at + 58].strip()
        if not size.isdigit() or data[at + 58:at + 60] != b"`\n":
            raise Error(_ERR_FORMAT, f"archive member at {at}")
        start, end = at + 60, at + 60 + int(size)
        if end > len(data):
            raise Error(_ERR_TRUNCATED, f"archive member at {at}")
        if name not in (b"/", b"//", b"/SYM64/"):
            skip = int(name[3:]) if name.startswith(b"#1/") and name[3:].isdigit() else 0  # BSD: name first
            yield data[start + skip:end]
        at = end + (end & 1)


def _read_all(data: bytes, max_entry_bytes: int) -> tuple:
    """read_binary's work: (BinaryRead, the first failed entry's status code, _OK when none failed)."""
    if not isinstance(max_entry_bytes, int) or isinstance(max_entry_bytes, bool):
        raise TypeError("max_entry_bytes must be an int")
    if not data.startswith(_AR_MAGIC):
        skip = cupy_prefix(data)
        image = memoryview(data)[skip:].tobytes() if skip else data
        kernels, entries, compressed, read, failed, first_entry, first_status = _read_image(image, max_entry_bytes)
    else:  # every member with device code, entries numbered across the archive; host objects skipped
        kernels, entries, compressed, read, failed, first_entry, first_status = [], 0, 0, 0, 0, -1, _OK
        for member in _members(data):
            try:
                k, e, c, r, f, fe, fs = _read_image(member, max_entry_bytes)
            except Error as error:
                if error.status == _ERR_FORMAT and not getattr(error, "_fault", 0):  # no device code in it
                    continue
                raise
            kernels += [dataclasses.replace(x, entry=x.entry + entries) for x in k]
            if f and first_entry < 0:
                first_entry, first_status = fe + entries, fs
            entries, compressed, read, failed = entries + e, compressed + c, read + r, failed + f
        if entries == 0:
            raise Error(_ERR_FORMAT, "archive: no member holds device code")
    first = status_name(first_status) if failed else None
    return BinaryRead(tuple(kernels), entries, compressed, read, failed, first_entry, first), first_status


# gpuocc_binary_summary.fault of a failed scan, in words ({} is fault_value); gpuocc binary says the same
_SCAN_FAULTS = {1: "no fatbinary magic where the next fatbinary of the section starts",
                2: "a fatbinary header size of {} bytes, below its 16",
                3: "a fatbinary past the end of its section or file ({} bytes left from its start)",
                4: "a fatbinary entry header size of {} bytes, below its 64",
                5: "a fatbinary entry past the end of its fatbinary ({} bytes left from its header)"}


def _text_hint(data: bytes) -> str:
    """What `gpuocc binary` adds for a file without device code that is text (no NUL in its first 64 KiB): the
    reader that takes it (tools/cmd_binary.c's text_hint, its commands named by the functions here)."""
    if len(data) >= 20 and data[:6] == b"\x7fELF\x02\x01" and data[16:20] == b"\x04\xff\x00\x00":
        return ("; it is an Intel OpenCL ELF (e_type 0xff04) holding a patch-token program, ocloc's default output, "
                "which gpuocc does not read: ocloc compile ... -internal_options -cl-intel-allow-zebin writes a zebin")
    head = data[:65536]
    if not head or b"\0" in head:
        return ""
    if b"Compiling entry function" in head:
        return "; it is a ptxas report: gpuocc.read_ptxas reads it"
    if b"remark: " in head and b"Function Name" in head:
        return "; it is LLVM's resource-usage remarks: gpuocc.read_remarks reads them"
    return ("; it is text: gpuocc.read_ptxas reads ptxas -v reports, gpuocc.read_remarks LLVM's remarks, "
            "gpuocc.read_binary what nvcc -cubin, nvcc -c or clang -c wrote")


def _scan(data: bytes, summary: _CBinarySummary) -> None:
    """gpuocc_binary_scan; a failure names the entry, the byte and what is wrong there when the library says.
    No device code at all is said as `gpuocc binary` says it (what was looked for; for text, which reader
    takes it).  The error's _fault is the summary's fault (0: not device code the library could place)."""
    status = library.gpuocc_binary_scan(data, len(data), ctypes.byref(summary))
    if status == _OK:
        return
    where = "binary_scan"
    if summary.fault in _SCAN_FAULTS:
        entry = f"entry {summary.first_failed_entry}, " if summary.first_failed_entry >= 0 else ""
        where += f": {entry}byte {summary.fault_offset}: " + _SCAN_FAULTS[summary.fault].format(summary.fault_value)
        error = Error(status, where)
    elif status == _ERR_FORMAT:
        error = Error(status, reason=library.gpuocc_strerror(status).decode() + " (no cubin, fatbinary, AMDGPU code "
                      "object, offload bundle or Intel zebin, in a section or anywhere in one)" + _text_hint(data))
    else:
        error = Error(status, where)
    error._fault = summary.fault
    raise error


def _read_image(data: bytes, max_entry_bytes: int) -> tuple:
    summary = _CBinarySummary(size=ctypes.sizeof(_CBinarySummary))
    _scan(data, summary)
    workspace = ctypes.create_string_buffer(1)
    info = _CBinaryEntry(size=ctypes.sizeof(_CBinaryEntry))
    kernels = []
    unread = []  # entries whose workspace could not be given: failed "argument", not counted by the library
    capacity = 256
    records = (_CBinaryKernel * capacity)()
    library.gpuocc_binary_kernel_init(records)
    for entry in range(summary.entries):
        count = c_i32()
        if library.gpuocc_binary_entry_info(data, len(data), entry, ctypes.byref(info), ctypes.byref(summary)) == _OK:
            workspace = _workspace(workspace, info, max_entry_bytes)
            if info.workspace_bytes > len(workspace):  # over the ceiling, or more than memory holds
                unread.append(entry)
                continue
        args = (data, len(data), entry, workspace, len(workspace))
        # the summary counts each entry's outcome, and lets entries read in order walk the file once
        status = library.gpuocc_binary_read_entry(*args, records, capacity, ctypes.byref(count), ctypes.byref(summary))
        if status == _ERR_BUFFER:
            capacity = count.value
            try:
                records = (_CBinaryKernel * capacity)()
            except (MemoryError, OverflowError):  # more kernels than memory holds: that entry fails alone
                unread.append(entry)
                capacity, records = 256, (_CBinaryKernel * 256)()
                library.gpuocc_binary_kernel_init(records)
                continue
            library.gpuocc_binary_kernel_init(records)
            status = library.gpuocc_binary_read_entry(*args, records, capacity, ctypes.byref(count),
                                                      ctypes.byref(summary))
        if status != _OK:
            continue
        at = ctypes.addressof(workspace)
        for k in records[:count.value]:
            if k.name_buffer == 0:
                def text(offset: int, length: int) -> str:
                    return data[offset:offset + length].decode(errors="replace")
            else:  # names in the decompressed entry: read in place, not a copy of the whole workspace
                def text(offset: int, length: int) -> str:
                    if length == 0 or offset + length > len(workspace):  # the library keeps names inside
                        return ""
                    return ctypes.string_at(at + offset, length).decode(errors="replace")
            kernels.append(_binary_kernel(k, text(k.name_offset, k.name_length), text(k.short_offset, k.short_length),
                                          text(k.target_offset, k.target_length)))
    failed, first_entry, first_status = summary.entries_failed, summary.first_failed_entry, summary.first_failure
    if unread:
        failed += len(unread)
        if first_entry < 0 or unread[0] < first_entry:
            first_entry, first_status = unread[0], _ERR_ARGUMENT
    return kernels, summary.entries, summary.compressed_entries, summary.entries_read, failed, first_entry, first_status


def _with_meta(k: BinaryKernel, meta: dict, json_path: str) -> Optional[BinaryKernel]:
    """Kernel k with the launch of the Triton json that names it (None: the json names another kernel), as
    `gpuocc binary DIR` applies it: flags aside, the json's block size, tensor memory and shared memory; its
    cluster where the binary records none; its maxnreg as the register cap (NVIDIA)."""
    if meta["name"] and k.short_name != meta["name"]:
        return None
    warp = meta["warp_size"] or (k.wave_size if k.vendor == "amd" and k.wave_size else 32)
    changes = dict(metadata=json_path, launch_threads=meta["num_warps"] * warp, tmem_columns=meta["tmem_size"],
                   smem_dynamic=meta["shared"])
    if k.vendor == "nvidia":
        if not k.cluster_x or k.cluster_x <= 0:
            c = list(meta["cluster"])
            if c[0] <= 0 and meta["num_ctas"] > 1:
                c = [meta["num_ctas"], 1, 1]
            if c[0] > 0 and c[0] * max(c[1], 1) * max(c[2], 1) > 1:
                changes.update(cluster_x=c[0], cluster_y=max(c[1], 1), cluster_z=max(c[2], 1))
        if meta["maxnreg"]:
            changes["max_regs"] = meta["maxnreg"]
    return dataclasses.replace(k, **changes)


def _read_path(path: str, max_entry_bytes: int) -> BinaryRead:
    """read_binary of a file or a folder (_caches.walk's order), each kernel with its file and its json."""
    steps = walk(path) if os.path.isdir(path) else [("binary", path, None)]
    kernels, problems = [], []
    entries = compressed = read = failed = 0
    first_entry, first_failure, first_status = -1, None, _OK
    for kind, where, json_path in steps:
        if kind == "problem":
            problems.append((where, json_path))
            continue
        meta = None
        if json_path is not None:
            meta, why = read_meta(json_path, where)
            if why:
                problems.append((json_path, why))
        try:
            with open(where, "rb") as f:
                data = f.read()
        except OSError as e:
            problems.append((where, f"cannot open: {e.strerror}"))
            continue
        if not data:
            problems.append((where, "cannot read: the file is empty (0 bytes)"))
            continue
        try:
            got, status = _read_all(data, max_entry_bytes)
        except Error as e:  # what is wrong, without the status name (said once, by the error raised below)
            problems.append((where, f"{e.where}: {e.reason}" if e.where else e.reason))
            first_status = e.status if first_status == _OK else first_status
            continue
        found = [dataclasses.replace(k, file=where) for k in got]
        if meta is not None:
            paired = [_with_meta(k, meta, json_path) for k in found]
            if not any(p is not None for p in paired):
                problems.append((json_path, f"names kernel '{meta['name']}', which {where} does not hold: its launch "
                                            "is not applied"))
            found = [p if p is not None else k for p, k in zip(paired, found)]
        if got.entries_failed:
            problems.append((where, f"entry {got.first_failed_entry}: {library.gpuocc_strerror(status).decode()}"))
            if first_failure is None:
                first_entry, first_failure, first_status = got.first_failed_entry, got.first_failure, status
        elif not found:
            problems.append((where, f"{got.entries} compiled entr{'y' if got.entries == 1 else 'ies'} but no kernel "
                                    "(device functions or variables only)"))
        kernels += found
        entries, compressed = entries + got.entries, compressed + got.compressed_entries
        read, failed = read + got.entries_read, failed + got.entries_failed
    if not kernels:
        where, why = problems[0] if problems else (path, "no kernel")
        raise Error(first_status if first_status != _OK else _ERR_FORMAT, where, reason=why)
    return BinaryRead(tuple(kernels), entries, compressed, read, failed, first_entry, first_failure, tuple(problems))
