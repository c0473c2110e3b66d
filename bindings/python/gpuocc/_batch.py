"""Many launches in one call: batch() over columns of launches, and the sweeps of one axis of a launch.
Both answer a Columns mapping.  Imports _library, _types and _occupancy."""
from __future__ import annotations

import array
import ctypes
import sys
from typing import Any, Optional, Union

from ._library import (Error, _CBatch, _CPrepared, _CSweepPoint, _ERR_ARGUMENT, _ERR_BUFFER, _OK, _VENDOR_AMD, _call,
                       _i32, _i64, c_i32, c_i64, library)
from ._occupancy import _pair, _pair_refs
from ._types import Columns, Device, Kernel


# ======================================================================================================
# Many launches at once: batch
# ======================================================================================================
# Output columns of batch(): name, array typecode, C field of gpuocc_batch (all 4 or 8 bytes wide).
_BATCH_OUT = (("status", "i", "status"), ("blocks_per_sm", "i", "blocks_per_sm"),
              ("warps_per_sm", "i", "warps_per_sm"), ("occupancy", "d", "occupancy"),
              ("limiters", "I", "limiters"), ("limit_warps", "i", "limit_warps"), ("limit_regs", "i", "limit_regs"),
              ("limit_smem", "i", "limit_smem"), ("limit_blocks", "i", "limit_blocks"),
              ("limit_barriers", "i", "limit_barriers"), ("regs_per_block", "i", "regs_per_block"),
              ("smem_per_block", "q", "smem_per_block_bytes"), ("smem_per_sm", "q", "smem_per_sm_bytes"))
# and on an AMD device (None on NVIDIA in Result: no column there), as `gpuocc batch` writes them for AMD rows
_BATCH_OUT_AMD = (("waves_per_simd", "i", "waves_per_simd"), ("limit_sgprs", "i", "limit_sgprs"))
_IN_PLACE = {"i", "l", "q", "n"}  # signed integer buffer formats used without a copy (at the right width)


def _column(values: Any, name: str, wide: bool) -> "tuple[Any, int, int]":
    """An integer column as (owner, element width, address).  A writable, contiguous, one-dimensional
    buffer of 32-bit (or, with `wide`, 64-bit) signed integers is used in place; anything else is converted
    (TypeError for non-integers, gpuocc.Error "argument" for a value that does not fit)."""
    if isinstance(values, (str, bytes, bytearray)):
        raise TypeError(f"{name} must be a sequence or an array of ints, not {type(values).__name__}")
    try:
        view: Optional[memoryview] = memoryview(values)
    except TypeError:
        view = None
    if view is not None:
        fmt = view.format.lstrip("@=<")
        if (view.ndim == 1 and view.c_contiguous and not view.readonly and fmt in _IN_PLACE
                and (view.itemsize == 4 or (wide and view.itemsize == 8))):
            address = ctypes.addressof(ctypes.c_char.from_buffer(view)) if len(view) else 0
            return values, view.itemsize, address
        values = view.tolist()
    try:
        owner = array.array("q" if wide else "i", values)
    except TypeError:
        raise TypeError(f"{name} must be a sequence or an array of ints") from None
    except OverflowError:
        raise Error(_ERR_ARGUMENT, f"{name}: a value does not fit {'int64_t' if wide else 'int32_t'}") from None
    return owner, owner.itemsize, owner.buffer_info()[0] if len(owner) else 0


def batch(dev: Union[Device, str], threads: Any = None, regs: Any = None, smem_static: Any = None,
          smem_dynamic: Any = None, *, kern: Optional[Kernel] = None, out: Optional[Columns] = None) -> Columns:
    """gpuocc.occupancy() for many launches in one call: `threads`, `regs`, `smem_static`, `smem_dynamic`
    are equally long sequences or buffer-protocol arrays (array.array('i'), numpy int32/int64 arrays: used
    in place, without a copy); a column left out takes the value of `kern` (default kernel(threads=1)),
    which also gives every launch its barriers, carveout and opt-in.

    Returns a Columns mapping: the four launch columns (an array passed in place is that same object, not
    a copy), then status (0, or the library's code for a
    launch whose own values it rejects: gpuocc.status_name() names it; that row's other columns are 0),
    blocks_per_sm, warps_per_sm, occupancy, limiters (GPUOCC_LIMIT_* bits: gpuocc.limiter_names()),
    limit_warps, limit_regs, limit_smem, limit_blocks, limit_barriers (-1: no limit), regs_per_block,
    smem_per_block, smem_per_sm, and on an AMD device waves_per_simd and limit_sgprs (-1: no limit), as
    array.array (numpy arrays when a numpy array was passed in).
    `out`: the Columns of an earlier call with as many rows; its output arrays are reused (overwritten)
    instead of allocating new ones, which is what keeps a loop of large batches fast.

    Raises TypeError for arguments of the wrong type, gpuocc.Error for a device or kernel the library
    rejects, or columns of different lengths ("argument")."""
    dev_c, base = _pair(dev, kern if kern is not None else Kernel())
    outputs = _BATCH_OUT + (_BATCH_OUT_AMD if dev_c.vendor == _VENDOR_AMD else ())
    given = {"threads": threads, "regs": regs, "smem_static": smem_static, "smem_dynamic": smem_dynamic}
    numpy = sys.modules.get("numpy")
    want_numpy = numpy is not None and any(isinstance(v, numpy.ndarray) for v in given.values())
    cols: "dict[str, tuple[Any, int, Any]]" = {}
    for name, values in given.items():
        if values is not None:
            cols[name] = _column(values, name, wide=name.startswith("smem"))
    lengths = {len(owner) for owner, _, _ in cols.values()}
    if len(lengths) > 1:
        raise Error(_ERR_ARGUMENT, f"batch columns of different lengths: {sorted(lengths)}")
    n = lengths.pop() if lengths else 0
    smem = [name for name in ("smem_static", "smem_dynamic") if name in cols]
    if len({cols[name][1] for name in smem}) > 1:  # one width for both: widen the 32-bit one
        for name in smem:
            if cols[name][1] == 4:
                owner = array.array("q", cols[name][0])
                cols[name] = (owner, 8, owner.buffer_info()[0] if n else 0)
    width = cols[smem[0]][1] if smem else 8
    if out is not None:
        if not isinstance(out, Columns):
            raise TypeError(f"out must be the gpuocc.Columns of an earlier batch(), not {type(out).__name__}")
        if out.rows != n or any(name not in out or not isinstance(out[name], array.array)
                                or out[name].typecode != code for name, code, _ in outputs):
            raise Error(_ERR_ARGUMENT, f"out: not the array columns of a batch() of {n} rows on "
                        f"{'an AMD' if dev_c.vendor == _VENDOR_AMD else 'an NVIDIA'} device")
        # AMD's columns in an NVIDIA batch's out would keep the earlier answers: refused, as the other way round
        if dev_c.vendor != _VENDOR_AMD and any(name in out for name, _, _ in _BATCH_OUT_AMD):
            raise Error(_ERR_ARGUMENT, "out: the columns of a batch() on an AMD device (waves_per_simd, "
                        "limit_sgprs), and this device is NVIDIA")
        out = {name: out[name] for name, _, _ in outputs}
    else:
        out = {name: array.array(code, [0]) * n for name, code, _ in outputs}
    b = _CBatch(size=ctypes.sizeof(_CBatch), smem_width=width)
    for name, field_name in (("threads", "threads_per_block"), ("regs", "regs_per_thread"),
                             ("smem_static", "smem_static_bytes"), ("smem_dynamic", "smem_dynamic_bytes")):
        if name in cols:
            setattr(b, field_name, cols[name][2])
    for name, _, field_name in outputs:
        setattr(b, field_name, out[name].buffer_info()[0] if n else None)
    if n:
        prepared = _CPrepared(size=ctypes.sizeof(_CPrepared))
        _call("gpuocc_prepare", ctypes.byref(dev_c), ctypes.byref(prepared), where="device")
        _call("gpuocc_occupancy_batch", ctypes.byref(prepared), ctypes.byref(base), ctypes.byref(b), n,
              where="batch")
        if dev_c.vendor == _VENDOR_AMD and kern is not None and kern.max_threads > 0 and "threads" in cols:
            # a workgroup larger than the kernel was compiled for: the row's status, as a `gpuocc batch` row's
            threads_in = cols["threads"][0]
            for i in range(n):
                if threads_in[i] > kern.max_threads and out["status"][i] == _OK:
                    for name, _, _ in outputs:
                        out[name][i] = 0
                    out["status"][i] = _ERR_ARGUMENT
    else:
        _call("gpuocc_device_validate", ctypes.byref(dev_c), where="device")
    launch: "dict[str, Any]" = {}
    for name, field_name in (("threads", "threads_per_block"), ("regs", "regs_per_thread"),
                             ("smem_static", "smem_static_bytes"), ("smem_dynamic", "smem_dynamic_bytes")):
        if name not in cols:
            code = "q" if name.startswith("smem") else "i"
            launch[name] = array.array(code, [getattr(base, field_name)]) * n
            continue
        launch[name] = cols[name][0]  # the caller's own array when it was used in place (no copy)
    result = {**launch, **out}
    if want_numpy:
        result = {name: numpy.frombuffer(values, dtype=values.typecode) for name, values in result.items()}
    return Columns(result)


# ======================================================================================================
# Sweeps: one axis of a launch over a range
# ======================================================================================================
AXES = ("threads", "regs", "smem", "barriers")  # GPUOCC_AXIS_* order; "smem" sweeps smem_dynamic
_AXIS_COLUMN = {"threads": "threads", "regs": "regs", "smem": "smem_dynamic", "barriers": "barriers"}
# The launch columns and the output columns, as `gpuocc batch` and `gpuocc sweep` print them.
_LAUNCH_COLUMNS = (("threads", "i"), ("regs", "i"), ("smem_static", "q"), ("smem_dynamic", "q"),
                   ("barriers", "i"), ("carveout", "i"), ("smem_optin", "i"))
# an AMD device's launch columns, as `gpuocc sweep` prints them (but model and rocm, the kernel's own strings)
_LAUNCH_COLUMNS_AMD = (("threads", "i"), ("regs", "i"), ("agprs", "i"), ("sgprs", "i"), ("smem_static", "q"),
                       ("smem_dynamic", "q"), ("wave_size", "i"), ("cu_mode", "i"), ("max_threads", "i"))
# the results of a point: batch()'s output columns (_BATCH_OUT), status 0 at every point
# (gpuocc_batch's field names are gpuocc_sweep_point's)
_POINT_COLUMNS = tuple(column for column in _BATCH_OUT if column[0] != "status")


def _axis(axis: Union[str, int]) -> int:
    if isinstance(axis, str):
        if axis not in AXES:
            raise Error(_ERR_ARGUMENT, f"axis {axis!r}: expected one of {', '.join(AXES)}")
        return AXES.index(axis)
    return _i32(axis, "axis")


def sweep_range(dev: Union[Device, str], kern: Kernel, axis: Union[str, int]) -> tuple:
    """(from, to, step): the whole legal range of `axis` ("threads", "regs", "smem", "barriers") at its
    natural granularity (warp size, 1 register, the shared-memory allocation unit, 1 barrier)."""
    lo, hi, step = c_i64(), c_i64(), c_i64()
    _call("gpuocc_sweep_range", *_pair_refs(dev, kern), _axis(axis),
          ctypes.byref(lo), ctypes.byref(hi), ctypes.byref(step), where="sweep_range")
    return lo.value, hi.value, step.value


def _columns(dev: Union[Device, str], d: Any, kern: Kernel, axis: int, points: Any) -> Columns:
    cols = {}
    swept = _AXIS_COLUMN[AXES[axis]]
    amd = d.vendor == _VENDOR_AMD
    for name, code in _LAUNCH_COLUMNS_AMD if amd else _LAUNCH_COLUMNS:
        if name == swept:
            cols[name] = array.array(code, (p.value for p in points))
        else:
            value = int(getattr(kern, name))
            if name == "wave_size" and value == 0:  # as `gpuocc sweep` prints it: the target's default
                value = d.warp_size
            cols[name] = array.array(code, [value]) * len(points)
    cols["status"] = array.array("i", [0]) * len(points)  # a point the library cannot answer fails the call
    for name, code, c_name in _POINT_COLUMNS:
        cols[name] = array.array(code, (getattr(p, c_name) for p in points))
    if amd:  # AMD's answers a sweep point does not carry: the same launches as one batch
        answers = batch(dev, cols["threads"], cols["regs"], cols["smem_static"], cols["smem_dynamic"], kern=kern)
        for name, _, _ in _BATCH_OUT_AMD:
            cols[name] = answers[name]
    return Columns(cols)


def _sweep_pair(dev: Union[Device, str], kern: Kernel, axis: Union[str, int]) -> tuple:
    """The C device, kernel and axis of a sweep; the barriers axis is NVIDIA's, as `gpuocc sweep` says."""
    (d, k), a = _pair(dev, kern), _axis(axis)
    if a == AXES.index("barriers") and d.vendor == _VENDOR_AMD:
        raise Error(_ERR_ARGUMENT, "axis 'barriers': NVIDIA only (the device is AMD: its rules count no barriers)")
    return d, k, a


def _points(symbol: str, d: Any, k: Any, axis: int, *args: Any) -> Any:
    count = c_i32()
    status = getattr(library, symbol)(ctypes.byref(d), ctypes.byref(k), axis, *args, None, 0, ctypes.byref(count))
    if status not in (_OK, _ERR_BUFFER):
        raise Error(status, symbol[len("gpuocc_"):])
    points = (_CSweepPoint * max(count.value, 1))()
    _call(symbol, ctypes.byref(d), ctypes.byref(k), axis, *args, points, count.value, ctypes.byref(count))
    return points[:count.value]


def sweep(dev: Union[Device, str], kern: Kernel, axis: Union[str, int], from_: Optional[int] = None,
          to: Optional[int] = None, step: Optional[int] = None) -> Columns:
    """Occupancy of `kern` on `dev` with `axis` ("threads", "regs", "smem" = dynamic shared memory in
    bytes, "barriers") set to from_, from_ + step, ... up to `to` (inclusive); defaults: sweep_range().
    Each row equals occupancy() of that launch.  Returns Columns with `gpuocc sweep`'s columns: the
    launch (threads, regs, smem_static, smem_dynamic, barriers, carveout, smem_optin; on an AMD device
    threads, regs, agprs, sgprs, smem_static, smem_dynamic, wave_size (the target's when the kernel's is 0),
    cu_mode, max_threads; the swept one varies) then status (0 at every point), blocks_per_sm, warps_per_sm, occupancy, limiters (a
    GPUOCC_LIMIT_* mask: see limiter_names()), limit_* (-1: no limit), regs_per_block, smem_per_block,
    smem_per_sm, and on an AMD device waves_per_simd and limit_sgprs.  The barriers axis is NVIDIA's.

        >>> c = sweep("A100", kernel(threads=256), "regs", 16, 128, 48)
        >>> list(c["regs"]), list(c["occupancy"])
        ([16, 64, 112], [1.0, 0.5, 0.25])

    Raises gpuocc.Error ("argument" for an unknown axis or an empty range, "threads"/"registers"/
    "smem"/"barriers" for a start below the axis' range, "overflow" past 2^31 points)."""
    d, k, a = _sweep_pair(dev, kern, axis)
    if from_ is None or to is None or step is None:
        lo, hi, unit = sweep_range(dev, kern, a)
        from_, to, step = (lo if from_ is None else from_), (hi if to is None else to), (unit if step is None else step)
    return _columns(dev, d, kern, a, _points("gpuocc_sweep", d, k, a, _i64(from_, "from_"), _i64(to, "to"),
                                             _i64(step, "step")))


def sweep_steps(dev: Union[Device, str], kern: Kernel, axis: Union[str, int], from_: Optional[int] = None,
                to: Optional[int] = None) -> Columns:
    """The staircase of `axis` on [from_, to] (defaults: sweep_range()) as runs: the first row is from_,
    each further row the value (1 thread, register, byte or barrier resolution) where blocks_per_sm,
    warps_per_sm or the limiters change, found from the allocation rules.  Same columns as sweep().

        >>> list(sweep_steps("A100", kernel(threads=256), "regs", 0, 256)["regs"])
        [0, 25, 33, 41, 49, 65, 81, 129]"""
    d, k, a = _sweep_pair(dev, kern, axis)
    if from_ is None or to is None:
        lo, hi, _ = sweep_range(dev, kern, a)
        from_, to = (lo if from_ is None else from_), (hi if to is None else to)
    return _columns(dev, d, kern, a, _points("gpuocc_sweep_steps", d, k, a, _i64(from_, "from_"), _i64(to, "to")))
