"""Fit checks: which of many configurations fit a device, answered in order and vectorised through batch().
Imports _library, _types, _occupancy and _batch."""
from __future__ import annotations

import array
import dataclasses
import numbers
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Optional, Union

from ._library import Error, _ERR_ARGUMENT, status_name
from ._occupancy import _device_object, cluster_check, cluster_occupancy
from ._types import RESOURCES, Device, Kernel
from ._batch import batch

# The batch's input columns (gpuocc_batch), and the vocabulary keys fits() also reads per configuration:
# max_regs (the register cap the kernel is compiled under: Triton's maxnreg, ptxas' -maxrregcount) and the
# cluster's shape.  Every other key of the vocabulary is a kernel field, the same for the configurations
# that give the same value (one batch per distinct set of them).
_COLUMNS = ("threads", "regs", "smem_static", "smem_dynamic", "barriers", "virtual_resources", "tmem_columns")
_PER_ROW = ("max_regs", "cluster_x", "cluster_y", "cluster_z")
_KERNEL_FIELDS = tuple(f.name for f in dataclasses.fields(Kernel) if f.name not in _COLUMNS)
_ROW_KEYS = frozenset(_COLUMNS + _PER_ROW)
_KERNEL_KEYS = frozenset(_KERNEL_FIELDS)
# Names from elsewhere that are not the vocabulary's, and what to give instead
_NOT_VOCABULARY = {
    "num_warps": "threads = num_warps x the device's warp size (gpuocc.triton converts Triton's configs)",
    "maxnreg": "max_regs (Triton's maxnreg is the vocabulary's max_regs)",
    "num_stages": "smem_dynamic = base bytes + bytes per stage x num_stages (gpuocc.max_stages; gpuocc.triton "
                  "converts Triton's configs)",
    "num_ctas": "cluster_x (Triton's num_ctas is the blocks of a cluster)",
    "shared": "smem_dynamic (a Triton kernel's shared memory is dynamic)",
    "registers": "regs", "block_size": "threads", "threads_per_block": "threads",
    "smem": "smem_static or smem_dynamic", "carveout_percent": "carveout",
}


def _unknown(key: Any) -> TypeError:
    hint = _NOT_VOCABULARY.get(key)
    known = ", ".join(_COLUMNS + _PER_ROW + _KERNEL_FIELDS)
    return TypeError(f"configuration key {key!r} is not a vocabulary name" +
                     (f": give {hint}" if hint else f" (docs/vocabulary.md; one of {known})"))


@dataclasses.dataclass(frozen=True)
class Fit:
    """One configuration's answer (fits()): truthy when it fits.  `fits`: the launch runs, with at least
    min_blocks blocks per SM and min_occupancy, and its cluster (if any) is legal and resident;
    blocks_per_sm, occupancy, limiters, as occupancy() gives them (0, 0.0, () for a launch the library
    refuses); exceeded / exceeded_limit: the input over a limit when it cannot run (None when none);
    status: "ok" or the refusal's status name; regs_judged: False when no register count was given (no
    regs, no max_regs, none in the base kernel): registers were not counted, as before a compile;
    cluster: None without a cluster, else cluster_check()'s verdict; clusters_max: the clusters resident
    at once (cluster_occupancy), None without a cluster or when it is not legal."""
    fits: bool
    blocks_per_sm: int
    occupancy: float
    limiters: tuple
    exceeded: Optional[str]
    exceeded_limit: Optional[int]
    status: str
    regs_judged: bool
    cluster: Optional[str] = None
    clusters_max: Optional[int] = None

    def __bool__(self) -> bool:
        return self.fits


def _limiter_names(mask: int) -> tuple:
    return tuple(name for i, name in enumerate(RESOURCES) if mask >> i & 1)


class _Group:
    """The configurations that share their kernel fields: one batch()."""
    __slots__ = ("kern", "columns", "clusters", "judged")

    def __init__(self, kern: Kernel, columns: Any, clusters: Any, judged: Any) -> None:
        self.kern, self.columns, self.clusters, self.judged = kern, columns, clusters, judged


class Fits(Sequence):
    """fits()'s answer: a sequence of Fit, one per configuration in the order given, each built when it is
    first read.  mask(): every configuration's verdict at once (a numpy bool array when numpy columns were
    given, else a list of bools); kept(configs): the configurations that fit; columns: batch()'s Columns
    (of the first group of configurations that share their kernel fields: the only one, usually)."""

    def __init__(self, dev: Device, groups: list, where: Optional[Any], count: int, min_blocks: int,
                 min_occupancy: float) -> None:
        self._dev, self._groups, self._where, self._count = dev, groups, where, count
        self._min_blocks, self._min_occupancy = min_blocks, min_occupancy
        self._built: "dict[int, Fit]" = {}
        self._cluster_cache: "dict[tuple, tuple]" = {}

    @property
    def columns(self) -> Any:
        return self._groups[0].columns if self._groups else None

    def __len__(self) -> int:
        return self._count

    def _locate(self, i: int) -> "tuple[_Group, int]":
        if self._where is None:
            return self._groups[0], i
        g, j = self._where[i]
        return self._groups[g], j

    def _cluster(self, group: _Group, j: int, blocks: int) -> "tuple[str, Optional[int]]":
        shape = tuple(int(c[j]) for c in group.clusters)
        key = (shape, blocks)
        answer = self._cluster_cache.get(key)
        if answer is None:
            verdict = cluster_check(self._dev, shape)
            resident = None
            if verdict in ("legal", "unverified"):
                # the resident clusters depend on the blocks per SM and the cluster's size only
                c = group.columns
                k = dataclasses.replace(group.kern, **{name: int(c[name][j]) for name in _COLUMNS if name in c})
                resident = cluster_occupancy(self._dev, k, shape).clusters_max
            answer = self._cluster_cache[key] = (verdict, resident)
        return answer

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._count))]
        if i < 0:
            i += self._count
        if not 0 <= i < self._count:
            raise IndexError("fits index out of range")
        fit = self._built.get(i)
        if fit is not None:
            return fit
        group, j = self._locate(i)
        c = group.columns
        status = int(c["status"][j])
        blocks, occ = int(c["blocks_per_sm"][j]), float(c["occupancy"][j])
        ok = status == 0 and blocks >= self._min_blocks and occ >= self._min_occupancy
        verdict = resident = None
        if group.clusters is not None and status == 0 and blocks > 0 and \
                int(group.clusters[0][j]) * int(group.clusters[1][j]) * int(group.clusters[2][j]) > 1:
            verdict, resident = self._cluster(group, j, blocks)
            ok = ok and resident is not None and resident > 0
        fit = Fit(fits=ok, blocks_per_sm=blocks, occupancy=occ, limiters=_limiter_names(int(c["limiters"][j])),
                  exceeded=c["exceeded"][j], exceeded_limit=c["exceeded_limit"][j],
                  status=status_name(status) if status else "ok", regs_judged=bool(group.judged[j]),
                  cluster=verdict, clusters_max=resident)
        self._built[i] = fit
        return fit

    def mask(self) -> Any:
        """Every configuration's verdict: bool(self[i]) for each i, computed column-wise."""
        numpy = sys.modules.get("numpy")
        if self._where is None and len(self._groups) == 1 and self._groups[0].clusters is None:
            c = self._groups[0].columns
            status, blocks, occ = c["status"], c["blocks_per_sm"], c["occupancy"]
            if numpy is not None and isinstance(status, numpy.ndarray):
                return (status == 0) & (blocks >= self._min_blocks) & (occ >= self._min_occupancy)
            lo_b, lo_o = self._min_blocks, self._min_occupancy
            return [s == 0 and b >= lo_b and o >= lo_o for s, b, o in zip(status, blocks, occ)]
        return [bool(self[i]) for i in range(self._count)]

    def kept(self, configs: Sequence) -> list:
        """The configurations (as given to fits(), in order) whose answer fits."""
        if len(configs) != self._count:
            raise Error(_ERR_ARGUMENT, f"kept(): {len(configs)} configurations, the answer has {self._count}")
        return [c for c, ok in zip(configs, self.mask()) if ok]

    def __repr__(self) -> str:
        return f"gpuocc.Fits({self._count} configurations)"


def _is_scalar(value: Any) -> bool:
    return isinstance(value, (numbers.Integral, str, bool)) or value is None


def _with_fields(kern: Kernel, fields: Any) -> Kernel:
    try:
        return dataclasses.replace(kern, **dict(fields)) if fields else kern
    except TypeError as e:
        raise TypeError(f"configuration: {e}") from None


def _registers(regs: Any, max_regs: Any, base_regs: int, n: int) -> "tuple[Any, Any]":
    """The register column each launch is judged at, and whether it was judged at all: the count given;
    with max_regs the cap (the most the compiler may allocate: what fits at the cap fits at any count
    below it, whatever the compile gives), or the smaller of the two; neither: the base kernel's count,
    judged when it is not 0.  Lists of ints or None."""
    judged = [True] * n
    out = [0] * n
    for i in range(n):
        r = regs[i] if regs is not None else None
        m = max_regs[i] if max_regs is not None else None
        if r is None and m is None:
            out[i], judged[i] = base_regs, base_regs > 0
        elif m is None:
            out[i] = r
        elif r is None:
            out[i] = m
        else:
            out[i] = min(r, m)
    return out, judged


def _from_rows(rows: Sequence, kern: Kernel) -> "tuple[list, Optional[list]]":
    """Iterable of mappings -> the groups' inputs: [(kernel, columns dict, row indexes or None)], and each
    configuration's (group, index in it) when there are several groups."""
    n = len(rows)
    cols: "dict[str, list]" = {}
    group_keys: "dict[tuple, int]" = {}
    group_of: "Optional[list]" = None
    for i, cfg in enumerate(rows):
        if not isinstance(cfg, Mapping):
            raise TypeError(f"configuration {i}: a mapping of vocabulary names to values, not "
                            f"{type(cfg).__name__}")
        extra = None
        for key, value in cfg.items():
            col = cols.get(key)
            if col is not None:
                col[i] = value
            elif key in _ROW_KEYS:
                col = cols[key] = [None] * n
                col[i] = value
            elif key in _KERNEL_KEYS:
                if extra is None:
                    extra = []
                extra.append((key, value))
            else:
                raise _unknown(key)
        if extra is not None or group_of is not None:
            if group_of is None:
                group_of = [0] * n
                group_keys[()] = 0
            k = tuple(sorted(extra)) if extra else ()
            g = group_keys.get(k)
            if g is None:
                g = group_keys[k] = len(group_keys)
            group_of[i] = g
    if group_of is None:
        return [(kern, cols, None)], None
    groups, where = [], [None] * n
    members: "list[list[int]]" = [[] for _ in group_keys]
    for i, g in enumerate(group_of):
        where[i] = (g, len(members[g]))
        members[g].append(i)
    for fields, g in sorted(group_keys.items(), key=lambda item: item[1]):
        idx = members[g]
        groups.append((_with_fields(kern, fields), {name: [col[i] for i in idx] for name, col in cols.items()}, idx))
    return groups, where


def _group(dev: Device, kern: Kernel, cols: "dict[str, Any]", n: int) -> _Group:
    """One batch() over a group's columns (lists holding None where a configuration left a key out, or the
    caller's arrays)."""
    numpy = sys.modules.get("numpy")
    inputs = {}
    for name in _COLUMNS:
        values = cols.get(name)
        if values is None or name == "regs":
            continue
        if isinstance(values, list) and None in values:
            default = getattr(kern, name)
            values = [default if v is None else v for v in values]
        inputs[name] = values
    regs, max_regs = cols.get("regs"), cols.get("max_regs")
    if regs is None and max_regs is None:
        judged = _ALL_JUDGED if kern.regs > 0 else _NONE_JUDGED
    elif isinstance(regs, list) or isinstance(max_regs, list):  # configurations as mappings: keys left out
        inputs["regs"], judged = _registers(regs, max_regs if max_regs is None else list(max_regs), kern.regs, n)
    elif max_regs is None:
        inputs["regs"], judged = regs, _ALL_JUDGED  # the caller's column, in place
    elif numpy is not None and isinstance(max_regs, numpy.ndarray):  # the cap, or the smaller of the two
        inputs["regs"], judged = max_regs if regs is None else numpy.minimum(regs, max_regs), _ALL_JUDGED
    else:
        inputs["regs"], judged = _registers(None if regs is None else list(regs), list(max_regs), kern.regs, n)
    columns = batch(dev, kern=kern, **inputs) if inputs else batch(dev, threads=[kern.threads] * n, kern=kern)
    clusters = None
    if any(cols.get(name) is not None for name in _PER_ROW[1:]):
        clusters = tuple(_filled(cols.get(name), 1, n) for name in _PER_ROW[1:])
    return _Group(kern, columns, clusters, judged)


class _Constant:
    """A read-only column of one value (regs_judged of a group that gave all or none)."""
    __slots__ = ("value",)

    def __init__(self, value: bool) -> None:
        self.value = value

    def __getitem__(self, i: int) -> bool:
        return self.value


_ALL_JUDGED, _NONE_JUDGED = _Constant(True), _Constant(False)


def _filled(values: Any, default: int, n: int) -> Any:
    if values is None:
        return [default] * n
    if isinstance(values, list):
        return [default if v is None else v for v in values]
    return values


def _from_columns(configs: Mapping, kern: Kernel, n_hint: Optional[int]) -> "tuple[Kernel, dict, int]":
    """A mapping of columns -> (the kernel with the scalar fields, the columns, their length)."""
    cols: "dict[str, Any]" = {}
    fields = []
    for key, values in configs.items():
        if key not in _ROW_KEYS and key not in _KERNEL_KEYS:
            raise _unknown(key)
        if _is_scalar(values):
            if key in _KERNEL_KEYS or key in _COLUMNS:
                fields.append((key, values))
            else:
                cols[key] = values  # a per-row name given once: broadcast below
        elif key in _KERNEL_KEYS:
            raise TypeError(f"{key}: a kernel field, one value for every configuration (give it once, or give "
                            "the configurations as mappings, which groups them by it)")
        else:
            cols[key] = values
    lengths = {len(v) for v in cols.values() if not _is_scalar(v)}
    if len(lengths) > 1:
        raise Error(_ERR_ARGUMENT, f"fits: columns of different lengths: {sorted(lengths)}")
    n = lengths.pop() if lengths else (n_hint or 0)
    for key, values in list(cols.items()):
        if _is_scalar(values):
            cols[key] = [values] * n
    return _with_fields(kern, fields), cols, n


def fits(configs: Union[Mapping, Iterable], dev: Union[Device, str], *, kern: Optional[Kernel] = None,
         min_blocks: int = 1, min_occupancy: float = 0.0) -> Fits:
    """Which configurations fit `dev`, in the order given: a Fits sequence of Fit, each truthy when its
    launch runs with at least `min_blocks` blocks per SM and `min_occupancy` (0..1), and its cluster, if it
    has one, is legal and resident.  Answers are occupancy()'s, computed through one batch() per set of
    kernel fields; each Fit is built when first read (Fits.mask() gives every verdict at once).

    `configs`: a mapping of columns (numpy or array.array columns are used in place, as batch() uses them;
    scalars apply to every configuration), or an iterable of mappings, one per configuration.  Keys are the
    vocabulary's short names (docs/vocabulary.md): the batch columns threads, regs, smem_static,
    smem_dynamic, barriers, virtual_resources, tmem_columns; max_regs (a register cap, Triton's maxnreg:
    judged at the cap where regs is not given, else at the smaller); cluster_x, cluster_y, cluster_z; and
    the kernel fields (carveout, smem_optin, wave_size, sub_group, ...).  A key left out takes the value of
    `kern` (default: kernel(threads=1)).  Without any register count (regs, max_regs or the kernel's), the
    registers are not judged: Fit.regs_judged says so.  An unknown key raises TypeError naming it (Triton's
    num_warps, num_stages, maxnreg, num_ctas are not vocabulary names: gpuocc.triton converts them)."""
    dev = _device_object(dev)
    if kern is None:
        kern = Kernel()
    if not isinstance(kern, Kernel):
        raise TypeError(f"kern must be a gpuocc.Kernel, not {type(kern).__name__}")
    if not isinstance(min_blocks, numbers.Integral) or isinstance(min_blocks, bool):
        raise TypeError("min_blocks must be an int")
    if not isinstance(min_occupancy, numbers.Real) or isinstance(min_occupancy, bool):
        raise TypeError("min_occupancy must be a number")
    if isinstance(configs, Mapping):
        k, cols, n = _from_columns(configs, kern, None)
        groups = [_group(dev, k, cols, n)]
        where = None
    else:
        if isinstance(configs, (str, bytes)):
            raise TypeError("configs: a mapping of columns or an iterable of mappings, not a string")
        rows = configs if isinstance(configs, Sequence) else list(configs)
        n = len(rows)
        parts, where = _from_rows(rows, kern)
        groups = [_group(dev, k, cols, len(idx) if idx is not None else n) for k, cols, idx in parts]
    return Fits(dev, groups, where, n, int(min_blocks), float(min_occupancy))
