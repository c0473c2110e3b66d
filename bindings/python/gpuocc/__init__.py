"""gpuocc from Python: exact GPU occupancy, latency-hiding models and compiler-output reading.

    import gpuocc
    dev = gpuocc.device("H100")
    r = gpuocc.occupancy(dev, gpuocc.kernel(threads=256, regs=64))
    r.blocks_per_sm, r.occupancy, r.limiters          # 4, 0.5, ('registers',)

Pure Python over the C library (ctypes, no compiled extension).  Results are frozen dataclasses:
readable, comparable, `dataclasses.asdict()` gives plain JSON-serialisable values; "no limit" is None.
Keyword names are the short names the CLI and CSV use (docs/vocabulary.md maps each to its C field).

Errors: a wrong type raises TypeError; a value the library rejects, or one that does not fit its C type
(a 33-bit thread count, say), raises gpuocc.Error, a ValueError carrying the status name (`.name`).

The library is found, in this order: $GPUOCC_LIBRARY; in this package's folder (a wheel puts it there);
the path recorded when it was installed (the generated module _paths.py, installed in this package); the
system's library search.  If none holds it, `import gpuocc` raises ImportError naming each place it looked.

How the package is laid out: modules that follow the library's layers, bottom first; each imports only
from the modules listed before it (test_layout.py checks it), and this file re-exports the public names.
  _library    the C side: ctypes mirrors of the structs, _SIGNATURES, loading, Error, argument checks
  _types      the dataclasses (Device, Kernel, every result) and Columns
  _occupancy  devices, occupancy, limits, best_block and the inverse queries
  _batch      batch() and the sweeps
  _models     latency, bandwidth, spills, tradeoff, waves, divergence, diagnose, roofline
  _readers    ptxas reports, cubins, binaries, AMD remarks
  _fits       fits(): many configurations checked against a device, through batch()
  triton      gpuocc.triton, the autotuner hook (imported on its own: `import gpuocc.triton`)
To add a wrapper for a new C function, in a few lines:
  1. C side (_library): the ctypes mirror of any new struct under "C layouts", and the function's
     signature in _SIGNATURES (restype, argtypes).  Every symbol there must exist in the library, or
     import fails.
  2. Python side (_types): a frozen dataclass for its result (field metadata `c=` names the C field when
     the Python name differs, `from_c=` converts, e.g. -1 -> None); build it with _from_c().
  3. The function, in the module of its layer: check each argument with _i32/_i64/_f64/_text/_bytes
     (TypeError, or gpuocc.Error "argument" when it does not fit), call _call("gpuocc_name", ...) which
     raises gpuocc.Error on failure, return the dataclass.  Docstring: units, and what raises.  Import it
     here, add it to __all__, and a test with independently derived values to test_gpuocc.py.
  Calls answering many launches at once return a Columns mapping (name -> array.array); see Columns.
"""
from ._library import (CARVEOUT_DEFAULT, LOADED_LATENCY_BASE, DRAM_QUEUE_BITS, SMOOTH_K, UNLIMITED, Error,
                       __version__, library, resource_name, status_name, strerror, version, version_number)
from ._types import (BandwidthPrediction, BestBlock, BinaryKernel, BinaryRead, BytesInFlight, CatalogEntry, Columns,
                     ClusterResult, CompiledKernel, Cusp, Device, Diagnosis, Divergence, GpcLayout, Kernel, LatencyVerdict,
                     Limits, NextStep, Step, StepChange, MinBlocks, Perf, RemarksKernel, RESOURCES, Result, Roofline,
                     Routing, Setmaxnreg, SpillCost, TradeoffStep, Waves, kernel, limiter_names)
from ._occupancy import (best_block, catalog_device, cluster_check, cluster_occupancy, cluster_size_max,
                         clusters_per_gpc, gpc_layout, custom_device, device, devices, limits, max_stages, next_step,
                         next_steps, occupancy,
                         regs_max_for_blocks, regs_per_block, regs_per_warp, smem_carveout, smem_dynamic_available,
                         smem_per_block, validate_device)
from ._batch import AXES, batch, sweep, sweep_range, sweep_steps
from ._models import (STALLS, bandwidth, bandwidth_at, bandwidth_model, bytes_in_flight, diagnose, divergence,
                      lane_efficiency, latency_check, min_blocks_check, mix_cusp, mix_warps_needed, perf, roofline,
                      routing, setmaxnreg, spill_estimate, spill_slowdown, stall_from_name, stall_name, tmem_holders,
                      tradeoff, warps_needed, waves)
from ._readers import binary_kernel_registers, read_binary, read_cubin, read_ptxas, read_remarks
from ._fits import Fit, Fits, fits

# Not in __all__, as before the split: the ctypes aliases, and the C layouts and signatures the tests check.
from ._library import (P, _SIGNATURES, _CBandwidthPrediction, _CBatch, _CBinaryKernel, _CBinarySummary,
                       _CCompiledKernel, _CDevice, _CKernel, _CLatencyVerdict, _CPerf, _CPrepared, _CRemarksKernel,
                       _CCluster, _CClusterResult, _CGpcLayout, _CResult, _CRouting, _CSetmaxnreg, _CSpillCost, _CSpillInput, _CStep, _CStepChange, _CSweepPoint, _CTradeoffStep, _CWaves, c_dbl,
                       c_i32, c_i64, c_u32, c_u64)

__all__ = [
    # types
    "Error", "Device", "Kernel", "Result", "Limits", "BestBlock", "NextStep", "Step", "StepChange", "CatalogEntry",
    "LatencyVerdict", "Cusp", "BytesInFlight", "BandwidthPrediction", "Perf", "SpillCost", "TradeoffStep", "Waves",
    "Setmaxnreg", "MinBlocks",
    "Divergence", "Routing", "Diagnosis", "Roofline", "CompiledKernel", "BinaryKernel", "BinaryRead", "RemarksKernel",
    "Columns", "Fit", "Fits",
    "AXES",
    # constants
    "RESOURCES", "STALLS", "UNLIMITED", "CARVEOUT_DEFAULT", "SMOOTH_K", "LOADED_LATENCY_BASE",
    "DRAM_QUEUE_BITS",
    # devices and kernels
    "device", "devices", "catalog_device", "custom_device", "validate_device", "kernel",
    # occupancy
    "occupancy", "limits", "regs_per_warp", "regs_per_block", "smem_per_block", "smem_carveout",
    "best_block", "smem_dynamic_available", "regs_max_for_blocks", "max_stages", "next_step", "next_steps", "batch",
    "sweep", "sweep_steps", "sweep_range", "fits",
    # thread-block clusters
    "cluster_size_max", "cluster_check", "gpc_layout", "clusters_per_gpc", "cluster_occupancy", "ClusterResult",
    "GpcLayout",
    # models
    "warps_needed", "mix_warps_needed", "mix_cusp", "bytes_in_flight", "bandwidth_at", "bandwidth",
    "bandwidth_model", "latency_check",
    "perf", "spill_slowdown", "spill_estimate", "tradeoff", "waves", "lane_efficiency", "divergence",
    "routing", "stall_name", "stall_from_name", "diagnose", "roofline", "tmem_holders", "setmaxnreg",
    "min_blocks_check",
    # compiler output
    "read_ptxas", "read_cubin", "read_binary", "read_remarks", "binary_kernel_registers",
    # status and version
    "strerror", "status_name", "resource_name", "limiter_names", "version", "version_number", "library",
]
