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
Imports _library, _types, _occupancy, _batch and _fits."""
from __future__ import annotations

import numbers
from typing import Any, Callable, Optional, Union

from ._fits import Fits, fits
from ._occupancy import _device_object
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


class _Prune:
    """The callable Triton's prune_configs_by={"early_config_prune": ...} takes: (configs, named_args,
    **kwargs) -> the configurations that fit, in their order.  `last` holds the Fits of the last call
    (each Fit says why: blocks_per_sm, limiters, exceeded, regs_judged); `device` the device."""

    def __init__(self, dev: Device, smem: Any, min_occupancy: float, min_blocks: int, kern: Optional[Kernel]):
        self.device = dev
        self._smem = _smem_rule(smem)
        self._min_occupancy, self._min_blocks, self._kern = min_occupancy, min_blocks, kern
        self.last: Optional[Fits] = None

    def __call__(self, configs: Any, named_args: Any = None, **kwargs: Any) -> list:
        configs = list(configs)
        warp = self.device.warp_size
        rows = [config_launch(c, warp, self._smem) for c in configs]
        self.last = fits(rows, self.device, kern=self._kern, min_blocks=self._min_blocks,
                         min_occupancy=self._min_occupancy)
        return self.last.kept(configs)


def early_config_prune(device: Union[Device, str], smem: Any = None, *, min_occupancy: float = 0.0,
                       min_blocks: int = 1, kern: Optional[Kernel] = None) -> _Prune:
    """The function for triton.autotune(..., prune_configs_by={"early_config_prune": fn}): it keeps the
    configurations whose launch fits `device` with at least `min_blocks` blocks per SM and `min_occupancy`
    (0..1), as gpuocc.fits() answers them (see the module's docstring for how a configuration becomes a
    launch).  `kern` gives the launch's other fields (static shared memory, carveout, a known register
    count...).  When none fits it returns [], and Triton stops with its own error; fn.last says why."""
    return _Prune(_device_object(device), smem, min_occupancy, min_blocks, kern)
