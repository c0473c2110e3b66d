"""Devices (the built-in table, or described by hand), occupancy and the per-resource limits, and the
searches: the best block size and the inverse queries (how much shared memory, how many registers, what
to shed for one block more).  Imports _library and _types."""
from __future__ import annotations

import ctypes
import dataclasses
from typing import Any, Callable, Optional, Sequence, Union

from ._library import (CARVEOUT_DEFAULT, GPC_MAX, INPUT_NAMES, Error, _CCluster, _CClusterResult, _CDevice, _CGpcLayout,
                       _CKernel, _CResult, _ERR_ARGUMENT, _ERR_REGISTERS, _ERR_BARRIERS, _ERR_SMEM,
                       _ERR_UNSATISFIABLE, _OK, _SMEM_FN, _VENDOR_AMD, _CStep, STEPS_MAX, _call, _from_c, _i32, _i64,
                       _occupancy_prepared, _text, c_i32, c_i64, library)
from ._types import (CLUSTER_VERDICTS, BestBlock, CatalogEntry, ClusterResult, Device, GpcLayout, Kernel, Limits, NextStep, RESOURCES, Result, STEP_INPUTS, Step,
                     StepChange, _AMD_ONLY, _NVIDIA_ONLY, _result)


# ======================================================================================================
# Devices: the built-in table, or described by hand
# ======================================================================================================
def _device_object(dev: Union[Device, str]) -> Device:
    if type(dev) is str:
        found = _BY_NAME.get(dev)
        return found if found is not None else device(dev)
    if not isinstance(dev, Device):
        raise TypeError(f"device must be a gpuocc.Device or a device name, not {type(dev).__name__}")
    return dev


def _device(dev: Union[Device, str]) -> _CDevice:
    """The C device of a call (the Device's own, built once: read it, never write it)."""
    return _device_object(dev)._c_struct()


# Devices looked up by name, by the exact name given: the built-in table never changes in a process, and a
# Device is immutable, so one object serves every call that names it.  Bounded: names are the caller's.
_BY_NAME: "dict[str, Device]" = {}
_BY_NAME_MAX = 4096


def device(name: str) -> Device:
    """A device of the built-in table by architecture ("sm_90", "9.0", "90", "compute_90", "sm_90a") or
    product ("H100", "A100", "RTX 4090"; case, spaces, '-' and '_' ignored).

    Raises TypeError for a non-str, gpuocc.Error "unknown_device" for a name the table lacks."""
    found = _BY_NAME.get(name) if type(name) is str else None
    if found is not None:
        return found
    data = _text(name, "name")
    d = _CDevice(size=ctypes.sizeof(_CDevice))
    _call("gpuocc_device_lookup", data, ctypes.byref(d), where=name)
    dev = Device._from_c(d)
    if len(_BY_NAME) >= _BY_NAME_MAX:
        _BY_NAME.clear()
    _BY_NAME[name] = dev
    return dev


def devices() -> list[CatalogEntry]:
    """The built-in table, in its order: architectures, then products."""
    kinds = {1: "arch", 2: "product"}
    return [CatalogEntry(i, library.gpuocc_catalog_name(i).decode(), kinds.get(library.gpuocc_catalog_kind(i), "?"),
                         library.gpuocc_catalog_source(i).decode()) for i in range(library.gpuocc_catalog_count())]


def catalog_device(index: int) -> Device:
    """The device of table entry `index` (0 .. len(devices()) - 1); gpuocc.Error "argument" otherwise."""
    d = _CDevice(size=ctypes.sizeof(_CDevice))
    _call("gpuocc_catalog_device", _i32(index, "index"), ctypes.byref(d), where=f"catalog entry {index}")
    return Device._from_c(d)


def custom_device(**fields: Any) -> Device:
    """A device described by hand: every field of Device by keyword (carveouts_kib a tuple), starting
    from zeros with vendor NVIDIA (gpuocc_device_init); checked with validate_device()."""
    d = _CDevice()
    _call("gpuocc_device_init", ctypes.byref(d))
    base = Device._from_c(d)
    unknown = set(fields) - {f.name for f in dataclasses.fields(Device)}
    if unknown:
        raise TypeError(f"custom_device() got unknown fields: {', '.join(sorted(unknown))}")
    dev = dataclasses.replace(base, **fields)
    validate_device(dev)
    return dev


def validate_device(dev: Device) -> None:
    """Raise gpuocc.Error "device" unless every field is in range and consistent."""
    _call("gpuocc_device_validate", ctypes.byref(_device(dev)), where="device")


# ======================================================================================================
# A call's device and kernel, checked against the device's vendor
# ======================================================================================================
def _kernel_cached(kern: Kernel) -> tuple:
    if not isinstance(kern, Kernel):
        raise TypeError(f"kernel must be a gpuocc.Kernel (from gpuocc.kernel()), not {type(kern).__name__}")
    return kern._cached()


def _kernel(kern: Kernel) -> _CKernel:
    """The C kernel of a call (the Kernel's own, built once: read it, never write it)."""
    return _kernel_cached(kern)[0]


def _foreign(name: str, kern: Kernel, amd: bool) -> Error:
    return Error(_ERR_ARGUMENT, f"{name}={getattr(kern, name)!r}: " +
                 ("NVIDIA only (the device is AMD)" if amd else "AMD only (the device is NVIDIA)"))


_INTEL_ONLY = (("sub_group", 0), ("grf", 0))
_VENDOR_INTEL = 3
_VENDOR_NVIDIA = 1


def _pair(dev: Union["Device", str], kern: Kernel) -> "tuple[_CDevice, _CKernel]":
    """The C device and kernel of a call.  A kernel field only the other vendor's rules read, set away from
    its default, raises gpuocc.Error, as `gpuocc report` and `gpuocc batch` refuse it (the device's rules
    would not read it): "argument", or the library's own status where it refuses the launch too."""
    d = _device(dev)
    k, amd_set, nv_set = _kernel_cached(kern)
    try:
        return d, _pair_checked(d, kern, k, amd_set, nv_set)
    except Error as e:
        raise _as_library(d, kern, k, e) from None


def _as_library(d: _CDevice, kern: Kernel, k: _CKernel, e: Error) -> Error:
    """A refusal of the checks above as the library's, where the library refuses the launch too: its status
    and the input it names over a limit (what it checks first, as every call sees it), with the check's
    reason when it names that input.  A field the library does not read keeps the check's refusal."""
    if d.vendor == _VENDOR_INTEL and kern.model == "runtime":
        k = _CKernel.from_buffer_copy(k)
        k.model = 4  # GPUOCC_MODEL_INTEL_RUNTIME
    r = _CResult()
    r.size = _RESULT_SIZE
    status = library.gpuocc_occupancy(ctypes.byref(d), ctypes.byref(k), ctypes.byref(r))
    lib = _refused(r, status, kern) if status else e
    if lib.exceeded is None:
        return e
    if e.where and e.where.startswith(lib.exceeded):
        return Error(status, e.where, lib.exceeded, lib.exceeded_limit)
    return lib


def _pair_checked(d: _CDevice, kern: Kernel, k: _CKernel, amd_set: Optional[str],
                  nv_set: Optional[str]) -> _CKernel:
    """_pair's checks: the C kernel of the call, or gpuocc.Error."""
    if d.vendor == _VENDOR_INTEL:
        # Intel reads barriers and model of the others' fields; its register demand is grf
        others = [f for f in _NVIDIA_ONLY + _AMD_ONLY if f[0] not in ("barriers", "model")] + [("regs", 0)]
        for name, default in others:
            if getattr(kern, name) != default:
                raise Error(_ERR_ARGUMENT, f"{name}={getattr(kern, name)!r}: not read on Intel (the device is "
                            "Intel" + ("; use grf)" if name == "regs" else ")"))
        if kern.model in ("compiler", "llvm19"):
            raise Error(_ERR_ARGUMENT, f"model={kern.model!r} is AMD's: Intel has 'calculator' and 'runtime'")
        if kern.model == "runtime":
            k = _CKernel.from_buffer_copy(k)  # the Kernel's own C struct is shared: never write it
            k.model = 4  # GPUOCC_MODEL_INTEL_RUNTIME
        if kern.sub_group and not d.sub_group_sizes & kern.sub_group:
            raise Error(_ERR_ARGUMENT, f"sub_group={kern.sub_group}: not a sub-group size of the device")
        return k
    for name, default in _INTEL_ONLY:
        if getattr(kern, name) != default:
            raise Error(_ERR_ARGUMENT, f"{name}={getattr(kern, name)!r}: Intel only")
    if kern.model == "calculator":
        raise Error(_ERR_ARGUMENT, "model='calculator' is Intel's")
    amd = d.vendor == _VENDOR_AMD
    if nv_set if amd else amd_set:
        raise _foreign(nv_set if amd else amd_set, kern, amd)
    # what the library refuses with a bare code, named as `gpuocc report` names it
    if amd and kern.agprs > 0 and d.agpr_file == 0:  # GPUOCC_AGPR_NONE
        raise Error(_ERR_ARGUMENT, f"agprs={kern.agprs}: the device has no AGPRs (gfx908, gfx90a and later have them)")
    if amd and kern.wave_size in (32, 64) and not d.wave_sizes & kern.wave_size:
        raise Error(_ERR_ARGUMENT, f"wave_size={kern.wave_size}: the device runs wave{d.warp_size} only")
    # the library's refusals, named as `gpuocc report` names them (its status and input, through _as_library)
    if amd and kern.rocm is not None and kern.model != "runtime":
        raise Error(_ERR_ARGUMENT, "rocm picks the release of HIP's rules: give model='runtime' too")
    if amd and kern.waves_per_eu_max and kern.waves_per_eu_min > kern.waves_per_eu_max:
        raise Error(_ERR_ARGUMENT, f"waves_per_eu_min={kern.waves_per_eu_min} is above "
                    f"waves_per_eu_max={kern.waves_per_eu_max}")
    return k


def _refused(r: Any, status: int, kern: Any = None, where: str = "occupancy") -> Error:
    """The Error of a launch the library refuses, with the input it names over a limit and that limit
    (gpuocc_result.exceeded, .exceeded_limit: .exceeded, .exceeded_limit, as `gpuocc report` and `gpuocc
    batch` name them), or the bare status where it names none."""
    code = r.exceeded
    name = INPUT_NAMES[code] if 0 < code < len(INPUT_NAMES) else None
    if name is None:
        return Error(status, where)
    limit = int(r.exceeded_limit)
    given = f"{name}={getattr(kern, name)}" if hasattr(kern, name) else name
    reason = (f"{given} is not a field of this vendor's devices" if status == _ERR_ARGUMENT and limit == 0
              else f"{given} is over its limit {limit}: {library.gpuocc_strerror(status).decode()}")
    return Error(status, where, name, limit, reason)


def _pair_refs(dev: Union["Device", str], kern: Kernel) -> tuple:
    d, k = _pair(dev, kern)
    return ctypes.byref(d), ctypes.byref(k)


# ======================================================================================================
# Occupancy
# ======================================================================================================
def occupancy(dev: Union[Device, str], kern: Kernel) -> Result:
    """Resident blocks and warps per SM of `kern` on `dev` (a Device or a device name), and which
    resources limit them.  A launch that cannot run gives blocks_per_sm == 0, not an error.

    Raises gpuocc.Error with the library's status ("threads", "smem", "carveout", "device", ...) for
    a value it rejects; TypeError for arguments of the wrong type.

        >>> r = occupancy("A100", kernel(threads=256, regs=64))
        >>> r.blocks_per_sm, r.occupancy, r.limiters
        (4, 0.5, ('registers',))
    """
    # The device prepared once (kept with the Device), the kernel's C struct kept with the Kernel, one
    # call, the result read in one unpack (_types._result).
    if type(dev) is str:
        found = _BY_NAME.get(dev)
        dev = found if found is not None else device(dev)
    if (type(dev) is not Device or type(kern) is not Kernel or dev.vendor != _VENDOR_NVIDIA or kern.sub_group
            or kern.grf):
        # the type and vendor checks, AMD's and Intel's pair checks, with their messages (and Intel's model)
        k = _pair(dev, kern)[1]
    else:
        k, amd_set, _ = kern.__dict__.get("_c") or kern._cached()
        if amd_set:
            raise _as_library(_device(dev), kern, k, _foreign(amd_set, kern, False))
    prepared = dev.__dict__.get("_prep")
    if prepared is None or type(prepared) is int:
        try:
            prepared = dev._prepared()
        except Error as e:
            raise Error(e.status, "occupancy") from None
    r = _CResult()
    r.size = _RESULT_SIZE
    status = _occupancy_prepared(prepared, k, r)
    if status:
        raise _refused(r, status, kern)
    return _result(r, dev.vendor == _VENDOR_INTEL and dev.sm_count > 0)


_RESULT_SIZE = ctypes.sizeof(_CResult)


def limits(dev: Union[Device, str], kern: Kernel) -> Limits:
    """The per-resource limits of this launch: occupancy()'s limit_* fields, as `gpuocc report` prints them
    (every kernel field counts: AMD's model, AGPRs, wave size and CU mode too)."""
    r = occupancy(dev, kern)
    return Limits(warps=r.limit_warps, registers=r.limit_regs, shared_memory=r.limit_smem, blocks=r.limit_blocks,
                  barriers=r.limit_barriers, sgprs=r.limit_sgprs)


def regs_per_warp(dev: Union[Device, str], regs: int) -> int:
    """Registers one warp is given: regs x warp_size rounded up to the allocation unit."""
    v = c_i32()
    _call("gpuocc_regs_per_warp", ctypes.byref(_device(dev)), _i32(regs, "regs"), ctypes.byref(v))
    return v.value


def regs_per_block(dev: Union[Device, str], threads: int, regs: int) -> int:
    """Registers one block is given: the per-warp allocation x warps per block."""
    v = c_i64()
    _call("gpuocc_regs_per_block", ctypes.byref(_device(dev)), _i32(threads, "threads"), _i32(regs, "regs"),
          ctypes.byref(v))
    return v.value


def smem_per_block(dev: Union[Device, str], smem_static: int = 0, smem_dynamic: int = 0) -> int:
    """Shared memory one block is given, bytes: static + dynamic + reserved, rounded up to the unit."""
    v = c_i64()
    _call("gpuocc_smem_per_block", ctypes.byref(_device(dev)), _i64(smem_static, "smem_static"),
          _i64(smem_dynamic, "smem_dynamic"), ctypes.byref(v))
    return v.value


def smem_carveout(dev: Union[Device, str], kern: Kernel) -> int:
    """Shared memory per SM, bytes, that the driver configures for this kernel (the carveout)."""
    v = c_i64()
    _call("gpuocc_smem_carveout", *_pair_refs(dev, kern), ctypes.byref(v))
    return v.value


# ======================================================================================================
# Searches: the best block size, and the inverse queries
# ======================================================================================================
def best_block(dev: Union[Device, str], kern: Kernel, smem_base: int = 0, smem_per_thread: int = 0, *,
               smem_table: Optional[Sequence[int]] = None,
               smem_fn: Optional[Callable[[int], int]] = None) -> BestBlock:
    """Search the block size.  Dynamic shared memory per block (bytes) is one of:
    smem_base + smem_per_thread x threads (default 0 + 0), `smem_table[t]` for a block of t threads
    (len must exceed the largest candidate: 1025 covers every NVIDIA device), or `smem_fn(threads)`.
    Candidates: the largest allowed block size, then every multiple of the warp size below it."""
    d, k = _pair(dev, kern)
    t, g = c_i32(), c_i32()
    if smem_table is not None and smem_fn is not None:
        raise TypeError("give smem_table or smem_fn, not both")
    if smem_table is not None:
        values = [_i64(v, "smem_table[]") for v in smem_table]
        table = (c_i64 * max(len(values), 1))(*values)
        _call("gpuocc_best_block_table", ctypes.byref(d), ctypes.byref(k), table, _i32(len(values), "len(smem_table)"),
              ctypes.byref(t), ctypes.byref(g), where="best_block")
    elif smem_fn is not None:
        raised: list = []

        def trampoline(threads: int, _user: Any) -> int:
            try:
                return _i64(smem_fn(threads), "smem_fn()")
            except BaseException as e:  # re-raised below, once the library has returned
                raised.append(e)
                return -1
        callback = _SMEM_FN(trampoline)
        status = library.gpuocc_best_block_callback(ctypes.byref(d), ctypes.byref(k), callback, None,
                                                    ctypes.byref(t), ctypes.byref(g))
        if raised:
            raise raised[0]
        if status != _OK:
            raise Error(status, "best_block")
    else:
        _call("gpuocc_best_block_affine", ctypes.byref(d), ctypes.byref(k), _i64(smem_base, "smem_base"),
              _i64(smem_per_thread, "smem_per_thread"), ctypes.byref(t), ctypes.byref(g), where="best_block")
    return BestBlock(t.value, g.value)


def smem_dynamic_available(dev: Union[Device, str], kern: Kernel, blocks: int) -> int:
    """The most dynamic shared memory per block, bytes, with which `blocks` blocks still fit on one SM
    (the kernel's smem_dynamic is ignored).  gpuocc.Error "unsatisfiable" if they never fit."""
    v = c_i64()
    _call("gpuocc_smem_dynamic_available", *_pair_refs(dev, kern),
          _i32(blocks, "blocks"), ctypes.byref(v))
    return v.value


def regs_max_for_blocks(dev: Union[Device, str], kern: Kernel, blocks: int) -> int:
    """The most registers per thread (at most 255) with which `blocks` blocks still fit: the
    -maxrregcount or __launch_bounds__ target.  gpuocc.Error "unsatisfiable" if none does."""
    v = c_i32()
    _call("gpuocc_regs_max_for_blocks", *_pair_refs(dev, kern),
          _i32(blocks, "blocks"), ctypes.byref(v))
    return v.value


def max_stages(dev: Union[Device, str], kern: Kernel, blocks: int = 1, *, stage_bytes: int, base_bytes: int = 0) -> int:
    """The most pipeline stages s such that a launch with base_bytes + s x stage_bytes of dynamic shared
    memory (the kernel's smem_dynamic is ignored) still fits `blocks` blocks on one SM; exact, as
    gpuocc.occupancy counts them.  gpuocc.Error "unsatisfiable" if not even the base bytes fit them,
    "argument" for blocks < 1 or stage_bytes < 1, "smem" for base_bytes < 0."""
    v = c_i64()
    _call("gpuocc_max_stages", *_pair_refs(dev, kern), _i32(blocks, "blocks"), _i64(base_bytes, "base_bytes"),
          _i64(stage_bytes, "stage_bytes"), ctypes.byref(v))
    return v.value


def _resource(resource: Union[str, int]) -> int:
    if isinstance(resource, str):
        if resource not in RESOURCES:
            raise Error(-14, f"resource {resource!r} (one of {', '.join(RESOURCES)})")
        return RESOURCES.index(resource)
    return _i32(resource, "resource")


def next_step(dev: Union[Device, str], kern: Kernel, resource: Union[str, int]) -> Optional[NextStep]:
    """What to shed on `resource` (a name of RESOURCES or its index) to fit one more block; None when no
    reduction of it alone helps (the block-slot cap, or it already allows the most)."""
    r = _resource(resource)
    value, shed = c_i64(), c_i64()
    status = library.gpuocc_next_step(*_pair_refs(dev, kern), r,
                                      ctypes.byref(value), ctypes.byref(shed))
    if status == _ERR_UNSATISFIABLE:
        return None
    if status != _OK:
        raise Error(status, "next_step")
    return NextStep(RESOURCES[r], value.value, shed.value)


def _change(c: Any) -> StepChange:
    return StepChange(STEP_INPUTS[c.resource], c.new_value, c.shed)


def next_steps(dev: Union[Device, str], kern: Kernel) -> list:
    """The next steps that hold (gpuocc_next_steps): each a Step whose changes, applied alone to the kernel,
    give exactly its blocks_per_sm, more than now.  Single steps first; where resources tie, one joint step
    (its other changes in `also`).  [] when nothing helps."""
    steps = (_CStep * STEPS_MAX)()
    count = c_i32()
    _call("gpuocc_next_steps", *_pair_refs(dev, kern), steps, STEPS_MAX, ctypes.byref(count), where="next_steps")
    out = []
    for s in steps[:count.value]:
        first = _change(s.change)
        out.append(Step(first.resource, first.new_value, first.shed, s.blocks_per_sm,
                        tuple(_change(s.also[i]) for i in range(s.also_count))))
    return out


# ======================================================================================================
# Thread-block clusters (NVIDIA cc >= 9.0): legality, published GPC layouts, resident clusters
# ======================================================================================================
def _dims(value: Any, name: str) -> tuple:
    """(x, y, z) from an int or a sequence of 1 to 3 ints (the missing ones 1)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (_i32(value, name), 1, 1)
    if not isinstance(value, (tuple, list)) or not 1 <= len(value) <= 3:
        raise TypeError(f"{name} must be an int or a sequence of 1 to 3 ints")
    dims = [_i64(v, name) for v in value] + [1] * (3 - len(value))
    return tuple(dims)


def _cluster(cluster: Any, nonportable: bool, grid: Any, max_blocks_per_cluster: int) -> _CCluster:
    c = _CCluster(size=ctypes.sizeof(_CCluster))
    library.gpuocc_cluster_init(ctypes.byref(c))
    x, y, z = _dims(cluster, "cluster")
    c.cluster_x, c.cluster_y, c.cluster_z = _i32(x, "cluster"), _i32(y, "cluster"), _i32(z, "cluster")
    if not isinstance(nonportable, bool):
        raise TypeError("cluster_nonportable must be a bool")
    c.cluster_nonportable = int(nonportable)
    c.max_blocks_per_cluster = _i32(max_blocks_per_cluster, "max_blocks_per_cluster")
    if grid is not None:
        c.grid_x, c.grid_y, c.grid_z = (_i64(v, "grid_blocks") for v in _dims(grid, "grid_blocks"))
    return c


def cluster_size_max(dev: Union[Device, str], nonportable: bool = False) -> Optional[int]:
    """The most blocks per cluster `dev` accepts: 0 (no clusters, before cc 9.0), 8 (portable), or with
    nonportable=True the published non-portable maximum (16 on H100 and B200, 8 on Thor and GB10); None
    where no public source gives it (cc 10.3, 12.0)."""
    if not isinstance(nonportable, bool):
        raise TypeError("nonportable must be a bool")
    n = c_i32()
    _call("gpuocc_cluster_size_max", ctypes.byref(_device(dev)), int(nonportable), ctypes.byref(n))
    return None if n.value == -1 else n.value


def cluster_check(dev: Union[Device, str], cluster: Any, *, cluster_nonportable: bool = False, grid_blocks: Any = None,
                  max_blocks_per_cluster: int = 0) -> str:
    """The verdict on a cluster launch: "legal", or the first rule it breaks ("unsupported",
    "needs_nonportable", "too_large", "kernel_max", "grid"), or "unverified" (above 8 blocks where the
    device's non-portable maximum is not published).  `cluster` and `grid_blocks` are an int (x) or up to
    three ints (x, y, z)."""
    c = _cluster(cluster, cluster_nonportable, grid_blocks, max_blocks_per_cluster)
    v = c_i32()
    _call("gpuocc_cluster_check", ctypes.byref(_device(dev)), ctypes.byref(c), ctypes.byref(v))
    return CLUSTER_VERDICTS[v.value]


def _layout_of(c: _CGpcLayout) -> GpcLayout:
    return GpcLayout(gpc_count=c.gpc_count, exact=bool(c.exact), sm_count=c.sm_count if not c.exact else
                     sum(c.sms_per_gpc[:c.gpc_count]), sms_per_tpc=c.sms_per_tpc,
                     tpcs_per_gpc_max=c.tpcs_per_gpc_max,
                     sms_per_gpc=tuple(c.sms_per_gpc[:c.gpc_count]) if c.exact else ())


def gpc_layout(name: str) -> GpcLayout:
    """The published GPC layout of a product or die ("H100 SXM", "H200", "RTX 5090", "RTX PRO 6000",
    "GH100", "GB202"): a full die GPC by GPC (exact), a product as its die's shape and SM count.  Raises
    gpuocc.Error("unknown_device") where none is published (B200, GB10, Thor)."""
    c = _CGpcLayout(size=ctypes.sizeof(_CGpcLayout))
    _call("gpuocc_gpc_layout_lookup", _text(name, "name"), ctypes.byref(c))
    return _layout_of(c)


def _c_layout(layout: Any) -> Optional[_CGpcLayout]:
    if layout is None:
        return None
    if isinstance(layout, str):
        layout = gpc_layout(layout)
    c = _CGpcLayout(size=ctypes.sizeof(_CGpcLayout))
    if isinstance(layout, GpcLayout):
        c.gpc_count, c.exact = _i32(layout.gpc_count, "gpc_count"), int(layout.exact)
        if layout.exact:
            sms = layout.sms_per_gpc
        else:
            sms = ()
            c.sm_count = _i32(layout.sm_count, "sm_count")
            c.sms_per_tpc = _i32(layout.sms_per_tpc, "sms_per_tpc")
            c.tpcs_per_gpc_max = _i32(layout.tpcs_per_gpc_max, "tpcs_per_gpc_max")
    elif isinstance(layout, (tuple, list)):
        sms = layout
        c.gpc_count, c.exact = len(sms), 1
    else:
        raise TypeError("gpc_sms must be None, a layout name, a gpuocc.GpcLayout or a sequence of SMs per GPC")
    if len(sms) > GPC_MAX:
        raise Error(_ERR_ARGUMENT, f"gpc_sms: at most {GPC_MAX} GPCs")
    for i, s in enumerate(sms):
        c.sms_per_gpc[i] = _i32(s, "gpc_sms")
    return c


def clusters_per_gpc(sms: int, blocks_per_sm: int, cluster_blocks: int) -> int:
    """Clusters one GPC of `sms` SMs holds: floor(sms x blocks_per_sm / cluster_blocks)."""
    n = c_i64()
    _call("gpuocc_clusters_per_gpc", _i32(sms, "sms"), _i32(blocks_per_sm, "blocks_per_sm"),
          _i32(cluster_blocks, "cluster_blocks"), ctypes.byref(n))
    return n.value


def cluster_occupancy(dev: Union[Device, str], kern: Kernel, cluster: Any, *, cluster_nonportable: bool = False,
                      grid_blocks: Any = None, max_blocks_per_cluster: int = 0, gpc_sms: Any = None) -> ClusterResult:
    """Resident clusters of a legal cluster launch.  gpc_sms: None (no layout: the bound floor(SMs x
    blocks per SM / cluster blocks)), a layout name (gpc_layout), a gpuocc.GpcLayout, or the SMs of each
    GPC (an exact count of that layout).  Raises gpuocc.Error("cluster") for a launch the device refuses
    (cluster_check names the rule)."""
    d, k = _pair(dev, kern)
    c = _cluster(cluster, cluster_nonportable, grid_blocks, max_blocks_per_cluster)
    lay = _c_layout(gpc_sms)
    r = _CClusterResult(size=ctypes.sizeof(_CClusterResult))
    _call("gpuocc_cluster_occupancy", ctypes.byref(d), ctypes.byref(k), ctypes.byref(c),
          ctypes.byref(lay) if lay is not None else None, ctypes.byref(r))
    return ClusterResult(verdict=CLUSTER_VERDICTS[r.verdict], cluster_blocks=r.cluster_blocks,
                         cluster_blocks_max=None if r.cluster_blocks_max == -1 else r.cluster_blocks_max,
                         blocks_per_sm=r.blocks_per_sm, clusters_exact=bool(r.clusters_exact), gpc_count=r.gpc_count,
                         clusters_min=None if r.clusters_min < 0 else r.clusters_min, clusters_max=r.clusters_max)
