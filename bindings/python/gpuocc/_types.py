"""The Python side's types: the inputs (Device, Kernel and kernel()) and every result, frozen dataclasses
built from their C structs by _from_c(), and Columns, the answer of a call over many launches.
Imports _library only."""
from __future__ import annotations

import ctypes
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Iterator, Optional, Tuple

from ._library import (CARVEOUT_DEFAULT, INPUT_NAMES, Error, _CDevice, _CKernel, _CPrepared, _ERR_ARGUMENT, _OK, _RESULT_UNPACK,
                       _VENDOR_AMD, _c, _call, _flag, _from_c, _i32, _int, _unlimited, c_i32, c_i64, c_u32, library)

# The fast path builds frozen dataclasses without their __init__ (whose per-field checks and frozen
# __setattr__ cost microseconds): a bare instance, its fields written into its __dict__ at once.  Values so
# built come from the library (in range by construction) or passed the same checks inline.
_new = object.__new__
_set = object.__setattr__


def _private_state(obj: Any) -> dict:
    """What pickle and copy keep of a Device or Kernel: its fields, not the C structs cached beside them."""
    return {k: v for k, v in obj.__dict__.items() if not k.startswith("_")}


# ======================================================================================================
# Devices and kernels (inputs)
# ======================================================================================================
_DEVICE_INT64 = {"smem_per_sm_bytes", "smem_per_block_bytes", "smem_per_block_optin_bytes",
                 "smem_reserved_per_block_bytes"}


@dataclass(frozen=True)
class Device:
    """A GPU as the occupancy rules see it (C: gpuocc_device; fields keep the C names).

    From the built-in table with device("H100"), or described by hand with custom_device(...) or
    dataclasses.replace(device("H100"), sm_count=100).  carveouts_kib lists the supported shared-memory
    sizes per SM in KiB, ascending (C: carveouts_kib[0 .. carveout_count - 1]); () = fixed."""
    vendor: int
    cc_major: int
    cc_minor: int
    sm_count: int
    warp_size: int
    max_threads_per_block: int
    max_threads_per_sm: int
    max_blocks_per_sm: int
    regs_per_sm: int
    regs_per_block: int
    regs_per_thread_max: int
    reg_alloc_unit: int
    sub_partitions: int
    reg_compat_sub_partitions: int
    barriers_per_sm: int
    smem_per_sm_bytes: int
    smem_per_block_bytes: int
    smem_per_block_optin_bytes: int
    smem_reserved_per_block_bytes: int
    smem_alloc_unit_bytes: int
    carveouts_kib: tuple = ()
    # AMD (vendor 2), 0 for NVIDIA: the C fields of the same names (docs/amd.md)
    simds_per_cu: int = 0
    waves_per_simd: int = 0
    runtime_waves_per_simd: int = 0
    vgprs_per_simd: int = 0
    vgpr_granule: int = 0
    runtime_vgpr_granule: int = 0
    runtime_vgprs_legacy: int = 0
    runtime_vgpr_granule_legacy: int = 0
    agpr_file: int = 0
    sgprs_per_simd: int = 0
    cus_per_wgp: int = 0
    wave_sizes: int = 0
    # Intel (docs/intel.md): sm_count is Xe-cores, smem_per_sm / smem_per_block the SLM per Xe-core / work-group
    xves_per_xecore: int = 0
    threads_per_xve: int = 0
    sub_group_sizes: int = 0                     # OR of 8, 16, 32
    grf_max: int = 0
    grf_table: int = 0
    runtime_barriers_per_xecore: int = 0
    slm_sizes_kib: tuple = ()                    # the calculator's work-group SLM sizes, ascending
    runtime_slm_sizes_kib: tuple = ()            # the runtime's
    # NVIDIA: virtual resources per SM (128 on cc 10.x-12.x; 0: none, a kernel's never limit)
    virtual_resources_per_sm: int = 0
    barriers_per_block_max: int = 0              # NVIDIA: 16 (0 means the same); AMD and Intel: 0
    tmem_columns_per_sm: int = 0                 # NVIDIA: tensor-memory columns per SM (512 on sm_100/103/110)

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name in ("slm_sizes_kib", "runtime_slm_sizes_kib"):
                if not isinstance(value, (tuple, list)) or len(value) > 16:
                    raise TypeError(f"{f.name} must be a tuple of at most 16 ints")
                object.__setattr__(self, f.name, tuple(_i32(v, f.name + "[]") for v in value))
            elif f.name == "carveouts_kib":
                if not isinstance(value, (tuple, list)):
                    raise TypeError(f"carveouts_kib must be a tuple of ints, not {type(value).__name__}")
                if len(value) > 16:
                    raise Error(_ERR_ARGUMENT, f"carveouts_kib has {len(value)} entries, at most 16")
                object.__setattr__(self, f.name, tuple(_i32(v, "carveouts_kib[]") for v in value))
            elif f.name == "vendor":
                _int(value, f.name, c_u32)
            else:
                _int(value, f.name, c_i64 if f.name in _DEVICE_INT64 else c_i32)

    __getstate__ = _private_state

    def _c_struct(self) -> _CDevice:
        """The C device, built once and kept with the object (read-only to every caller)."""
        d = self.__dict__.get("_c")
        if d is None:
            d = self._to_c()
            self.__dict__["_c"] = d
        return d

    def _prepared(self) -> _CPrepared:
        """The prepared device (gpuocc_prepare), built once; gpuocc.Error when the library refuses the device
        (that answer is kept too: a Device never changes)."""
        p = self.__dict__.get("_prep")
        if p is None:
            p = _CPrepared(size=ctypes.sizeof(_CPrepared))
            status = library.gpuocc_prepare(ctypes.byref(self._c_struct()), ctypes.byref(p))
            p = p if status == _OK else status
            self.__dict__["_prep"] = p
        if type(p) is int:
            raise Error(p, "device")
        return p

    def _to_c(self) -> _CDevice:
        d = _CDevice()
        _call("gpuocc_device_init", ctypes.byref(d))
        for f in dataclasses.fields(self):
            if f.name not in ("carveouts_kib", "slm_sizes_kib", "runtime_slm_sizes_kib"):
                setattr(d, f.name, getattr(self, f.name))
        for name in ("slm_sizes_kib", "runtime_slm_sizes_kib"):
            for i, kib in enumerate(getattr(self, name)):
                getattr(d, name)[i] = kib
        d.carveout_count = len(self.carveouts_kib)
        for i, kib in enumerate(self.carveouts_kib):
            d.carveouts_kib[i] = kib
        return d

    @classmethod
    def _from_c(cls, d: _CDevice) -> "Device":
        """A Device of the library's own struct (a lookup, the catalog): its values are in range, so no
        field checks; the struct is kept as the Device's C device."""
        count = max(0, min(d.carveout_count, 16))
        dev = _new(cls)
        values = {name: getattr(d, name) for name in _DEVICE_C_FIELDS}
        values["carveouts_kib"] = tuple(d.carveouts_kib[:count])
        for name in ("slm_sizes_kib", "runtime_slm_sizes_kib"):
            values[name] = tuple(v for v in getattr(d, name) if v > 0)
        dev.__dict__.update(values)
        dev.__dict__["_c"] = d
        return dev


_DEVICE_C_FIELDS = tuple(f.name for f in dataclasses.fields(Device)
                         if f.name not in ("carveouts_kib", "slm_sizes_kib", "runtime_slm_sizes_kib"))


@dataclass(frozen=True)
class CatalogEntry:
    """One entry of the built-in table: name, kind ("arch": a compute capability without an SM count,
    or "product"), and the sources of its values."""
    index: int
    name: str
    kind: str
    source: str


@dataclass(frozen=True)
class Kernel:
    """A kernel and its launch (C: gpuocc_kernel).  Make one with kernel(...); change one with
    dataclasses.replace(k, regs=32).  Units: threads per block, registers per thread, bytes."""
    threads: int = _c("threads_per_block", default=1)          # launch block size (x*y*z)
    regs: int = _c("regs_per_thread", default=0)                # as ptxas reports ("Used N registers")
    smem_static: int = _c("smem_static_bytes", default=0)       # __shared__ arrays, bytes
    smem_dynamic: int = _c("smem_dynamic_bytes", default=0)     # the launch's dynamic shared memory, bytes
    barriers: int = 1                                           # block barriers (1 for __syncthreads)
    carveout: int = _c("carveout_percent", default=CARVEOUT_DEFAULT)  # 0..100 % or -1: driver default
    smem_optin: bool = True                                     # the 48 KiB per-block limit was raised
    smem_dynamic_max: int = _c("smem_dynamic_max_bytes", default=-1)  # opt-in attribute; -1: the most
    max_threads: int = _c("max_threads_per_block", default=0)   # the kernel's largest block; 0: none
    # AMD only (docs/amd.md): regs are arch VGPRs, smem_* LDS
    agprs: int = 0                                              # AGPRs per lane
    sgprs: int = 0                                              # SGPRs per wave; 0: unknown, no limit
    wave_size: int = 0                                          # 32 or 64; 0: the device's default
    cu_mode: int = 0                                            # 1: compiled with -mcumode
    model: Optional[str] = None                                 # "compiler" (None: today's LLVM), "llvm19" or "runtime" (HIP's)
    rocm: Optional[str] = None                                  # with model "runtime": "6.2"; None: the newest
    # Intel only (docs/intel.md): threads are work-items per work-group, smem_* SLM, regs unused
    sub_group: int = 0                                          # 8, 16 or 32; 0: the device's default (16)
    grf: int = 0                                                # GRF registers per hardware thread; 0: 128
    # NVIDIA only: virtual resources per block (as CUDA 13 reports them; they limit on cc 10.x-12.x)
    virtual_resources: int = 0
    # NVIDIA only: tensor-memory columns a block holds (tcgen05.alloc; 0 or a power of two 32-512; sm_100/103/110)
    tmem_columns: int = 0
    # AMD only: gfx12 dynamic-VGPR block size, 16 or 32 (wave32, the compiler's model); 0: off
    dvgpr: int = 0
    # AMD only, how LLVM compiled the kernel: the trap handler (0: the target's default, on; 1 on; -1 off),
    # amdgpu_waves_per_eu(MIN, MAX) and the flat workgroup size minimum (max_threads its maximum); 0: unset
    trap_handler: int = 0
    waves_per_eu_min: int = 0
    waves_per_eu_max: int = 0
    flat_workgroup_size_min: int = 0

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "smem_optin":
                object.__setattr__(self, f.name, bool(_flag(value, f.name)))
            elif f.name == "model":
                _model_number(value)
            elif f.name == "rocm":
                object.__setattr__(self, f.name, _rocm_text(value))
            else:
                _int(value, f.name, _CKernel._fields_dict[f.metadata.get("c", f.name)])
        # rocm without model "runtime" is refused by the call, as the library refuses it (exceeded "rocm")

    __getstate__ = _private_state

    def _cached(self) -> tuple:
        """(C kernel, the first AMD-only field set away from its default or None, the same for NVIDIA-only),
        built once and kept with the object."""
        c = self.__dict__.get("_c")
        if c is None:
            amd_set = next((name for name, default in _AMD_ONLY if getattr(self, name) != default), None)
            nv_set = next((name for name, default in _NVIDIA_ONLY if getattr(self, name) != default), None)
            c = (self._to_c(), amd_set, nv_set)
            self.__dict__["_c"] = c
        return c

    def _to_c(self) -> _CKernel:
        k = _CKernel()
        _call("gpuocc_kernel_init", ctypes.byref(k))
        for f in dataclasses.fields(self):
            if f.name not in ("model", "rocm"):
                setattr(k, f.metadata.get("c", f.name), int(getattr(self, f.name)))
        k.model = _model_number(self.model)
        k.rocm_version = _rocm_number(self.rocm)
        return k


# `model` as the CLI, CSV and JSON write it (GPUOCC_MODEL_*: 0 the default, the compiler's)
_MODELS = {"compiler": 1, "runtime": 2, "calculator": 3, "llvm19": 5}  # Intel's runtime (4): gpuocc_intel_model


def _model_number(value: Any) -> int:
    if value is None:
        return 0
    if not isinstance(value, str):
        raise TypeError(f"model must be a str ('compiler', 'llvm19', 'calculator' or 'runtime') or None, "
                        f"not {type(value).__name__}")
    if value not in _MODELS:
        raise Error(_ERR_ARGUMENT, f"model={value!r}: expected 'compiler', 'llvm19', 'calculator' or 'runtime'")
    return _MODELS[value]


_MODEL_NAMES = {number: name for name, number in _MODELS.items()}
_MODEL_NAMES[4] = "runtime"  # GPUOCC_MODEL_INTEL_RUNTIME


def _model_name(number: int) -> Optional[str]:
    """gpuocc_result.model as a name: None for NVIDIA (0)."""
    return _MODEL_NAMES.get(number)


def _rocm_text(value: Any) -> Optional[str]:
    """A ROCm release "MAJOR.MINOR" (1-99, 0-99), as `gpuocc report --rocm` takes it; None: the newest."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"rocm must be a str such as '6.2', or None, not {type(value).__name__}")
    major, dot, minor = value.partition(".")
    if not (dot and major.isdigit() and minor.isdigit() and major.isascii() and minor.isascii()
            and 1 <= int(major) <= 99 and int(minor) <= 99):
        raise Error(_ERR_ARGUMENT, f"rocm={value!r}: expected a ROCm release MAJOR.MINOR such as '6.2' or '7.0'")
    return f"{int(major)}.{int(minor)}"


def _rocm_number(text: Optional[str]) -> int:
    if text is None:
        return 0
    major, _, minor = text.partition(".")
    return int(major) * 100 + int(minor)


_CKernel._fields_dict = dict(_CKernel._fields_)  # type: ignore[attr-defined]

# the kernel fields only one vendor's rules read, and their defaults
_AMD_ONLY = (("agprs", 0), ("sgprs", 0), ("wave_size", 0), ("cu_mode", 0), ("model", None), ("rocm", None),
             ("dvgpr", 0), ("trap_handler", 0), ("waves_per_eu_min", 0), ("waves_per_eu_max", 0),
             ("flat_workgroup_size_min", 0))
_NVIDIA_ONLY = (("barriers", 1), ("carveout", CARVEOUT_DEFAULT), ("smem_optin", True), ("smem_dynamic_max", -1),
                ("virtual_resources", 0), ("tmem_columns", 0))
_I32_MIN, _I32_MAX, _I64_MIN, _I64_MAX = -(1 << 31), (1 << 31) - 1, -(1 << 63), (1 << 63) - 1


def kernel(threads: int, regs: int = 0, smem_static: int = 0, smem_dynamic: int = 0, barriers: int = 1,
           carveout: int = CARVEOUT_DEFAULT, smem_optin: bool = True, smem_dynamic_max: int = -1,
           max_threads: int = 0, **amd: Any) -> Kernel:
    """A kernel and its launch: `threads` per block, `regs` registers per thread (ptxas's "Used N
    registers"), shared memory in bytes (`smem_static`: __shared__ arrays; `smem_dynamic`: the launch's),
    `barriers` per block, `carveout` the preferred shared-memory carveout in percent (-1: the driver's
    default), `smem_optin` (default True: a kernel asking for more than 48 KiB has raised its limit),
    `smem_dynamic_max` the opt-in attribute's value (-1: the device's most), `max_threads` the
    kernel's largest block (0: none; NVIDIA's __launch_bounds__, AMD's flat workgroup size maximum,
    Intel's max_work_group_size).  AMD kernels take the keywords agprs, sgprs, wave_size, cu_mode,
    model ("compiler", the default: today's LLVM; "llvm19": LLVM 19's; or "runtime"), rocm ("6.2": with model
    "runtime", HIP's rules as of that ROCm release; None: the newest), trap_handler (-1: compiled without it;
    0: the target's default, on; 1 on), waves_per_eu_min / waves_per_eu_max (amdgpu_waves_per_eu; 0: unset)
    and flat_workgroup_size_min (with max_threads the flat workgroup range; 0: 1), as the CLI's flags and
    batch's columns (docs/amd.md).  Intel
    kernels take sub_group (8, 16, 32), grf (128, 256, or a count of the Xe3 table) and model
    ("calculator", the default, or "runtime": the compute runtime's count), and `smem_*` are the SLM.

    Raises TypeError for a non-int, gpuocc.Error "argument" for a value that does not fit its C type.
    The library checks the ranges when the kernel is used (gpuocc.Error "threads", "smem", ...)."""
    # the common case without the dataclass __init__: plain ints in range and a bool (as its checks accept)
    if (not amd and type(threads) is int and type(regs) is int and type(smem_static) is int
            and type(smem_dynamic) is int and type(barriers) is int and type(carveout) is int
            and type(smem_dynamic_max) is int and type(max_threads) is int and type(smem_optin) is bool
            and _I32_MIN <= threads <= _I32_MAX and _I32_MIN <= regs <= _I32_MAX
            and _I32_MIN <= barriers <= _I32_MAX and _I32_MIN <= carveout <= _I32_MAX
            and _I32_MIN <= max_threads <= _I32_MAX and _I64_MIN <= smem_static <= _I64_MAX
            and _I64_MIN <= smem_dynamic <= _I64_MAX and _I64_MIN <= smem_dynamic_max <= _I64_MAX):
        k = _new(Kernel)
        k.__dict__.update(threads=threads, regs=regs, smem_static=smem_static, smem_dynamic=smem_dynamic,
                          barriers=barriers, carveout=carveout, smem_optin=smem_optin,
                          smem_dynamic_max=smem_dynamic_max, max_threads=max_threads, agprs=0, sgprs=0,
                          wave_size=0, cu_mode=0, model=None, rocm=None)
        return k
    return Kernel(threads=threads, regs=regs, smem_static=smem_static, smem_dynamic=smem_dynamic,
                  barriers=barriers, carveout=carveout, smem_optin=smem_optin,
                  smem_dynamic_max=smem_dynamic_max, max_threads=max_threads, **amd)


# ======================================================================================================
# Occupancy and searches: results
# ======================================================================================================
# GPUOCC_RESOURCE_* order; "sgprs" limits AMD gfx6-9 only
RESOURCES = ("warps", "registers", "shared_memory", "blocks", "barriers", "sgprs")


# The names of GPUOCC_LIMIT_*'s bits: RESOURCES, AMD's AGPRs (a step's input, never a limiter), NVIDIA's
# virtual resources (GPUOCC_RESOURCE_VIRTUAL, 7)
_LIMITER_BITS = RESOURCES + ("agprs", "virtual_resources")


def limiter_names(mask: int) -> tuple:
    """The resource names of a GPUOCC_LIMIT_* bit mask, in bit order (RESOURCES, then virtual_resources)."""
    return tuple(name for i, name in enumerate(_LIMITER_BITS) if mask & (1 << i))


@dataclass(frozen=True)
class Result:
    """Blocks per SM and why (C: gpuocc_result; names as `gpuocc batch` prints them).

    limiters: the resources whose limit equals blocks_per_sm; limit_*: blocks per SM each resource
    alone allows, None where it cannot limit; occupancy = warps_per_sm / max_warps_per_sm (0..1)."""
    blocks_per_sm: int
    warps_per_sm: int
    occupancy: float
    limiters: tuple = _c(from_c=limiter_names)
    limit_warps: Optional[int] = _c(from_c=_unlimited)
    limit_regs: Optional[int] = _c(from_c=_unlimited)
    limit_smem: Optional[int] = _c(from_c=_unlimited)
    limit_blocks: Optional[int] = _c(from_c=_unlimited)
    limit_barriers: Optional[int] = _c(from_c=_unlimited)
    regs_per_block: int = 0
    smem_per_block: int = _c("smem_per_block_bytes", default=0)   # bytes, the reserved part included
    max_warps_per_sm: int = 0
    warps_per_block: int = 0
    smem_per_sm: int = _c("smem_per_sm_bytes", default=0)         # bytes: the carveout configured
    model: Optional[str] = _c(from_c=_model_name, default=None)   # AMD: "compiler" or "runtime"; None NVIDIA
    waves_per_simd: Optional[int] = None                          # AMD: LLVM's occupancy (waves per SIMD)
    limit_sgprs: Optional[int] = _c(from_c=_unlimited, default=None)  # AMD: blocks the SGPRs allow
    # Intel, on a device with an Xe-core count (sm_count): work-groups on the whole GPU; None elsewhere (NVIDIA,
    # AMD, a bare architecture such as pvc), as `gpuocc report --json` and `gpuocc batch --json` give null
    workgroups_per_gpu: Optional[int] = None
    limit_virtual_resources: Optional[int] = _c(from_c=_unlimited, default=None)  # NVIDIA cc 10.x-12.x
    # blocks_per_sm 0 because one input is over a limit: its name ("threads", "regs", "smem_dynamic"...) and
    # the limit's value, as the library names them (gpuocc_result.exceeded); else None
    exceeded: Optional[str] = _c(from_c=lambda code: INPUT_NAMES[code] or None if 0 <= code < len(INPUT_NAMES) else None,
                                 default=None)
    exceeded_limit: Optional[int] = None


_LIMITERS = tuple(limiter_names(mask) for mask in range(1 << len(RESOURCES)))
_result_values = _RESULT_UNPACK.unpack_from


def _result(r: Any, gpu_wide: bool = False) -> Result:
    """Result of a filled gpuocc_result, in one unpack and one __dict__ update (what _from_c does field by
    field: the limiters' names, None for no limit, AMD's fields None on NVIDIA).  gpu_wide: the device is
    Intel's with an Xe-core count, where workgroups_per_gpu is a count (the C struct's 0 elsewhere is None,
    the CLI's null)."""
    (limiters, blocks, warps, max_warps, warps_per_block, occupancy, limit_warps, limit_regs, limit_smem,
     limit_blocks, limit_barriers, regs_per_block, smem_per_block, smem_per_sm, model, waves,
     limit_sgprs, workgroups, limit_virtual, exceeded, exceeded_limit) = _result_values(r)
    res = _new(Result)
    _set(res, "__dict__", {
        "blocks_per_sm": blocks, "warps_per_sm": warps, "occupancy": occupancy,
        "limiters": _LIMITERS[limiters] if limiters < len(_LIMITERS) else limiter_names(limiters),
        "limit_warps": None if limit_warps == -1 else limit_warps,
        "limit_regs": None if limit_regs == -1 else limit_regs, "limit_smem": None if limit_smem == -1 else limit_smem,
        "limit_blocks": None if limit_blocks == -1 else limit_blocks,
        "limit_barriers": None if limit_barriers == -1 else limit_barriers, "regs_per_block": regs_per_block,
        "smem_per_block": smem_per_block, "max_warps_per_sm": max_warps, "warps_per_block": warps_per_block,
        "smem_per_sm": smem_per_sm, "model": _MODEL_NAMES.get(model) if model else None,
        "waves_per_simd": waves if model in (1, 2, 5) else None,  # AMD's models only
        "limit_sgprs": None if limit_sgprs == -1 else limit_sgprs, "workgroups_per_gpu": workgroups if gpu_wide else None,
        "limit_virtual_resources": None if limit_virtual == -1 else limit_virtual,
        "exceeded": INPUT_NAMES[exceeded] if 0 < exceeded < len(INPUT_NAMES) else None,
        "exceeded_limit": exceeded_limit if 0 < exceeded < len(INPUT_NAMES) else None})
    return res


@dataclass(frozen=True)
class Limits:
    """Blocks per SM each resource alone allows; None where it cannot limit (sgprs: AMD gfx6-9 only)."""
    warps: Optional[int]
    registers: Optional[int]
    shared_memory: Optional[int]
    blocks: Optional[int]
    barriers: Optional[int]
    sgprs: Optional[int] = None


@dataclass(frozen=True)
class BestBlock:
    """The block size with the most resident threads (the largest on ties); threads == 0 when none can
    run.  min_grid = blocks per SM x SMs (0 for a bare architecture)."""
    threads: int
    min_grid: int


@dataclass(frozen=True)
class NextStep:
    """For one resource: the demand at which it alone allows one block more (new_value: registers per
    thread, shared memory per block in bytes, threads per block or barriers), and how much to shed."""
    resource: str
    new_value: int
    shed: int


# The inputs a next step can change, by the GPUOCC_RESOURCE_* they feed: RESOURCES, then AMD's AGPRs
STEP_INPUTS = RESOURCES + ("agprs",)


@dataclass(frozen=True)
class StepChange:
    """One change of a next step: the input named by the resource it feeds (warps = threads per block,
    registers, shared_memory = static + dynamic bytes, barriers, sgprs, agprs), its new value, the cut."""
    resource: str
    new_value: int
    shed: int


@dataclass(frozen=True)
class Step:
    """A next step that holds (gpuocc_next_steps): the kernel with `resource` set to `new_value`, and every
    change of `also` (a joint step, where resources tie), gives exactly `blocks_per_sm`."""
    resource: str
    new_value: int
    shed: int
    blocks_per_sm: int
    also: Tuple[StepChange, ...] = ()


# ======================================================================================================
# Models beyond occupancy: results (docs/models.md)
# ======================================================================================================
@dataclass(frozen=True)
class Cusp:
    """The mix model's worst case: alpha = alu_throughput / mem_throughput, and the warps needed there."""
    alpha: float
    warps: float


@dataclass(frozen=True)
class BytesInFlight:
    """Bytes that must be in flight to saturate a memory level: per SM and device-wide."""
    bytes_per_sm: float
    bytes_device: float


@dataclass(frozen=True)
class BandwidthPrediction:
    """Predicted DRAM bandwidth of a streaming kernel (C: gpuocc_bandwidth_prediction; docs/models.md):
    Little's law with a latency that grows with load."""
    sm_count: int
    bandwidth_gbps: float
    fraction_of_peak: float
    peak_gbps: float
    latency_ns: float
    loaded_latency_ns: float
    bytes_in_flight_per_sm: float
    warps_for_80: float
    warps_for_90: float
    warps_for_95: float
    attainable_gbps: float = 0.0
    bus_bits: float = 0.0
    pin_rate_gbps: float = 0.0
    queue_service_ns: float = 0.0
    fraction_of_attainable: float = 0.0


@dataclass(frozen=True)
class LatencyVerdict:
    """Whether warps_per_sm hide a latency; if not, the extra warps or the ILP that would."""
    hidden: bool = _c(from_c=bool)
    in_flight: float = 0.0
    warps_needed: float = 0.0
    extra_warps: float = 0.0
    ilp_needed: Optional[float] = _c(from_c=lambda v: None if v == float("inf") else v, default=None)


@dataclass(frozen=True)
class Perf:
    """Performance constants of an architecture or product (C: gpuocc_perf); 0 = no published figure."""
    sm_count: int
    sm_clock_mhz: float
    dram_bandwidth_gbps: float
    l2_bandwidth_gbps: float
    latency_clock_mhz: float
    dram_latency_cycles: float
    l2_latency_cycles: float
    l1_latency_cycles: float
    smem_latency_cycles: float
    fp32_latency_cycles: float
    fp32_lanes: float
    issue_per_cycle: float
    bytes_in_flight_target: float
    dram_bus_bits: float = 0.0
    dram_attainable_gbps: float = 0.0
    dram_latency_own: bool = _c(from_c=bool, default=False)
    dram_memory: str = _c(from_c=lambda b: b.decode("ascii"), default="")
    dram_source: str = _c(from_c=lambda b: b.decode("utf-8"), default="")


@dataclass(frozen=True)
class SpillCost:
    """Spill traffic: bytes touched, warp instructions, seconds on issue / L2 / DRAM, the largest."""
    local_bytes: float
    instructions: float
    issue_s: float
    l2_s: float
    dram_s: float
    spill_s: float


@dataclass(frozen=True)
class TradeoffStep:
    """One register cap of the staircase: what it buys (blocks, warps, occupancy) and what the shed
    registers cost if they spill."""
    regs: int = _c("regs_per_thread")
    regs_shed: int = 0
    blocks_per_sm: int = 0
    warps_per_sm: int = 0
    occupancy: float = 0.0
    spill_slowdown: float = 1.0


# gpuocc_cluster_check's verdicts (GPUOCC_CLUSTER_*), by code
CLUSTER_VERDICTS = ("legal", "unsupported", "needs_nonportable", "too_large", "kernel_max", "grid", "unverified")


@dataclass(frozen=True)
class GpcLayout:
    """SMs per GPC: GPC by GPC (exact, sms_per_gpc), or a die's shape and SM count (every layout of sm_count
    SMs in gpc_count GPCs of at most tpcs_per_gpc_max TPCs of sms_per_tpc SMs)."""
    gpc_count: int
    exact: bool
    sm_count: int
    sms_per_tpc: int = 0
    tpcs_per_gpc_max: int = 0
    sms_per_gpc: tuple = ()


@dataclass(frozen=True)
class ClusterResult:
    """Resident clusters of a cluster launch: exact (clusters_exact, clusters_min == clusters_max) for a
    GPC-by-GPC layout, else a bound clusters_min .. clusters_max (clusters_min None: unknown, no layout).
    cluster_blocks_max None: no public source gives the device's maximum (verdict "unverified")."""
    verdict: str
    cluster_blocks: int
    cluster_blocks_max: Optional[int]
    blocks_per_sm: int
    clusters_exact: bool
    gpc_count: int
    clusters_min: Optional[int]
    clusters_max: int


@dataclass(frozen=True)
class Setmaxnreg:
    """The setmaxnreg register pool of a block (C: gpuocc_setmaxnreg_result): the pool is the launch's
    registers x threads; the warpgroups ask sum(target x 128); blocks_per_sm is the launch's occupancy,
    which setmaxnreg does not change; unfixed: the kernel records no fixed register count, so ptxas ignores
    setmaxnreg."""
    fits: bool
    pool_regs: int
    requested_regs: int
    mean_regs_per_thread: float
    blocks_per_sm: int
    warpgroups: int
    unfixed: bool


@dataclass(frozen=True)
class MinBlocks:
    """Whether a launch reaches __launch_bounds__'s minimum of blocks, and the resources preventing it."""
    min_blocks: int
    blocks_per_sm: int
    reached: bool
    preventing: tuple


@dataclass(frozen=True)
class Waves:
    """A grid in waves of blocks_per_wave = SMs x blocks per SM, and its tail."""
    blocks_per_wave: int
    full_waves: int
    waves: int
    last_wave_blocks: int
    last_wave_utilization: float
    efficiency: float
    grid_down: int
    grid_up: int


@dataclass(frozen=True)
class Divergence:
    """A divergent warp: serialized cycles and SIMT efficiency (0..1)."""
    serialized_cycles: float
    simt_efficiency: float


@dataclass(frozen=True)
class Routing:
    """Lanes routed at random to `experts` paths: expected distinct paths per warp and SIMT efficiency,
    unsorted and after sorting the items by path."""
    random_paths: float
    random_efficiency: float
    sorted_paths: float
    sorted_efficiency: float


@dataclass(frozen=True)
class Diagnosis:
    """What a dominant stall reason means at an occupancy, with the keys of `gpuocc diagnose --json`:
    whether more warps are the first thing to try, and the advice (`verdict`)."""
    stall: str
    occupancy: float
    meaning: str
    occupancy_helps: bool
    verdict: str


@dataclass(frozen=True)
class Roofline:
    """Arithmetic intensity (flop/byte), ridge point, attainable flop/s, and whether compute-bound."""
    intensity: float
    ridge: float
    attainable_flops_per_s: float
    compute_bound: bool


# ======================================================================================================
# Compiler output in: results
# ======================================================================================================
def _recorded(v: int) -> Optional[int]:
    """-1 (the input does not record the value) as None, as JSON's null."""
    return None if v == -1 else v


def _sm(cc: int, variant: int = 0) -> Optional[str]:
    """The target a record names: "sm_90", or with its arch_variant ('a', 'f') "sm_90a", "sm_100f"; None for cc 0."""
    if cc <= 0:
        return None
    return f"sm_{cc}{chr(variant)}" if variant in (ord("a"), ord("f")) else f"sm_{cc}"


def _recorded_c(c: str) -> Any:
    return _c(c, from_c=_recorded, default=None)


@dataclass(frozen=True)
class CompiledKernel:
    """One kernel as its compiler left it (C: gpuocc_compiled_kernel), with the keys of `gpuocc ptxas` and
    `gpuocc cubin`; None where the source does not record a value (spills only in ptxas reports, launch
    bounds and clusters only in cubins)."""
    name: str
    short_name: str
    arch: Optional[str] = _c("cc", from_c=_sm, default=None)   # "sm_90", "sm_90a": cc with arch_variant (_readers)
    registers: int = 0                                         # per thread
    barriers: Optional[int] = _recorded_c("barriers")
    line: int = 0                                              # ptxas reports: the kernel's first line
    smem: int = _c("smem_bytes", default=0)                    # static shared memory, bytes
    cmem: Optional[int] = _recorded_c("cmem_bytes")            # constant bank 0, bytes
    stack: Optional[int] = _recorded_c("stack_frame_bytes")    # stack frame, bytes
    spill_stores: Optional[int] = _recorded_c("spill_store_bytes")
    spill_loads: Optional[int] = _recorded_c("spill_load_bytes")
    lmem: Optional[int] = _recorded_c("lmem_bytes")            # local memory, bytes
    max_threads: Optional[int] = _recorded_c("max_threads_per_block")  # __launch_bounds__; 0: none
    min_blocks: Optional[int] = _recorded_c("min_blocks_per_sm")       # 0: none
    max_regs: Optional[int] = _recorded_c("max_regs_per_thread")       # the cap it was compiled with
    max_blocks_per_cluster: Optional[int] = _recorded_c("max_blocks_per_cluster")
    cluster_x: Optional[int] = _recorded_c("cluster_x")        # __cluster_dims__; 0: none
    cluster_y: Optional[int] = _recorded_c("cluster_y")
    cluster_z: Optional[int] = _recorded_c("cluster_z")


@dataclass(frozen=True)
class RemarksKernel:
    """One kernel of LLVM's AMDGPU resource-usage remarks (C: gpuocc_remarks_kernel), with the keys of
    `gpuocc remarks`: the figures as LLVM printed them, None where it printed none (AGPRs on targets without
    MFMA, LDS of a non-kernel) or an expression it could not resolve.  `llvm_waves_per_simd` is LLVM's
    "Occupancy [waves/SIMD]"."""
    name: str
    short_name: str
    line: int = 0
    sgprs: Optional[int] = _recorded_c("sgprs")
    vgprs: Optional[int] = _recorded_c("vgprs")
    agprs: Optional[int] = _recorded_c("agprs")
    llvm_waves_per_simd: Optional[int] = _recorded_c("occupancy")
    scratch: Optional[int] = _recorded_c("scratch_bytes")      # bytes per lane
    smem_static: Optional[int] = _recorded_c("lds_bytes")      # static LDS, bytes
    sgpr_spills: Optional[int] = _recorded_c("sgpr_spills")
    vgpr_spills: Optional[int] = _recorded_c("vgpr_spills")
    dynamic_stack: Optional[int] = _recorded_c("dynamic_stack")


@dataclass(frozen=True)
class BinaryKernel:
    """One kernel read from a binary (C: gpuocc_binary_kernel), with the keys of `gpuocc binary`: the entry
    it came from, then the columns both vendors share (on AMD: registers = the VGPRs, smem = the static LDS,
    stack = the scratch per work-item, max_threads = the flat workgroup size maximum), then AMD's, from the
    code object's metadata.  None where the binary does not record a value, and for the other vendor's
    fields (NVIDIA's barriers, cmem, min_blocks, max_regs and clusters on AMD; AMD's fields on NVIDIA, but
    smem_static, report's name for the static shared memory, which equals smem there)."""
    name: str
    short_name: str
    entry: int                                   # the device-code entry (0-based, file order)
    vendor: str                                  # "nvidia", "amd" or "intel"
    arch: Optional[str]                          # "sm_90"; AMD: the target ID's processor, "gfx90a"
    registers: Optional[int]
    barriers: Optional[int]
    smem: Optional[int]                          # static shared memory (LDS), bytes
    cmem: Optional[int]                          # constant bank 0, bytes
    stack: Optional[int]                         # stack frame (AMD: scratch per work-item), bytes
    max_threads: Optional[int]                   # __launch_bounds__ / flat workgroup size maximum / Intel's
                                                 # reqd_work_group_size x*y*z; 0: none
    min_blocks: Optional[int]
    max_regs: Optional[int]
    max_blocks_per_cluster: Optional[int]
    cluster_x: Optional[int]
    cluster_y: Optional[int]
    cluster_z: Optional[int]
    target: Optional[str] = None                 # AMD: the target ID, "amdgcn-amd-amdhsa--gfx90a:xnack-"
    vgprs: Optional[int] = None                  # .vgpr_count (counts the AGPRs where they are used)
    agprs: Optional[int] = None                  # .agpr_count; None on targets without AGPRs
    sgprs: Optional[int] = None
    wave_size: Optional[int] = None
    smem_static: Optional[int] = None            # static shared memory (AMD: LDS, .group_segment_fixed_size)
    scratch: Optional[int] = None                # .private_segment_fixed_size, bytes per work-item
    vgpr_spills: Optional[int] = None
    sgpr_spills: Optional[int] = None
    dynamic_stack: Optional[int] = None          # 0 or 1
    cu_mode: Optional[int] = None                # AMD: 1 compiled with -mcumode (not .workgroup_processor_mode)
    amd_mach: Optional[int] = None               # e_flags & 0xff, the EF_AMDGPU_MACH processor (0x3f: gfx90a)
    code_object_version: Optional[int] = None    # 3 .. 6
    linked: int = 1                              # 1 linked code (what the driver loads), 0 a relocatable
                                                 # (-rdc=true, __nv_relfatbin) copy; as `gpuocc binary`'s column
    # Intel (vendor "intel", a zebin's .ze_info): barriers = barrier_count, smem = smem_static = slm
    sub_group: Optional[int] = None              # execution_env.simd_size: 1, 8, 16 or 32
    grf: Optional[int] = None                    # execution_env.grf_count: GRF registers per hardware thread
    slm: Optional[int] = None                    # execution_env.slm_size: static SLM per work-group, bytes
    scratch_per_thread: Optional[int] = None     # scratch buffers, bytes per hardware thread
    private: Optional[int] = None                # the global private_space buffer, bytes
    private_per_work_item: Optional[int] = None  # 1: `private` is per work-item, 0: per hardware thread
    spill: Optional[int] = None                  # execution_env.spill_size, bytes; None when not recorded
    product_family: Optional[int] = None         # the .note.intelgt.compat product family (1270 DG2, 1271 PVC)
    # NVIDIA's records beyond the resources (None on AMD and Intel): EIATTR 0x4a, 0x51/0x52, 0x54
    virtual_resources: Optional[int] = None      # virtual resources a block uses (128 with tcgen05 on sm_100a)
    tmem_cta_group: Optional[int] = None         # tcgen05's CTA group: 1, 2 (a pair of blocks), 0 none
    setmaxnreg: Optional[int] = None             # 1: the kernel reallocates registers with setmaxnreg
    # read_binary(path): the file read, and the launch a Triton json beside it gives (None: no json applied)
    file: Optional[str] = None                   # the binary's path (None when bytes were given)
    metadata: Optional[str] = None               # the Triton json's path
    launch_threads: Optional[int] = None         # the json's num_warps x warp size: the launch's block size
    tmem_columns: Optional[int] = None           # the json's tmem_size
    smem_dynamic: Optional[int] = None           # the json's shared: the launch's dynamic shared memory, bytes


@dataclass(frozen=True)
class BinaryRead:
    """What read_binary found: every readable kernel, and how many entries were read or failed
    (first_failure: the status name of the first failed entry, None when none failed).  Read from a path:
    problems, each (path, what is wrong) as `gpuocc binary` says it on stderr (a Triton json without its
    binary, a binary without its json, a file without device code...)."""
    kernels: tuple
    entries: int
    compressed_entries: int
    entries_read: int
    entries_failed: int
    first_failed_entry: int
    first_failure: Optional[str]
    problems: tuple = ()

    # a sequence of its kernels, as the other readers' answers are: for k in read_binary(...), len(), [i]
    def __iter__(self):
        return iter(self.kernels)

    def __len__(self) -> int:
        return len(self.kernels)

    def __getitem__(self, index):
        return self.kernels[index]


# ======================================================================================================
# Many launches at once: columns
# ======================================================================================================
class Columns(Mapping):
    """The answer of a call over many launches (batch, sweep): a read-only mapping from column name
    (the short names: threads, blocks_per_sm, occupancy, ...) to one array.array per column, all of the
    same length (or numpy arrays, when numpy arrays were passed in).  "No limit" is -1 in integer
    columns, as in CSV.  len(columns) is the number of columns; columns.rows the number of rows;
    columns.row(i) one row as a dict; columns.to_dicts() every row."""

    def __init__(self, columns: "dict[str, Any]", later: "Optional[tuple[tuple[str, ...], Any]]" = None):
        lengths = {len(v) for v in columns.values()}
        if len(lengths) > 1:
            raise ValueError(f"columns of different lengths: {sorted(lengths)}")
        self._columns = dict(columns)
        self.rows = lengths.pop() if lengths else 0
        # columns computed on first read: (their names, a function returning them as a dict), so that a
        # batch pays for the few rows that need Python work (exceeded) only when someone reads them
        self._later = later
        if later is not None:
            for name in later[0]:
                self._columns[name] = None

    def _stale(self) -> None:
        """These columns' arrays were handed to another call as `out=` and hold its answers now: the
        columns still to be computed from them cannot be, and raise instead of answering wrongly."""
        if self._later is not None:
            names = self._later[0]

            def refuse() -> dict:
                raise Error(_ERR_ARGUMENT, f"{', '.join(names)}: not read before these columns were reused "
                            "as out= of a later batch(), which overwrote them")
            self._later = (names, refuse)

    def _fill(self) -> None:
        names, compute = self._later
        self._columns.update(compute())
        self._later = None

    def __getitem__(self, name: str) -> Any:
        value = self._columns[name]
        if value is None and self._later is not None:
            self._fill()
            value = self._columns[name]
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._columns)

    def __len__(self) -> int:
        return len(self._columns)

    def row(self, i: int) -> dict:
        if self._later is not None:
            self._fill()
        return {name: values[i] for name, values in self._columns.items()}

    def to_dicts(self) -> list:
        return [self.row(i) for i in range(self.rows)]

    def __repr__(self) -> str:
        return f"gpuocc.Columns({self.rows} rows: {', '.join(self._columns)})"
