"""Many launches in one call: batch() over columns of launches, and the sweeps of one axis of a launch.
Both answer a Columns mapping.  Imports _library, _types and _occupancy."""
from __future__ import annotations

import array
import ctypes
import dataclasses
import sys
from typing import Any, Optional, Union

from collections.abc import Mapping

from ._library import (INPUT_NAMES, Error, _BATCH_PACK, _CBatch, _CKernel, _CResult, _CSweepPoint, _ERR_ARGUMENT,
                       _ERR_BUFFER, _OK, _VENDOR_AMD, _batch_packed, _call, _i32, _i64, _occupancy_prepared,
                       c_i32, c_i64, library)
from ._occupancy import _device, _device_object, _pair, _pair_refs, occupancy
from ._types import RESOURCES, Columns, Device, Kernel


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
# the columns after gpuocc_batch's reserved words: NVIDIA's virtual-resource limit (every vendor: -1 where it
# cannot limit), and the input over a limit as the library names it (read into Python names on demand)
_BATCH_OUT_TAIL = (("limit_virtual_resources", "i", "limit_virtual_resources"), ("exceeded_code", "i", "exceeded"),
                   ("exceeded_limit_raw", "q", "exceeded_limit"))
_VENDOR_INTEL = 3  # GPUOCC_VENDOR_INTEL
_IN_PLACE = {"i", "l", "q", "n"}  # signed integer buffer formats used without a copy (at the right width)
_NUMPY_DTYPE = {"i": "int32", "I": "uint32", "q": "int64", "d": "float64"}
_INPUTS = (("threads", "threads_per_block"), ("regs", "regs_per_thread"), ("smem_static", "smem_static_bytes"),
           ("smem_dynamic", "smem_dynamic_bytes"), ("barriers", "barriers"),
           ("virtual_resources", "virtual_resources"), ("tmem_columns", "tmem_columns"))
_DEFAULT_KERNEL = Kernel()
_ZEROS = {code: array.array(code, [0]) for code in "iIqd"}


def _numpy_column(values: Any, name: str, wide: bool, numpy: Any) -> "tuple[Any, int, int]":
    """A numpy column: int32 (and, with `wide`, int64) in little-endian order and contiguous, used in place;
    other integer arrays converted once; any other dtype a TypeError naming the column."""
    dtype = values.dtype
    accepted = "int32 or int64" if wide else "int32 (int64 and other integer widths are converted once)"
    if dtype.kind not in "iu" or dtype.byteorder == ">" or (dtype.byteorder == "=" and sys.byteorder == "big"):
        raise TypeError(f"{name}: a numpy array of dtype {dtype.str if dtype.kind in 'iu' else dtype} is not "
                        f"accepted; give little-endian integers: {accepted} are used in place")
    if values.ndim != 1:
        raise TypeError(f"{name} must be a one-dimensional array, not {values.ndim}-dimensional")
    if dtype.kind == "i" and (dtype.itemsize == 4 or (wide and dtype.itemsize == 8)) and values.flags.c_contiguous:
        return values, dtype.itemsize, values.ctypes.data if len(values) else 0
    target = numpy.dtype(numpy.int64 if wide else numpy.int32)
    if len(values):
        info = numpy.iinfo(target)
        low, high = int(values.min()), int(values.max())
        if low < info.min or high > info.max:
            raise Error(_ERR_ARGUMENT, f"{name}: a value does not fit {'int64_t' if wide else 'int32_t'}")
    owner = numpy.ascontiguousarray(values, dtype=target)
    return owner, owner.itemsize, owner.ctypes.data if len(owner) else 0


def _column(values: Any, name: str, wide: bool, numpy: Any = None) -> "tuple[Any, int, int]":
    """An integer column as (owner, element width, address).  A numpy array as _numpy_column says; another
    writable, contiguous, one-dimensional buffer of 32-bit (or, with `wide`, 64-bit) signed integers is used
    in place; anything else is converted (TypeError for non-integers, gpuocc.Error "argument" for a value
    that does not fit)."""
    if numpy is not None and isinstance(values, numpy.ndarray):
        return _numpy_column(values, name, wide, numpy)
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


def _out_address(column: Any, name: str, code: str, n: int, numpy: Any) -> int:
    """The address of an `out=` column that holds exactly n elements of the output's C type, writable and
    contiguous; gpuocc.Error "argument" naming the column otherwise (checked before the call: the library
    writes n elements into it)."""
    if isinstance(column, array.array):
        if column.typecode != code:
            raise Error(_ERR_ARGUMENT, f"out[{name!r}]: array('{column.typecode}'), expected array('{code}')")
        if len(column) != n:
            raise Error(_ERR_ARGUMENT, f"out[{name!r}] has {len(column)} elements, the batch {n}")
        return column.buffer_info()[0] if n else 0
    if numpy is not None and isinstance(column, numpy.ndarray):
        want = numpy.dtype(_NUMPY_DTYPE[code])
        if column.dtype != want or column.ndim != 1 or not column.flags.c_contiguous or not column.flags.writeable:
            raise Error(_ERR_ARGUMENT, f"out[{name!r}]: a numpy array of dtype {column.dtype.str}, "
                        f"{column.ndim}-dimensional{'' if column.flags.writeable else ', read-only'}; expected a "
                        f"writable contiguous one-dimensional {want} array")
        if len(column) != n:
            raise Error(_ERR_ARGUMENT, f"out[{name!r}] has {len(column)} elements, the batch {n}")
        return column.ctypes.data if n else 0
    raise Error(_ERR_ARGUMENT, f"out[{name!r}]: {type(column).__name__}, expected array('{code}') or a numpy "
                f"{_NUMPY_DTYPE[code]} array")


def batch(dev: Union[Device, str], threads: Any = None, regs: Any = None, smem_static: Any = None,
          smem_dynamic: Any = None, *, barriers: Any = None, virtual_resources: Any = None, tmem_columns: Any = None,
          kern: Optional[Kernel] = None, out: Optional[Columns] = None) -> Columns:
    """gpuocc.occupancy() for many launches in one call: `threads`, `regs`, `smem_static`, `smem_dynamic`,
    `barriers`, `virtual_resources` and `tmem_columns` are equally long sequences or buffer-protocol arrays; a
    column left out takes the value of `kern` (default kernel(threads=1)), which also gives every launch its
    other fields (carveout, opt-in, AMD's and Intel's).  Every row is exactly occupancy()'s answer for that
    launch, or its refusal status.

    Arrays used in place, without a copy: array.array('i') (and 'q' for the shared-memory columns), numpy
    int32 arrays (and int64 for the shared-memory columns), contiguous and little-endian (views too).  Other
    integer arrays (numpy int64 threads, int16, uint8 ...) and sequences of ints are converted once.  A
    numpy array of any other dtype (bool, float, big-endian, object, str) raises TypeError naming the column.

    Returns a Columns mapping: the four launch columns (an array passed in place is that same object, not
    a copy), then status (0, or the library's code for a
    launch whose own values it rejects: gpuocc.status_name() names it; that row's other columns are 0),
    blocks_per_sm, warps_per_sm, occupancy, limiters (GPUOCC_LIMIT_* bits: gpuocc.limiter_names()),
    limit_warps, limit_regs, limit_smem, limit_blocks, limit_barriers (-1: no limit), regs_per_block,
    smem_per_block, smem_per_sm, on an AMD device waves_per_simd and limit_sgprs (-1: no limit), on an Intel
    device with an Xe-core count workgroups_per_gpu (int64: occupancy()'s, the work-groups resident on the
    whole GPU; 0 for a rejected row; no column without an Xe-core count, where occupancy() gives None and
    `gpuocc batch --json` null), as array.array, or numpy arrays when a numpy array was
    passed in.
    `out`: the Columns of an earlier call with as many rows (array.array or numpy columns); its output arrays
    are reused (overwritten) instead of allocating new ones, which is what keeps a loop of large batches
    fast.  Every output column of `out` is checked before the call (type, element type, length, writable).

    Raises TypeError for arguments of the wrong type, gpuocc.Error for a device or kernel the library
    rejects, columns of different lengths or an `out` column that does not fit ("argument")."""
    dev = _device_object(dev)
    if kern is None:
        kern = _DEFAULT_KERNEL
    dev_c, base = _pair(dev, kern)
    amd = dev_c.vendor == _VENDOR_AMD
    outputs = _BATCH_OUT + _BATCH_OUT_AMD if amd else _BATCH_OUT
    numpy = sys.modules.get("numpy")  # never imported here: a numpy array means numpy is loaded already
    given = (threads, regs, smem_static, smem_dynamic, barriers, virtual_resources, tmem_columns)
    want_numpy = numpy is not None and any(isinstance(v, numpy.ndarray) for v in given)
    cols: "dict[str, tuple[Any, int, Any]]" = {}
    for (name, _), values in zip(_INPUTS, given):
        if values is not None:
            cols[name] = _column(values, name, name.startswith("smem"), numpy)
    lengths = {len(owner) for owner, _, _ in cols.values()}
    if len(lengths) > 1:
        raise Error(_ERR_ARGUMENT, f"batch columns of different lengths: {sorted(lengths)}")
    n = lengths.pop() if lengths else 0
    smem = [name for name in ("smem_static", "smem_dynamic") if name in cols]
    if len({cols[name][1] for name in smem}) > 1:  # one width for both: widen the 32-bit one
        for name in smem:
            if cols[name][1] == 4:
                owner = (numpy.asarray(cols[name][0], dtype=numpy.int64) if want_numpy
                         else array.array("q", cols[name][0]))
                cols[name] = (owner, 8, (owner.ctypes.data if want_numpy else owner.buffer_info()[0]) if n else 0)
    width = cols[smem[0]][1] if smem else 8
    tail = {name: (numpy.zeros(n, dtype=_NUMPY_DTYPE[code]) if want_numpy else _ZEROS[code] * n)
            for name, code, _ in _BATCH_OUT_TAIL}
    tail_addresses = [(tail[name].ctypes.data if want_numpy else tail[name].buffer_info()[0]) if n else 0
                      for name, _, _ in _BATCH_OUT_TAIL]
    if out is not None:
        if not isinstance(out, Mapping):
            raise TypeError(f"out must be the gpuocc.Columns of an earlier batch(), not {type(out).__name__}")
        missing = [name for name, _, _ in outputs if name not in out]
        if missing:
            raise Error(_ERR_ARGUMENT, f"out: not the columns of a batch() on "
                        f"{'an AMD' if amd else 'an NVIDIA'} device (no {', '.join(missing)})")
        # AMD's columns in an NVIDIA batch's out would keep the earlier answers: refused, as the other way round
        if not amd and any(name in out for name, _, _ in _BATCH_OUT_AMD):
            raise Error(_ERR_ARGUMENT, "out: the columns of a batch() on an AMD device (waves_per_simd, "
                        "limit_sgprs), and this device is NVIDIA")
        results = {name: out[name] for name, _, _ in outputs}
        addresses = [_out_address(results[name], name, code, n, numpy) for name, code, _ in outputs]
    else:
        if want_numpy:
            results = {name: numpy.zeros(n, dtype=_NUMPY_DTYPE[code]) for name, code, _ in outputs}
            addresses = [results[name].ctypes.data if n else 0 for name, _, _ in outputs]
        else:
            results = {name: _ZEROS[code] * n for name, code, _ in outputs}
            addresses = [results[name].buffer_info()[0] if n else 0 for name, _, _ in outputs]
    if n:
        inputs = [cols[name][2] if name in cols else 0 for name, _ in _INPUTS]
        packed = _BATCH_PACK.pack(_BATCH_SIZE, width, *inputs[:4], *addresses, *([0] * (19 - 4 - len(addresses))),
                                  *inputs[4:], *tail_addresses)
        status = _batch_packed(dev._prepared(), base, packed, n)
        if status != _OK:
            raise Error(status, "batch")
        if dev_c.vendor == _VENDOR_INTEL and dev_c.sm_count > 0:  # null without an Xe-core count: no column
            results["workgroups_per_gpu"] = _workgroups(dev, base, cols, results["status"], n, want_numpy, numpy,
                                                        out)
    else:
        _call("gpuocc_device_validate", ctypes.byref(dev_c), where="device")
        if dev_c.vendor == _VENDOR_INTEL and dev_c.sm_count > 0:
            results["workgroups_per_gpu"] = numpy.zeros(0, dtype=numpy.int64) if want_numpy else array.array("q")
    columns: "dict[str, Any]" = {}
    for name, field_name in _INPUTS:
        if name in cols:
            columns[name] = cols[name][0]  # the caller's own array when it was used in place (no copy)
            continue
        value = getattr(base, field_name)
        if name in ("barriers", "virtual_resources", "tmem_columns") and name not in cols:
            continue  # the kernel's own value, in every row: no column of its own
        if want_numpy:
            columns[name] = numpy.full(n, value, dtype=numpy.int64 if name.startswith("smem") else numpy.int32)
        else:
            columns[name] = array.array("q" if name.startswith("smem") else "i", [value]) * n
    columns.update(results)
    columns["limit_virtual_resources"] = tail["limit_virtual_resources"]
    if isinstance(out, Columns):
        out._stale()  # its arrays hold this batch's answers now
    return Columns(columns, (_EXCEEDED, lambda: _exceeded_columns(tail["exceeded_code"], tail["exceeded_limit_raw"])))


# The columns `gpuocc batch` gives a launch that cannot run (docs/output.md): the input over a limit and the
# limit, as the library names them; turned into names on first read (Columns).
_EXCEEDED = ("exceeded", "exceeded_limit")


def _exceeded_columns(codes: Any, limits: Any) -> dict:
    """exceeded and exceeded_limit of each row, from the library's columns: the input's name and its limit,
    None and None where it names none.  Two lists (their values are names and counts, not one array type)."""
    names = [INPUT_NAMES[c] if 0 < c < len(INPUT_NAMES) else None for c in codes.tolist()]
    return {"exceeded": names, "exceeded_limit": [int(l) if name else None for name, l in zip(names, limits.tolist())]}


_BATCH_SIZE = ctypes.sizeof(_CBatch)


def _workgroups(dev: Device, base: Any, cols: Any, status: Any, n: int, want_numpy: bool, numpy: Any,
                out: Optional[Columns]) -> Any:
    """Intel's GPU-wide count of each row (gpuocc_batch has no such column): gpuocc_occupancy_prepared's
    workgroups_per_gpu on the prepared device, row by row, as the library itself answers Intel's batches;
    0 for a row the batch rejected."""
    column = out.get("workgroups_per_gpu") if out is not None else None
    if column is None or len(column) != n:
        column = numpy.zeros(n, dtype=numpy.int64) if want_numpy else array.array("q", bytes(8 * n))
    prepared = dev._prepared()
    k = _CKernel.from_buffer_copy(base)
    r = _CResult()
    size = ctypes.sizeof(_CResult)
    inputs = [(field, cols[name][0]) for name, field in _INPUTS if name in cols]
    for i in range(n):
        column[i] = 0
        if status[i] != _OK:
            continue
        for field, values in inputs:
            setattr(k, field, int(values[i]))
        r.size = size
        if _occupancy_prepared(prepared, k, r) == _OK:
            column[i] = r.workgroups_per_gpu
    return column


# ======================================================================================================
# Sweeps: one axis of a launch over a range
# ======================================================================================================
# GPUOCC_AXIS_* order ("smem" sweeps smem_dynamic), then Intel's sub_group and grf, which are swept here
# as `gpuocc sweep` sweeps them: each point occupancy()'s answer
AXES = ("threads", "regs", "smem", "barriers", "sub_group", "grf")
_LIBRARY_AXES = 4
_AXIS_ALIASES = {"slm": "smem", "sub-group": "sub_group"}  # Intel's spellings, as the CLI takes them
_AXIS_COLUMN = {"threads": "threads", "regs": "regs", "smem": "smem_dynamic", "barriers": "barriers",
                "sub_group": "sub_group", "grf": "grf"}
# The launch columns and the output columns, as `gpuocc batch` and `gpuocc sweep` print them.
_LAUNCH_COLUMNS = (("threads", "i"), ("regs", "i"), ("smem_static", "q"), ("smem_dynamic", "q"),
                   ("barriers", "i"), ("carveout", "i"), ("smem_optin", "i"))
# an AMD device's launch columns, as `gpuocc sweep` prints them (but model and rocm, the kernel's own strings)
_LAUNCH_COLUMNS_AMD = (("threads", "i"), ("regs", "i"), ("agprs", "i"), ("sgprs", "i"), ("smem_static", "q"),
                       ("smem_dynamic", "q"), ("wave_size", "i"), ("cu_mode", "i"), ("max_threads", "i"))
# an Intel device's, as `gpuocc sweep` prints them (but model, the kernel's own string); sub_group and grf with
# their defaults (16, 128) filled in
_LAUNCH_COLUMNS_INTEL = (("threads", "i"), ("sub_group", "i"), ("grf", "i"), ("smem_static", "q"),
                         ("smem_dynamic", "q"), ("barriers", "i"))
# the results of a point: batch()'s output columns (_BATCH_OUT), status 0 at every point
# (gpuocc_batch's field names are gpuocc_sweep_point's)
_POINT_COLUMNS = tuple(column for column in _BATCH_OUT if column[0] != "status")


def _axis(axis: Union[str, int]) -> int:
    if isinstance(axis, str):
        axis = _AXIS_ALIASES.get(axis, axis)
        if axis not in AXES:
            raise Error(_ERR_ARGUMENT, f"axis {axis!r}: expected one of {', '.join(AXES)}")
        return AXES.index(axis)
    return _i32(axis, "axis")


def _intel_range(d: Any, axis: int) -> tuple:
    """Intel's own axes at their natural step, as `gpuocc sweep` takes them: sub_group the device's sizes
    (from the smallest to the largest, by the smallest); grf 128 to the device's largest by 128, 32 to 256
    by 32 on Xe3 (the runtime's table)."""
    if AXES[axis] == "sub_group":
        sizes = [s for s in (8, 16, 32) if d.sub_group_sizes & s]
        return sizes[0], sizes[-1], sizes[0]
    xe3 = d.grf_table == 2  # GPUOCC_GRF_TABLE_XE3
    return (32, d.grf_max, 32) if xe3 else (128, d.grf_max, 128)


def sweep_range(dev: Union[Device, str], kern: Kernel, axis: Union[str, int]) -> tuple:
    """(from, to, step): the whole legal range of `axis` ("threads", "regs", "smem", "barriers"; Intel's
    "sub_group", "grf") at its natural granularity (warp size, 1 register, the shared-memory allocation unit,
    1 barrier; the smallest sub-group size, 128 GRF registers, 32 on Xe3)."""
    a = _axis(axis)
    if a >= _LIBRARY_AXES:
        return _intel_range(_sweep_pair(dev, kern, a)[0], a)
    lo, hi, step = c_i64(), c_i64(), c_i64()
    _call("gpuocc_sweep_range", *_pair_refs(dev, kern), _axis(axis),
          ctypes.byref(lo), ctypes.byref(hi), ctypes.byref(step), where="sweep_range")
    return lo.value, hi.value, step.value


def _columns(dev: Union[Device, str], d: Any, kern: Kernel, axis: int, points: Any) -> Columns:
    cols = {}
    swept = _AXIS_COLUMN[AXES[axis]]
    amd, intel = d.vendor == _VENDOR_AMD, d.vendor == _VENDOR_INTEL
    for name, code in _LAUNCH_COLUMNS_AMD if amd else _LAUNCH_COLUMNS_INTEL if intel else _LAUNCH_COLUMNS:
        if name == swept:
            cols[name] = array.array(code, (p.value for p in points))
        else:
            value = int(getattr(kern, name))
            if name == "wave_size" and value == 0:  # as `gpuocc sweep` prints it: the target's default
                value = d.warp_size
            if name == "sub_group" and value == 0:  # Intel's defaults, as `gpuocc sweep` prints them
                value = d.warp_size
            if name == "grf" and value == 0:
                value = 128
            cols[name] = array.array(code, [value]) * len(points)
    cols["status"] = array.array("i", [0]) * len(points)  # a point the library cannot answer fails the call
    for name, code, c_name in _POINT_COLUMNS:
        cols[name] = array.array(code, (getattr(p, c_name) for p in points))
    if amd:  # AMD's answers a sweep point does not carry: the same launches as one batch
        answers = batch(dev, cols["threads"], cols["regs"], cols["smem_static"], cols["smem_dynamic"], kern=kern)
        for name, _, _ in _BATCH_OUT_AMD:
            cols[name] = answers[name]
    if not amd and not intel:  # NVIDIA's virtual-resource limit, batch's column: no axis moves it, so the first
        # point's occupancy() holds at every point (-1: no limit, as batch's column has it)
        first = occupancy(dev, _at(kern, swept, points[0].value)).limit_virtual_resources if points else None
        cols["limit_virtual_resources"] = array.array("i", [-1 if first is None else first]) * len(points)
    if intel and d.sm_count > 0:  # Intel's GPU-wide count a sweep point does not carry: occupancy() at each point
        cols["workgroups_per_gpu"] = array.array("q", (occupancy(dev, _at(kern, swept, p.value)).workgroups_per_gpu
                                                       for p in points))
    return Columns(cols)


def _at(kern: Kernel, column: str, value: int) -> Kernel:
    """The kernel with a sweep's column set to value (Kernel's field names are the columns')."""
    return dataclasses.replace(kern, **{column: value})


class _Point:
    """A sweep point of Intel's own axes: gpuocc_sweep_point's fields from occupancy()'s Result."""

    def __init__(self, value: int, r: Any) -> None:
        self.value = value
        for name, _, c_name in _POINT_COLUMNS:
            v = getattr(r, name)
            if name == "limiters":
                v = sum(1 << RESOURCES.index(n) for n in v)
            elif v is None:
                v = -1
            setattr(self, c_name, v)
        self.answer = (r.blocks_per_sm, r.warps_per_sm, r.limiters)


def _intel_points(dev: Union[Device, str], d: Any, kern: Kernel, axis: int, from_: int, to: int, step: int,
                  steps: bool) -> list:
    """The points of Intel's sub_group and grf axes, as `gpuocc sweep` gives them: the sub_group axis holds
    only the device's sizes; steps are the values (unit resolution) where the answer changes."""
    name = AXES[axis]
    most = 1024 if name == "grf" else 32
    if from_ < 0 or to > most or to < from_ or step < 1:
        raise Error(_ERR_ARGUMENT, f"axis {name!r}: from {from_} to {to} by {step}: the axis runs 0 .. {most}")
    points: list = []
    for v in range(from_, to + 1, 1 if steps else step):
        if name == "sub_group" and not (v in (8, 16, 32) and d.sub_group_sizes & v):
            continue
        p = _Point(v, occupancy(dev, _at(kern, name, v)))
        if not (steps and points and points[-1].answer == p.answer):
            points.append(p)
    if not points:
        raise Error(_ERR_ARGUMENT, f"axis {name!r}: no sub-group size of the device from {from_} to {to}")
    return points


def _sweep_pair(dev: Union[Device, str], kern: Kernel, axis: Union[str, int]) -> tuple:
    """The C device, kernel and axis of a sweep; the axes a vendor's rules do not move are refused, as `gpuocc
    sweep` refuses them: barriers on AMD, regs on Intel, sub_group and grf elsewhere."""
    (d, k), a = _pair(dev, kern), _axis(axis)
    if a == AXES.index("barriers") and d.vendor == _VENDOR_AMD:
        raise Error(_ERR_ARGUMENT, "axis 'barriers': NVIDIA and Intel only (the device is AMD: its rules count no "
                    "barriers)")
    if a == AXES.index("regs") and d.vendor == _VENDOR_INTEL:
        raise Error(_ERR_ARGUMENT, "axis 'regs': registers per thread do not apply to Intel: sweep 'grf'")
    if a >= _LIBRARY_AXES and d.vendor != _VENDOR_INTEL:
        raise Error(_ERR_ARGUMENT, f"axis {AXES[a]!r}: Intel only")
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
    smem_per_sm, on an NVIDIA device limit_virtual_resources (-1: none; the same at every point), and on an AMD
    device waves_per_simd and limit_sgprs.  The barriers axis is NVIDIA's.

        >>> c = sweep("A100", kernel(threads=256), "regs", 16, 128, 48)
        >>> list(c["regs"]), list(c["occupancy"])
        ([16, 64, 112], [1.0, 0.5, 0.25])

    Raises gpuocc.Error ("argument" for an unknown axis or an empty range, "threads"/"registers"/
    "smem"/"barriers" for a start below the axis' range, "overflow" past 2^31 points)."""
    d, k, a = _sweep_pair(dev, kern, axis)
    if from_ is None or to is None or step is None:
        lo, hi, unit = sweep_range(dev, kern, a)
        from_, to, step = (lo if from_ is None else from_), (hi if to is None else to), (unit if step is None else step)
    if a >= _LIBRARY_AXES:
        return _columns(dev, d, kern, a, _intel_points(dev, d, kern, a, _i64(from_, "from_"), _i64(to, "to"),
                                                       _i64(step, "step"), False))
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
    if a >= _LIBRARY_AXES:
        return _columns(dev, d, kern, a, _intel_points(dev, d, kern, a, _i64(from_, "from_"), _i64(to, "to"), 1,
                                                       True))
    return _columns(dev, d, kern, a, _points("gpuocc_sweep_steps", d, k, a, _i64(from_, "from_"), _i64(to, "to")))
