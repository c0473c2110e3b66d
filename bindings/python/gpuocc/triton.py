"""gpuocc.triton: Triton's autotuner configurations checked before anything is compiled or timed.

    import triton, gpuocc.triton
    prune = gpuocc.triton.early_config_prune("H100", smem=(0, 32 * 1024), min_occupancy=0.25)
    @triton.autotune(configs=[...], key=["M", "N"], prune_configs_by={"early_config_prune": prune})

Importing this module does not import Triton: it reads only the attributes of the configurations Triton hands
it (num_warps, num_stages, num_ctas, maxnreg, kwargs).  A configuration becomes a launch of the vocabulary
(docs/vocabulary.md) and is answered by gpuocc.fits():
  threads      num_warps x the device's warp size (32; AMD: its default wave size, 64 on CDNA);
  max_regs     maxnreg, the register cap the kernel is compiled under: judged at the cap (whatever the compile
               gives is at most that).  Without maxnreg the registers are not known before the compile and
               are not judged: Fit.regs_judged is False for it (prune.last);
  cluster_x    num_ctas, when above 1 (Triton's CTAs of one cluster): the cluster must be legal and resident;
  smem_dynamic smem(config) when `smem` is a callable of the configuration (its kwargs hold the block sizes),
               or base + per_stage x num_stages when it is a pair (base, per_stage); None: not judged.
After the compile, `compiled` (a callable of the configuration giving its compiled kernel, as
triton.compile returns it) judges each configuration from that kernel instead (compiled_launch): the
launch from its metadata, the registers and static shared memory from its own binary.
Imports _library, _types, _occupancy, _batch, _readers and _fits."""
from __future__ import annotations

import numbers
from typing import Any, Callable, Optional, Union

from ._fits import Fits, fits
from ._library import Error, _ERR_ARGUMENT
from ._occupancy import _device_object
from ._readers import binary_kernel_registers, read_binary
from ._types import Device, Kernel


def _smem_rule(smem: Any) -> Optional[Callable[[Any], int]]:
    if smem is None:
        return None
    if callable(smem):
        return smem
    if isinstance(smem, tuple) and len(smem) == 2 and all(isinstance(v, numbers.Integral) for v in smem):
        base, per_stage = smem
        return lambda config: base + per_stage * config.num_stages
    raise TypeError("smem: a callable of the triton.Config giving its dynamic shared memory in bytes, or a pair "
                    "(base bytes, bytes per stage) multiplied by num_stages")


def config_launch(config: Any, warp_size: int, smem: Optional[Callable[[Any], int]] = None) -> dict:
    """One triton.Config as a mapping of vocabulary names, as early_config_prune() judges it."""
    row = {"threads": int(config.num_warps) * warp_size}
    maxnreg = getattr(config, "maxnreg", None)
    if maxnreg is not None:
        row["max_regs"] = int(maxnreg)
    num_ctas = int(getattr(config, "num_ctas", 1) or 1)
    if num_ctas > 1:
        row["cluster_x"] = num_ctas
    if smem is not None:
        row["smem_dynamic"] = int(smem(config))
    return row


def target_device(target: Any) -> Union[Device, str]:
    """The device a Triton target names (triton.backends.compiler.GPUTarget, or its backend and arch as
    metadata.target holds them): cuda's arch 90 is "sm_90", hip's "gfx942:sramecc+:xnack-" is "gfx942"; a
    Device or a name is returned as it is.  Raises TypeError for anything else."""
    if isinstance(target, (Device, str)):
        return target
    backend, arch = _field(target, "backend"), _field(target, "arch")
    if backend == "cuda" and isinstance(arch, int) and not isinstance(arch, bool):
        return f"sm_{arch}"
    if backend == "hip" and isinstance(arch, str):
        return arch.split(":")[0]
    raise TypeError(f"device: a gpuocc.Device, a device name or a Triton GPUTarget of cuda or hip, not {target!r}")


def _field(metadata: Any, name: str, default: Any = None) -> Any:
    if isinstance(metadata, dict):
        return metadata.get(name, default)
    return getattr(metadata, name, default)


def compiled_launch(compiled: Any, device: Union[Device, str, None] = None) -> dict:
    """A compiled Triton kernel (what triton.compile returns, or anything with its `metadata` and `asm`) as
    a mapping of vocabulary names, the launch Triton's launcher makes of it:
      threads       metadata.num_warps x the target's warp size (metadata.target, else metadata.warp_size);
      smem_dynamic  metadata.shared (the launcher passes it as the dynamic shared memory);
      cluster_x     metadata.num_ctas, when above 1 (or cluster_dims where an older Triton wrote them);
      tmem_columns  metadata.tmem_size, when above 0;
      regs, smem_static (and virtual_resources) from the kernel's own binary (asm["cubin"]; AMD: asm["hsaco"],
                    whose registers are split as binary_kernel_registers splits them on `device`, by default
                    the one metadata.target names), the kernel named metadata.name.
    Raises TypeError for an object without metadata or asm; gpuocc.Error "argument" when the binary is
    missing or does not hold the kernel, and the reader's error when it cannot be read."""
    metadata, asm = getattr(compiled, "metadata", None), getattr(compiled, "asm", None)
    if metadata is None or asm is None:
        raise TypeError("compiled: a compiled Triton kernel (triton.compile's answer: .metadata and .asm), not "
                        f"{type(compiled).__name__}")
    name = _field(metadata, "name")
    target = _field(metadata, "target")
    warp = _field(target, "warp_size") if target is not None else None
    warp = int(warp or _field(metadata, "warp_size", 0) or 32)
    binary = asm.get("cubin") or asm.get("hsaco")
    if not binary:
        raise Error(_ERR_ARGUMENT, f"compiled_launch: kernel {name!r} has no binary (asm has {sorted(asm)})")
    found = [k for k in read_binary(binary) if k.short_name == name]
    if not found:
        raise Error(_ERR_ARGUMENT, f"compiled_launch: the binary holds no kernel named {name!r}")
    k = found[0]
    row = {"threads": int(_field(metadata, "num_warps")) * warp,
           "smem_dynamic": int(_field(metadata, "shared", 0) or 0),
           "smem_static": k.smem_static or 0}
    if k.vendor == "amd":
        dev = _device_object(target_device(device if device is not None else target))
        row["regs"], agprs = binary_kernel_registers(dev, k)
        row.update(agprs=agprs, sgprs=k.sgprs or 0, wave_size=k.wave_size or warp)
    else:
        row["regs"] = k.registers
        if k.virtual_resources:
            row["virtual_resources"] = k.virtual_resources
    # an older Triton's cluster_dims (0 where unset), else num_ctas blocks along x, as gpuocc binary DIR takes them
    dims = [int(v or 0) for v in (_field(metadata, "cluster_dims") or ())][:3]
    dims += [0] * (3 - len(dims))
    num_ctas = int(_field(metadata, "num_ctas", 1) or 1)
    if dims[0] <= 0 and num_ctas > 1:
        dims = [num_ctas, 1, 1]
    shape = [dims[0], max(dims[1], 1), max(dims[2], 1)]
    if dims[0] > 0 and shape[0] * shape[1] * shape[2] > 1:
        row.update(zip(("cluster_x", "cluster_y", "cluster_z"), shape))
    tmem = int(_field(metadata, "tmem_size", 0) or 0)
    if tmem > 0:
        row["tmem_columns"] = tmem
    return row


class _Prune:
    """The callable Triton's prune_configs_by={"early_config_prune": ...} takes: (configs, named_args,
    **kwargs) -> the configurations that fit, in their order.  `last` holds the Fits of the last call
    (each Fit says why: blocks_per_sm, limiters, exceeded, regs_judged); `device` the device."""

    def __init__(self, dev: Device, smem: Any, min_occupancy: float, min_blocks: int, kern: Optional[Kernel],
                 compiled: Optional[Callable[[Any], Any]] = None):
        if compiled is not None and not callable(compiled):
            raise TypeError("compiled: a callable of the triton.Config giving its compiled kernel")
        self.device = dev
        self._smem = _smem_rule(smem)
        self._compiled = compiled
        self._min_occupancy, self._min_blocks, self._kern = min_occupancy, min_blocks, kern
        self.last: Optional[Fits] = None

    def __call__(self, configs: Any, named_args: Any = None, **kwargs: Any) -> list:
        configs = list(configs)
        warp = self.device.warp_size
        if self._compiled is not None:
            rows = [compiled_launch(self._compiled(c), self.device) for c in configs]
        else:
            rows = [config_launch(c, warp, self._smem) for c in configs]
        self.last = fits(rows, self.device, kern=self._kern, min_blocks=self._min_blocks,
                         min_occupancy=self._min_occupancy)
        return self.last.kept(configs)


def early_config_prune(device: Any, smem: Any = None, *, min_occupancy: float = 0.0,
                       min_blocks: int = 1, kern: Optional[Kernel] = None,
                       compiled: Optional[Callable[[Any], Any]] = None) -> _Prune:
    """The function for triton.autotune(..., prune_configs_by={"early_config_prune": fn}): it keeps the
    configurations whose launch fits `device` (a Device, a name, or the Triton GPUTarget compiled for:
    target_device) with at least `min_blocks` blocks per SM and `min_occupancy`
    (0..1), as gpuocc.fits() answers them (see the module's docstring for how a configuration becomes a
    launch).  `kern` gives the launch's other fields (static shared memory, carveout, a known register
    count...).  `compiled`, a callable of the configuration giving its compiled kernel (triton.compile's
    answer, for this device's target), judges each configuration after the compile instead, from that
    kernel's metadata and binary (compiled_launch; `smem` is then not used).  When none fits it returns [],
    and Triton stops with its own error; fn.last says why."""
    return _Prune(_device_object(target_device(device)), smem, min_occupancy, min_blocks, kern, compiled)
