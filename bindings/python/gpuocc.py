"""gpuocc from Python, through ctypes: exact GPU occupancy and compiler-output reading.

    import gpuocc
    dev = gpuocc.device("H100")
    r = gpuocc.occupancy(dev, gpuocc.kernel(threads=256, regs=64))
    r.blocks_per_sm, r.occupancy, gpuocc.limiter_names(r.limiters)

The shared library is found through $GPUOCC_LIBRARY, then the system's library path (libgpuocc.so).
Errors raise gpuocc.Error with the library's status code and text.  Structures mirror include/gpuocc.h.
"""
import ctypes
import ctypes.util
import os

__all__ = ["Error", "Device", "Kernel", "Result", "CompiledKernel", "WavesResult", "device", "devices", "kernel",
           "occupancy", "limits", "best_block", "smem_dynamic_available", "regs_max_for_blocks",
           "warps_needed", "waves", "read_ptxas", "read_cubin", "limiter_names", "version", "library"]

c_i32, c_u32, c_i64, c_u64, c_dbl = ctypes.c_int32, ctypes.c_uint32, ctypes.c_int64, ctypes.c_uint64, ctypes.c_double
P = ctypes.POINTER

RESOURCES = ("warps", "registers", "shared_memory", "blocks", "barriers")
UNLIMITED = -1
CARVEOUT_DEFAULT = -1


class Device(ctypes.Structure):
    _fields_ = [("size", c_u32), ("vendor", c_u32), ("cc_major", c_i32), ("cc_minor", c_i32),
                ("sm_count", c_i32), ("warp_size", c_i32), ("max_threads_per_block", c_i32),
                ("max_threads_per_sm", c_i32), ("max_blocks_per_sm", c_i32), ("regs_per_sm", c_i32),
                ("regs_per_block", c_i32), ("regs_per_thread_max", c_i32), ("reg_alloc_unit", c_i32),
                ("sub_partitions", c_i32), ("reg_compat_sub_partitions", c_i32), ("barriers_per_sm", c_i32),
                ("smem_per_sm_bytes", c_i64), ("smem_per_block_bytes", c_i64),
                ("smem_per_block_optin_bytes", c_i64), ("smem_reserved_per_block_bytes", c_i64),
                ("smem_alloc_unit_bytes", c_i32), ("carveout_count", c_i32), ("carveouts_kib", c_i32 * 16),
                ("reserved", c_u64 * 8)]


class Kernel(ctypes.Structure):
    _fields_ = [("size", c_u32), ("threads_per_block", c_i32), ("regs_per_thread", c_i32), ("barriers", c_i32),
                ("smem_static_bytes", c_i64), ("smem_dynamic_bytes", c_i64), ("carveout_percent", c_i32),
                ("smem_optin", c_i32), ("smem_dynamic_max_bytes", c_i64), ("max_threads_per_block", c_i32),
                ("reserved0", c_i32), ("reserved", c_u64 * 4)]


class Result(ctypes.Structure):
    _fields_ = [("size", c_u32), ("limiters", c_u32), ("blocks_per_sm", c_i32), ("warps_per_sm", c_i32),
                ("max_warps_per_sm", c_i32), ("warps_per_block", c_i32), ("occupancy", c_dbl),
                ("limit_warps", c_i32), ("limit_regs", c_i32), ("limit_smem", c_i32), ("limit_blocks", c_i32),
                ("limit_barriers", c_i32), ("regs_per_block", c_i32), ("smem_per_block_bytes", c_i64),
                ("smem_per_sm_bytes", c_i64), ("reserved", c_u64 * 4)]


class CompiledKernel(ctypes.Structure):
    _fields_ = [("name_offset", c_u64), ("name_length", c_u64), ("short_offset", c_u64), ("short_length", c_u64),
                ("cc", c_i32), ("registers", c_i32), ("barriers", c_i32), ("line", c_i32),
                ("smem_bytes", c_i64), ("cmem_bytes", c_i64), ("stack_frame_bytes", c_i64),
                ("spill_store_bytes", c_i64), ("spill_load_bytes", c_i64), ("lmem_bytes", c_i64),
                ("max_threads_per_block", c_i32), ("min_blocks_per_sm", c_i32), ("max_regs_per_thread", c_i32),
                ("max_blocks_per_cluster", c_i32), ("cluster_x", c_i32), ("cluster_y", c_i32),
                ("cluster_z", c_i32), ("reserved0", c_i32), ("reserved", c_u64 * 2)]


class WavesResult(ctypes.Structure):
    _fields_ = [("size", c_u32), ("reserved0", c_i32), ("blocks_per_wave", c_i64), ("full_waves", c_i64),
                ("waves", c_i64), ("last_wave_blocks", c_i64), ("last_wave_utilization", c_dbl),
                ("efficiency", c_dbl), ("grid_down", c_i64), ("grid_up", c_i64), ("reserved", c_u64 * 4)]


# Every symbol this module calls, with its C signature.
_SIGNATURES = {
    "gpuocc_strerror": (ctypes.c_char_p, [c_i32]),
    "gpuocc_status_name": (ctypes.c_char_p, [c_i32]),
    "gpuocc_version_string": (ctypes.c_char_p, []),
    "gpuocc_resource_name": (ctypes.c_char_p, [c_i32]),
    "gpuocc_device_lookup": (c_i32, [ctypes.c_char_p, P(Device)]),
    "gpuocc_device_validate": (c_i32, [P(Device)]),
    "gpuocc_catalog_count": (c_i32, []),
    "gpuocc_catalog_kind": (c_i32, [c_i32]),
    "gpuocc_catalog_name": (ctypes.c_char_p, [c_i32]),
    "gpuocc_catalog_source": (ctypes.c_char_p, [c_i32]),
    "gpuocc_kernel_init": (c_i32, [P(Kernel)]),
    "gpuocc_occupancy": (c_i32, [P(Device), P(Kernel), P(Result)]),
    "gpuocc_limit_warps": (c_i32, [P(Device), c_i32, P(c_i32)]),
    "gpuocc_limit_registers": (c_i32, [P(Device), c_i32, c_i32, P(c_i32)]),
    "gpuocc_limit_shared_memory": (c_i32, [P(Device), P(Kernel), P(c_i32)]),
    "gpuocc_limit_blocks": (c_i32, [P(Device), P(c_i32)]),
    "gpuocc_limit_barriers": (c_i32, [P(Device), c_i32, P(c_i32)]),
    "gpuocc_best_block_affine": (c_i32, [P(Device), P(Kernel), c_i64, c_i64, P(c_i32), P(c_i32)]),
    "gpuocc_smem_dynamic_available": (c_i32, [P(Device), P(Kernel), c_i32, P(c_i64)]),
    "gpuocc_regs_max_for_blocks": (c_i32, [P(Device), P(Kernel), c_i32, P(c_i32)]),
    "gpuocc_warps_needed": (c_i32, [c_dbl, c_dbl, c_dbl, P(c_dbl)]),
    "gpuocc_waves": (c_i32, [c_i64, c_i32, c_i32, P(WavesResult)]),
    "gpuocc_ptxas_parse": (c_i32, [ctypes.c_char_p, ctypes.c_size_t, P(CompiledKernel), c_i32, P(c_i32),
                                   P(c_i32)]),
    "gpuocc_cubin_read": (c_i32, [ctypes.c_char_p, ctypes.c_size_t, P(CompiledKernel), c_i32, P(c_i32)]),
}


def _open(path=None):
    path = path or os.environ.get("GPUOCC_LIBRARY") or ctypes.util.find_library("gpuocc")
    if not path:
        raise OSError("libgpuocc not found: install it or set GPUOCC_LIBRARY to its path")
    lib = ctypes.CDLL(path)
    for name, (restype, argtypes) in _SIGNATURES.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes
    return lib


library = _open()


class Error(Exception):
    """A gpuocc status code other than GPUOCC_OK: .code (negative), .name ("threads", ...), and the text."""

    def __init__(self, code, where=""):
        self.code = code
        self.name = library.gpuocc_status_name(code).decode()
        text = library.gpuocc_strerror(code).decode()
        super().__init__(f"{where}: {text}" if where else text)


def _check(code, where=""):
    if code != 0:
        raise Error(code, where)


def version():
    return library.gpuocc_version_string().decode()


def device(name):
    """A built-in architecture ("sm_90", "9.0") or product ("H100", "RTX 4090")."""
    d = Device(size=ctypes.sizeof(Device))
    _check(library.gpuocc_device_lookup(name.encode(), ctypes.byref(d)), name)
    return d


def devices():
    """The built-in table: a list of (name, "arch" or "product", sources)."""
    kinds = {1: "arch", 2: "product"}
    return [(library.gpuocc_catalog_name(i).decode(), kinds.get(library.gpuocc_catalog_kind(i), "?"),
             library.gpuocc_catalog_source(i).decode()) for i in range(library.gpuocc_catalog_count())]


def kernel(threads, regs=0, smem_static=0, smem_dynamic=0, barriers=1, carveout=CARVEOUT_DEFAULT, optin=True,
           max_threads=0):
    """A kernel and its launch: threads per block, registers per thread, shared memory in bytes."""
    k = Kernel()
    _check(library.gpuocc_kernel_init(ctypes.byref(k)))
    k.threads_per_block, k.regs_per_thread, k.barriers = threads, regs, barriers
    k.smem_static_bytes, k.smem_dynamic_bytes = smem_static, smem_dynamic
    k.carveout_percent, k.smem_optin, k.max_threads_per_block = carveout, int(optin), max_threads
    return k


def occupancy(dev, kern):
    r = Result(size=ctypes.sizeof(Result))
    _check(library.gpuocc_occupancy(ctypes.byref(dev), ctypes.byref(kern), ctypes.byref(r)), "occupancy")
    return r


def limiter_names(mask):
    return [name for i, name in enumerate(RESOURCES) if mask & (1 << i)]


def limits(dev, kern):
    """Blocks per SM that each resource alone allows (None: that resource cannot limit)."""
    out, b = {}, c_i32()
    calls = {
        "warps": lambda: library.gpuocc_limit_warps(ctypes.byref(dev), kern.threads_per_block, ctypes.byref(b)),
        "registers": lambda: library.gpuocc_limit_registers(ctypes.byref(dev), kern.threads_per_block,
                                                            kern.regs_per_thread, ctypes.byref(b)),
        "shared_memory": lambda: library.gpuocc_limit_shared_memory(ctypes.byref(dev), ctypes.byref(kern),
                                                                    ctypes.byref(b)),
        "blocks": lambda: library.gpuocc_limit_blocks(ctypes.byref(dev), ctypes.byref(b)),
        "barriers": lambda: library.gpuocc_limit_barriers(ctypes.byref(dev), kern.barriers, ctypes.byref(b)),
    }
    for name, call in calls.items():
        _check(call(), name)
        out[name] = None if b.value == UNLIMITED else b.value
    return out


def best_block(dev, kern, smem_base=0, smem_per_thread=0):
    """(threads per block, minimum grid) with the most resident threads; dynamic shared memory
    smem_base + smem_per_thread x block size."""
    t, g = c_i32(), c_i32()
    _check(library.gpuocc_best_block_affine(ctypes.byref(dev), ctypes.byref(kern), smem_base, smem_per_thread,
                                            ctypes.byref(t), ctypes.byref(g)), "best_block")
    return t.value, g.value


def smem_dynamic_available(dev, kern, blocks):
    v = c_i64()
    _check(library.gpuocc_smem_dynamic_available(ctypes.byref(dev), ctypes.byref(kern), blocks, ctypes.byref(v)),
           "smem_dynamic_available")
    return v.value


def regs_max_for_blocks(dev, kern, blocks):
    v = c_i32()
    _check(library.gpuocc_regs_max_for_blocks(ctypes.byref(dev), ctypes.byref(kern), blocks, ctypes.byref(v)),
           "regs_max_for_blocks")
    return v.value


def warps_needed(latency_cycles, throughput_per_cycle, ilp=1.0):
    """Little's law: warps that keep latency x throughput instructions in flight."""
    v = c_dbl()
    _check(library.gpuocc_warps_needed(latency_cycles, throughput_per_cycle, ilp, ctypes.byref(v)), "warps_needed")
    return v.value


def waves(grid_blocks, sm_count, blocks_per_sm):
    w = WavesResult(size=ctypes.sizeof(WavesResult))
    _check(library.gpuocc_waves(grid_blocks, sm_count, blocks_per_sm, ctypes.byref(w)), "waves")
    return w


_RECORD_FIELDS = [name for name, _ in CompiledKernel._fields_
                  if not name.startswith(("reserved", "name_", "short_"))]


def _records(reader, data, *extra):
    count = c_i32()
    code = reader(data, len(data), None, 0, ctypes.byref(count), *extra)
    if code not in (0, -19):  # GPUOCC_ERR_BUFFER: only the count was asked for
        return code, []
    array = (CompiledKernel * max(count.value, 1))()
    code = reader(data, len(data), array, count.value, ctypes.byref(count), *extra)
    rows = []
    for k in array[:count.value]:
        row = {"name": data[k.name_offset:k.name_offset + k.name_length].decode(errors="replace"),
               "short_name": data[k.short_offset:k.short_offset + k.short_length].decode(errors="replace")}
        row.update({name: getattr(k, name) for name in _RECORD_FIELDS})
        rows.append(row)
    return code, rows


def read_ptxas(text):
    """Kernels of a ptxas -v report or a whole build log (str or bytes): a list of dicts."""
    data = text.encode() if isinstance(text, str) else bytes(text)
    line = c_i32()
    code, rows = _records(library.gpuocc_ptxas_parse, data, ctypes.byref(line))
    _check(code, f"line {line.value}")
    return rows


def read_cubin(data):
    """Kernels of a cubin, an uncompressed fatbinary or a CUDA host object (bytes): a list of dicts."""
    code, rows = _records(library.gpuocc_cubin_read, bytes(data))
    _check(code, "cubin")
    return rows
