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

The library is found, in this order: $GPUOCC_LIBRARY; beside this module (a wheel); the path recorded
when it was configured (the generated module gpuocc_paths.py installed beside this one); the system's
library search.  If none holds it, `import gpuocc` raises ImportError naming each place it looked.

How this file is laid out (to add a wrapper for a new C function, in a few lines):
  1. C side: the ctypes mirror of any new struct goes under "C layouts", and the function's signature in
     _SIGNATURES (restype, argtypes).  Every symbol there must exist in the library, or import fails.
  2. Python side: a frozen dataclass for its result under "Results" (field metadata `c=` names the C
     field when the Python name differs, `from_c=` converts, e.g. -1 -> None); build it with _from_c().
  3. The function: check each argument with _i32/_i64/_f64/_text/_bytes (TypeError, or gpuocc.Error
     "argument" when it does not fit), call _call("gpuocc_name", ...) which raises gpuocc.Error on
     failure, return the dataclass.  Docstring: units, and what raises.  Add it to __all__ and a test
     with independently derived values to test_gpuocc.py.
  Calls answering many launches at once return a Columns mapping (name -> array.array); see Columns.
"""
from __future__ import annotations

import array
import ctypes
import ctypes.util
import dataclasses
import glob
import numbers
import operator
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Optional, Sequence, Union

__version__ = "0.2.0"

__all__ = [
    # types
    "Error", "Device", "Kernel", "Result", "Limits", "BestBlock", "NextStep", "CatalogEntry",
    "LatencyVerdict", "Cusp", "BytesInFlight", "BandwidthPrediction", "Perf", "SpillCost", "TradeoffStep", "Waves",
    "Divergence", "Routing", "Diagnosis", "Roofline", "CompiledKernel", "BinaryKernel", "BinaryRead", "RemarksKernel",
    "Columns",
    "AXES",
    # constants
    "RESOURCES", "STALLS", "UNLIMITED", "CARVEOUT_DEFAULT", "SMOOTH_K", "LOADED_LATENCY_BASE",
    "LOADED_LATENCY_QUEUE",
    # devices and kernels
    "device", "devices", "catalog_device", "custom_device", "validate_device", "kernel",
    # occupancy
    "occupancy", "limits", "regs_per_warp", "regs_per_block", "smem_per_block", "smem_carveout",
    "best_block", "smem_dynamic_available", "regs_max_for_blocks", "next_step", "batch",
    "sweep", "sweep_steps", "sweep_range",
    # models
    "warps_needed", "mix_warps_needed", "mix_cusp", "bytes_in_flight", "bandwidth_at", "bandwidth",
    "bandwidth_model", "latency_check",
    "perf", "spill_slowdown", "spill_estimate", "tradeoff", "waves", "lane_efficiency", "divergence",
    "routing", "stall_name", "stall_from_name", "diagnose", "roofline",
    # compiler output
    "read_ptxas", "read_cubin", "read_binary", "read_remarks",
    # status and version
    "strerror", "status_name", "resource_name", "limiter_names", "version", "version_number", "library",
]

# ======================================================================================================
# C layouts: ctypes mirrors of include/gpuocc.h (private; the public types are the dataclasses below)
# ======================================================================================================
c_i32, c_u32, c_i64, c_u64, c_dbl = ctypes.c_int32, ctypes.c_uint32, ctypes.c_int64, ctypes.c_uint64, ctypes.c_double
P = ctypes.POINTER


class _CDevice(ctypes.Structure):
    _fields_ = [("size", c_u32), ("vendor", c_u32), ("cc_major", c_i32), ("cc_minor", c_i32),
                ("sm_count", c_i32), ("warp_size", c_i32), ("max_threads_per_block", c_i32),
                ("max_threads_per_sm", c_i32), ("max_blocks_per_sm", c_i32), ("regs_per_sm", c_i32),
                ("regs_per_block", c_i32), ("regs_per_thread_max", c_i32), ("reg_alloc_unit", c_i32),
                ("sub_partitions", c_i32), ("reg_compat_sub_partitions", c_i32), ("barriers_per_sm", c_i32),
                ("smem_per_sm_bytes", c_i64), ("smem_per_block_bytes", c_i64),
                ("smem_per_block_optin_bytes", c_i64), ("smem_reserved_per_block_bytes", c_i64),
                ("smem_alloc_unit_bytes", c_i32), ("carveout_count", c_i32), ("carveouts_kib", c_i32 * 16),
                ("simds_per_cu", c_i32), ("waves_per_simd", c_i32), ("runtime_waves_per_simd", c_i32),
                ("vgprs_per_simd", c_i32), ("vgpr_granule", c_i32), ("runtime_vgpr_granule", c_i32),
                ("runtime_vgprs_legacy", c_i32), ("runtime_vgpr_granule_legacy", c_i32), ("agpr_file", c_i32),
                ("sgprs_per_simd", c_i32), ("cus_per_wgp", c_i32), ("wave_sizes", c_i32),
                ("reserved0", c_i32), ("reserved1", c_i32), ("reserved", c_u64 * 1)]


class _CKernel(ctypes.Structure):
    _fields_ = [("size", c_u32), ("threads_per_block", c_i32), ("regs_per_thread", c_i32), ("barriers", c_i32),
                ("smem_static_bytes", c_i64), ("smem_dynamic_bytes", c_i64), ("carveout_percent", c_i32),
                ("smem_optin", c_i32), ("smem_dynamic_max_bytes", c_i64), ("max_threads_per_block", c_i32),
                ("agprs", c_i32), ("sgprs", c_i32), ("wave_size", c_i32), ("cu_mode", c_i32), ("model", c_i32),
                ("rocm_version", c_i32), ("reserved0", c_i32), ("reserved", c_u64 * 1)]


class _CResult(ctypes.Structure):
    _fields_ = [("size", c_u32), ("limiters", c_u32), ("blocks_per_sm", c_i32), ("warps_per_sm", c_i32),
                ("max_warps_per_sm", c_i32), ("warps_per_block", c_i32), ("occupancy", c_dbl),
                ("limit_warps", c_i32), ("limit_regs", c_i32), ("limit_smem", c_i32), ("limit_blocks", c_i32),
                ("limit_barriers", c_i32), ("regs_per_block", c_i32), ("smem_per_block_bytes", c_i64),
                ("smem_per_sm_bytes", c_i64), ("model", c_i32), ("waves_per_simd", c_i32),
                ("limit_sgprs", c_i32), ("reserved0", c_i32), ("reserved", c_u64 * 2)]


class _CLatencyVerdict(ctypes.Structure):
    _fields_ = [("size", c_u32), ("hidden", c_i32), ("in_flight", c_dbl), ("warps_needed", c_dbl),
                ("extra_warps", c_dbl), ("ilp_needed", c_dbl), ("reserved", c_u64 * 4)]


class _CPerf(ctypes.Structure):
    _fields_ = [("size", c_u32), ("sm_count", c_i32), ("sm_clock_mhz", c_dbl), ("dram_bandwidth_gbps", c_dbl),
                ("l2_bandwidth_gbps", c_dbl), ("latency_clock_mhz", c_dbl), ("dram_latency_cycles", c_dbl),
                ("l2_latency_cycles", c_dbl), ("l1_latency_cycles", c_dbl), ("smem_latency_cycles", c_dbl),
                ("fp32_latency_cycles", c_dbl), ("fp32_lanes", c_dbl), ("issue_per_cycle", c_dbl),
                ("bytes_in_flight_target", c_dbl), ("reserved", c_u64 * 4)]


class _CBandwidthPrediction(ctypes.Structure):
    _fields_ = [("size", c_u32), ("sm_count", c_i32), ("bandwidth_gbps", c_dbl), ("fraction_of_peak", c_dbl),
                ("peak_gbps", c_dbl), ("latency_ns", c_dbl), ("loaded_latency_ns", c_dbl),
                ("bytes_in_flight_per_sm", c_dbl), ("warps_for_80", c_dbl), ("warps_for_90", c_dbl),
                ("warps_for_95", c_dbl), ("reserved", c_u64 * 4)]


class _CSpillInput(ctypes.Structure):
    _fields_ = [("size", c_u32), ("sm_count", c_i32), ("spill_load_bytes", c_dbl), ("spill_store_bytes", c_dbl),
                ("executions", c_dbl), ("threads", c_dbl), ("access_bytes", c_dbl), ("l1_hit_rate", c_dbl),
                ("l2_hit_rate", c_dbl), ("l2_bandwidth_bytes_per_s", c_dbl),
                ("dram_bandwidth_bytes_per_s", c_dbl), ("clock_hz", c_dbl), ("reserved", c_u64 * 4)]


class _CSpillCost(ctypes.Structure):
    _fields_ = [("size", c_u32), ("reserved0", c_i32), ("local_bytes", c_dbl), ("instructions", c_dbl),
                ("issue_s", c_dbl), ("l2_s", c_dbl), ("dram_s", c_dbl), ("spill_s", c_dbl),
                ("reserved", c_u64 * 4)]


class _CTradeoffStep(ctypes.Structure):
    _fields_ = [("regs_per_thread", c_i32), ("regs_shed", c_i32), ("blocks_per_sm", c_i32),
                ("warps_per_sm", c_i32), ("occupancy", c_dbl), ("spill_slowdown", c_dbl)]


class _CWaves(ctypes.Structure):
    _fields_ = [("size", c_u32), ("reserved0", c_i32), ("blocks_per_wave", c_i64), ("full_waves", c_i64),
                ("waves", c_i64), ("last_wave_blocks", c_i64), ("last_wave_utilization", c_dbl),
                ("efficiency", c_dbl), ("grid_down", c_i64), ("grid_up", c_i64), ("reserved", c_u64 * 4)]


class _CRouting(ctypes.Structure):
    _fields_ = [("size", c_u32), ("reserved0", c_i32), ("random_paths", c_dbl), ("random_efficiency", c_dbl),
                ("sorted_paths", c_dbl), ("sorted_efficiency", c_dbl), ("reserved", c_u64 * 4)]


class _CCompiledKernel(ctypes.Structure):
    _fields_ = [("name_offset", c_u64), ("name_length", c_u64), ("short_offset", c_u64), ("short_length", c_u64),
                ("cc", c_i32), ("registers", c_i32), ("barriers", c_i32), ("line", c_i32),
                ("smem_bytes", c_i64), ("cmem_bytes", c_i64), ("stack_frame_bytes", c_i64),
                ("spill_store_bytes", c_i64), ("spill_load_bytes", c_i64), ("lmem_bytes", c_i64),
                ("max_threads_per_block", c_i32), ("min_blocks_per_sm", c_i32), ("max_regs_per_thread", c_i32),
                ("max_blocks_per_cluster", c_i32), ("cluster_x", c_i32), ("cluster_y", c_i32),
                ("cluster_z", c_i32), ("reserved0", c_i32), ("reserved", c_u64 * 2)]


class _CSweepPoint(ctypes.Structure):
    _fields_ = [("value", c_i64), ("blocks_per_sm", c_i32), ("warps_per_sm", c_i32), ("occupancy", c_dbl),
                ("limiters", c_u32), ("limit_warps", c_i32), ("limit_regs", c_i32), ("limit_smem", c_i32),
                ("limit_blocks", c_i32), ("limit_barriers", c_i32), ("regs_per_block", c_i32),
                ("reserved0", c_i32), ("smem_per_block_bytes", c_i64), ("smem_per_sm_bytes", c_i64)]


class _CPrepared(ctypes.Structure):
    _fields_ = [("size", c_u32), ("reserved0", c_u32), ("opaque", c_u64 * 255)]


_VP = ctypes.c_void_p


class _CBatch(ctypes.Structure):
    _fields_ = [("size", c_u32), ("smem_width", c_i32), ("threads_per_block", _VP), ("regs_per_thread", _VP),
                ("smem_static_bytes", _VP), ("smem_dynamic_bytes", _VP), ("status", _VP),
                ("blocks_per_sm", _VP), ("warps_per_sm", _VP), ("occupancy", _VP), ("limiters", _VP),
                ("limit_warps", _VP), ("limit_regs", _VP), ("limit_smem", _VP), ("limit_blocks", _VP),
                ("limit_barriers", _VP), ("regs_per_block", _VP), ("smem_per_block_bytes", _VP),
                ("smem_per_sm_bytes", _VP), ("waves_per_simd", _VP), ("limit_sgprs", _VP), ("reserved", c_u64 * 2)]


class _CBinaryKernel(ctypes.Structure):
    _fields_ = [("size", c_u32), ("vendor", c_u32), ("entry", c_i32), ("name_buffer", c_i32),
                ("name_offset", c_u64), ("name_length", c_u64), ("short_offset", c_u64), ("short_length", c_u64),
                ("cc", c_i32), ("registers", c_i32), ("barriers", c_i32), ("max_threads_per_block", c_i32),
                ("smem_bytes", c_i64), ("cmem_bytes", c_i64), ("stack_frame_bytes", c_i64),
                ("min_blocks_per_sm", c_i32), ("max_regs_per_thread", c_i32), ("max_blocks_per_cluster", c_i32),
                ("cluster_x", c_i32), ("cluster_y", c_i32), ("cluster_z", c_i32),
                # AMD (0.2.0): from the code object's NT_AMDGPU_METADATA note
                ("target_offset", c_u64), ("target_length", c_u64), ("vgprs", c_i32), ("agprs", c_i32),
                ("sgprs", c_i32), ("wave_size", c_i32), ("lds_bytes", c_i64), ("scratch_bytes", c_i64),
                ("max_flat_workgroup_size", c_i32), ("vgpr_spill_count", c_i32), ("sgpr_spill_count", c_i32),
                ("uses_dynamic_stack", c_i32), ("amd_mach", c_u32), ("code_object_version", c_i32),
                ("workgroup_processor_mode", c_i32), ("reserved1", c_i32), ("reserved", c_u64 * 6)]


class _CRemarksKernel(ctypes.Structure):
    _fields_ = [("size", c_u32), ("line", c_i32), ("name_offset", c_u64), ("name_length", c_u64),
                ("short_offset", c_u64), ("short_length", c_u64), ("sgprs", c_i32), ("vgprs", c_i32),
                ("agprs", c_i32), ("occupancy", c_i32), ("scratch_bytes", c_i64), ("lds_bytes", c_i64),
                ("sgpr_spills", c_i32), ("vgpr_spills", c_i32), ("dynamic_stack", c_i32), ("reserved0", c_i32),
                ("reserved", c_u64 * 4)]


class _CBinarySummary(ctypes.Structure):
    _fields_ = [("size", c_u32), ("entries", c_i32), ("compressed_entries", c_i32), ("entries_read", c_i32),
                ("entries_failed", c_i32), ("first_failed_entry", c_i32), ("first_failure", c_i32),
                ("reserved0", c_i32), ("workspace_bytes", c_u64), ("largest_entry_bytes", c_u64),
                ("reserved", c_u64 * 4)]


_SMEM_FN = ctypes.CFUNCTYPE(c_i64, c_i32, ctypes.c_void_p)
_CCHARP = ctypes.c_char_p

# Every symbol this module calls, with its C signature (include/gpuocc.h).
_SIGNATURES = {
    "gpuocc_strerror": (_CCHARP, [c_i32]),
    "gpuocc_status_name": (_CCHARP, [c_i32]),
    "gpuocc_version": (c_i32, []),
    "gpuocc_version_string": (_CCHARP, []),
    "gpuocc_resource_name": (_CCHARP, [c_i32]),
    "gpuocc_device_init": (c_i32, [P(_CDevice)]),
    "gpuocc_device_validate": (c_i32, [P(_CDevice)]),
    "gpuocc_device_lookup": (c_i32, [_CCHARP, P(_CDevice)]),
    "gpuocc_catalog_count": (c_i32, []),
    "gpuocc_catalog_kind": (c_i32, [c_i32]),
    "gpuocc_catalog_name": (_CCHARP, [c_i32]),
    "gpuocc_catalog_source": (_CCHARP, [c_i32]),
    "gpuocc_catalog_device": (c_i32, [c_i32, P(_CDevice)]),
    "gpuocc_kernel_init": (c_i32, [P(_CKernel)]),
    "gpuocc_limit_warps": (c_i32, [P(_CDevice), c_i32, P(c_i32)]),
    "gpuocc_limit_registers": (c_i32, [P(_CDevice), c_i32, c_i32, P(c_i32)]),
    "gpuocc_limit_shared_memory": (c_i32, [P(_CDevice), P(_CKernel), P(c_i32)]),
    "gpuocc_limit_blocks": (c_i32, [P(_CDevice), P(c_i32)]),
    "gpuocc_limit_barriers": (c_i32, [P(_CDevice), c_i32, P(c_i32)]),
    "gpuocc_regs_per_warp": (c_i32, [P(_CDevice), c_i32, P(c_i32)]),
    "gpuocc_regs_per_block": (c_i32, [P(_CDevice), c_i32, c_i32, P(c_i64)]),
    "gpuocc_smem_per_block": (c_i32, [P(_CDevice), c_i64, c_i64, P(c_i64)]),
    "gpuocc_smem_carveout": (c_i32, [P(_CDevice), P(_CKernel), P(c_i64)]),
    "gpuocc_occupancy": (c_i32, [P(_CDevice), P(_CKernel), P(_CResult)]),
    "gpuocc_prepare": (c_i32, [P(_CDevice), P(_CPrepared)]),
    "gpuocc_occupancy_batch": (c_i32, [P(_CPrepared), P(_CKernel), P(_CBatch), ctypes.c_size_t]),
    "gpuocc_best_block_affine": (c_i32, [P(_CDevice), P(_CKernel), c_i64, c_i64, P(c_i32), P(c_i32)]),
    "gpuocc_best_block_table": (c_i32, [P(_CDevice), P(_CKernel), P(c_i64), c_i32, P(c_i32), P(c_i32)]),
    "gpuocc_best_block_callback": (c_i32, [P(_CDevice), P(_CKernel), _SMEM_FN, ctypes.c_void_p, P(c_i32),
                                           P(c_i32)]),
    "gpuocc_smem_dynamic_available": (c_i32, [P(_CDevice), P(_CKernel), c_i32, P(c_i64)]),
    "gpuocc_regs_max_for_blocks": (c_i32, [P(_CDevice), P(_CKernel), c_i32, P(c_i32)]),
    "gpuocc_next_step": (c_i32, [P(_CDevice), P(_CKernel), c_i32, P(c_i64), P(c_i64)]),
    "gpuocc_sweep": (c_i32, [P(_CDevice), P(_CKernel), c_i32, c_i64, c_i64, c_i64, P(_CSweepPoint), c_i32,
                             P(c_i32)]),
    "gpuocc_sweep_steps": (c_i32, [P(_CDevice), P(_CKernel), c_i32, c_i64, c_i64, P(_CSweepPoint), c_i32,
                                   P(c_i32)]),
    "gpuocc_sweep_range": (c_i32, [P(_CDevice), P(_CKernel), c_i32, P(c_i64), P(c_i64), P(c_i64)]),
    "gpuocc_warps_needed": (c_i32, [c_dbl, c_dbl, c_dbl, P(c_dbl)]),
    "gpuocc_mix_warps_needed": (c_i32, [c_dbl, c_dbl, c_dbl, c_dbl, c_dbl, c_dbl, P(c_dbl)]),
    "gpuocc_mix_cusp": (c_i32, [c_dbl, c_dbl, c_dbl, c_dbl, P(c_dbl), P(c_dbl)]),
    "gpuocc_bytes_in_flight": (c_i32, [c_dbl, c_dbl, c_i32, P(c_dbl), P(c_dbl)]),
    "gpuocc_bandwidth_at": (c_i32, [c_dbl, c_i32, c_dbl, c_dbl, c_dbl, P(c_dbl)]),
    "gpuocc_bandwidth_model": (c_i32, [c_dbl, c_dbl, c_i32, c_dbl, c_dbl, P(_CBandwidthPrediction)]),
    "gpuocc_bandwidth_predict": (c_i32, [_CCHARP, c_dbl, c_dbl, P(_CBandwidthPrediction)]),
    "gpuocc_latency_check": (c_i32, [c_dbl, c_dbl, c_dbl, c_dbl, P(_CLatencyVerdict)]),
    "gpuocc_perf_lookup": (c_i32, [_CCHARP, P(_CPerf)]),
    "gpuocc_spill_slowdown": (c_i32, [c_dbl, c_dbl, c_dbl, P(c_dbl)]),
    "gpuocc_spill_input_init": (c_i32, [P(_CSpillInput)]),
    "gpuocc_spill_estimate": (c_i32, [P(_CSpillInput), P(_CSpillCost)]),
    "gpuocc_tradeoff": (c_i32, [P(_CDevice), P(_CKernel), c_dbl, c_dbl, c_dbl, P(_CTradeoffStep), c_i32,
                                P(c_i32)]),
    "gpuocc_waves": (c_i32, [c_i64, c_i32, c_i32, P(_CWaves)]),
    "gpuocc_lane_efficiency": (c_i32, [c_i32, c_i32, P(c_dbl)]),
    "gpuocc_divergence": (c_i32, [P(c_i32), P(c_dbl), c_i32, c_i32, P(c_dbl), P(c_dbl)]),
    "gpuocc_routing": (c_i32, [c_i32, c_i64, c_i32, P(_CRouting)]),
    "gpuocc_stall_name": (_CCHARP, [c_i32]),
    "gpuocc_stall_from_name": (c_i32, [_CCHARP]),
    "gpuocc_diagnose": (c_i32, [c_i32, c_dbl, P(_CCHARP), P(_CCHARP), P(c_i32)]),
    "gpuocc_roofline": (c_i32, [c_dbl, c_dbl, c_dbl, c_dbl, P(c_dbl), P(c_dbl), P(c_dbl), P(c_i32)]),
    "gpuocc_ptxas_parse": (c_i32, [_CCHARP, ctypes.c_size_t, P(_CCompiledKernel), c_i32, P(c_i32), P(c_i32)]),
    "gpuocc_cubin_read": (c_i32, [ctypes.c_void_p, ctypes.c_size_t, P(_CCompiledKernel), c_i32, P(c_i32)]),
    "gpuocc_binary_kernel_init": (c_i32, [P(_CBinaryKernel)]),
    "gpuocc_remarks_kernel_init": (c_i32, [P(_CRemarksKernel)]),
    "gpuocc_remarks_parse": (c_i32, [_CCHARP, ctypes.c_size_t, P(_CRemarksKernel), c_i32, P(c_i32), P(c_i32)]),
    "gpuocc_binary_scan": (c_i32, [ctypes.c_void_p, ctypes.c_size_t, P(_CBinarySummary)]),
    "gpuocc_binary_read_entry": (c_i32, [ctypes.c_void_p, ctypes.c_size_t, c_i32, ctypes.c_void_p, ctypes.c_size_t,
                                         P(_CBinaryKernel), c_i32, P(c_i32), P(_CBinarySummary)]),
}

# Status codes the module itself needs (include/gpuocc.h, fixed values).
_OK, _ERR_ARGUMENT, _ERR_BUFFER, _ERR_UNSATISFIABLE, _ERR_REGISTERS = 0, -12, -19, -13, -8
_VENDOR_AMD = 2  # GPUOCC_VENDOR_AMD

UNLIMITED = -1          # GPUOCC_UNLIMITED in C; None in Python results
CARVEOUT_DEFAULT = -1   # GPUOCC_CARVEOUT_DEFAULT: the driver's choice (the largest carveout)
SMOOTH_K = 3.1062837195053903  # GPUOCC_SMOOTH_K: 80 % of peak bandwidth at the knee
LOADED_LATENCY_BASE = 1.72  # GPUOCC_LOADED_LATENCY_BASE: streaming round trip / unloaded latency at light load
LOADED_LATENCY_QUEUE = 0.30  # GPUOCC_LOADED_LATENCY_QUEUE: M/M/1 queueing term u / (1 - u), in unloaded latencies


# ======================================================================================================
# Finding and loading the library
# ======================================================================================================
# File names to look for beside the module (glob patterns, best first), and the name for the system search.
_LIBRARY_NAMES = {"win32": ["gpuocc.dll", "libgpuocc.dll", "gpuocc.dll"],
                  "darwin": ["libgpuocc.0.2.dylib", "libgpuocc*.dylib", "libgpuocc.0.2.dylib"]}
_LIBRARY_NAMES_ELF = ["libgpuocc.so.0.2", "libgpuocc.so.0.2.*", "libgpuocc.so", "libgpuocc.so.0.2"]


def _candidates() -> Iterator[tuple[str, Optional[str]]]:
    """(where, path) in lookup order; path None when that place holds nothing.  $GPUOCC_LIBRARY, when
    set, is the only place: a library named explicitly is never replaced by another one silently."""
    env = os.environ.get("GPUOCC_LIBRARY")
    if env:
        yield "$GPUOCC_LIBRARY", env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    names = _LIBRARY_NAMES.get(sys.platform, _LIBRARY_NAMES_ELF)
    beside = [p for n in names[:-1] for p in sorted(glob.glob(os.path.join(here, n)))]
    yield f"beside the module ({here})", beside[0] if beside else None
    recorded = None
    paths = os.path.join(here, "gpuocc_paths.py")  # written at configure time, installed beside this module
    if os.path.exists(paths):
        values: dict = {}
        with open(paths) as f:
            exec(compile(f.read(), paths, "exec"), values)
        relative = os.path.join(here, values.get("LIBRARY_RELATIVE", ""))
        for path in (relative, values.get("LIBRARY")):
            if path and os.path.isfile(path):
                recorded = path
                break
    yield f"the path recorded at install ({paths})", recorded
    yield "the system library search", ctypes.util.find_library("gpuocc") or names[-1]


def _open() -> ctypes.CDLL:
    tried = []
    for where, path in _candidates():
        if not path:
            tried.append(f"{where}: not there")
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{where}: {e}")
            continue
        missing = [name for name in _SIGNATURES if not hasattr(lib, name)]
        if missing:
            raise ImportError(f"libgpuocc at {path} ({where}) is too old for gpuocc.py {__version__}: "
                              f"it lacks {', '.join(missing)}")
        for name, (restype, argtypes) in _SIGNATURES.items():
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = restype, argtypes
        return lib
    raise ImportError("libgpuocc not found; set GPUOCC_LIBRARY to its path. Looked in: " + "; ".join(tried))


library = _open()
"""The loaded C library (ctypes.CDLL), every symbol of _SIGNATURES typed."""


# ======================================================================================================
# Errors and argument checks
# ======================================================================================================
class Error(ValueError):
    """The library rejected a value (or a value does not fit its C type).

    .status: the negative GPUOCC_ERR_* code; .name: its short name ("threads", "unsatisfiable",
    "argument", ...), as gpuocc_status_name() and the CLI's `status` column give it."""

    def __init__(self, status: int, where: str = ""):
        self.status = status
        self.code = status
        self.name = library.gpuocc_status_name(status).decode()
        text = library.gpuocc_strerror(status).decode()
        super().__init__(f"{where}: {text} [{self.name}]" if where else f"{text} [{self.name}]")


def _call(name: str, *args: Any, where: str = "") -> None:
    status = getattr(library, name)(*args)
    if status != _OK:
        raise Error(status, where or name[len("gpuocc_"):])


def _bounds(ctype: Any) -> tuple[int, int]:
    bits = 8 * ctypes.sizeof(ctype)
    if ctype(-1).value == -1:
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


_INT_BOUNDS = {t: _bounds(t) for t in (c_i32, c_u32, c_i64, c_u64)}
_C_NAMES = {c_i32: "int32_t", c_u32: "uint32_t", c_i64: "int64_t", c_u64: "uint64_t"}


def _int(value: Any, name: str, ctype: Any = c_i32) -> int:
    """An int that fits `ctype`: TypeError for a non-integer (bool included), Error("argument") when
    it does not fit."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    value = operator.index(value)
    lo, hi = _INT_BOUNDS[ctype]
    if not lo <= value <= hi:
        raise Error(_ERR_ARGUMENT, f"{name}={value} does not fit {_C_NAMES[ctype]}")
    return value


def _i32(value: Any, name: str) -> int:
    return _int(value, name, c_i32)


def _i64(value: Any, name: str) -> int:
    return _int(value, name, c_i64)


def _f64(value: Any, name: str) -> float:
    """A real number as a C double: TypeError for a non-number, Error("argument") when too large for a
    double.  NaN and infinities pass through: the library rejects them with "not_finite"."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, not {type(value).__name__}")
    try:
        return float(value)
    except OverflowError:
        raise Error(_ERR_ARGUMENT, f"{name}={value} does not fit a double") from None


def _flag(value: Any, name: str) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, numbers.Integral) and value in (0, 1):
        return int(value)
    if isinstance(value, numbers.Integral):
        raise Error(_ERR_ARGUMENT, f"{name}={value}: expected True/False (1/0)")
    raise TypeError(f"{name} must be a bool, not {type(value).__name__}")


def _text(value: Any, name: str) -> bytes:
    """A str argument as the C string the library reads (UTF-8, no NUL)."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    data = value.encode()
    if b"\0" in data:
        raise Error(_ERR_ARGUMENT, f"{name} contains a NUL character")
    return data


def _bytes(value: Any, name: str) -> bytes:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{name} must be bytes-like, not {type(value).__name__}")


def _unlimited(v: int) -> Optional[int]:
    return None if v == UNLIMITED else v


def _from_c(cls: Any, cstruct: Any, **given: Any) -> Any:
    """Build dataclass `cls` from a ctypes struct: each field reads the C field named by its metadata
    `c` (default: its own name), through `from_c` when given; `given` fills fields directly."""
    values = {}
    for f in dataclasses.fields(cls):
        if f.name in given:
            values[f.name] = given[f.name]
            continue
        raw = getattr(cstruct, f.metadata.get("c", f.name))
        convert = f.metadata.get("from_c")
        values[f.name] = convert(raw) if convert else raw
    return cls(**values)


def _c(c: Optional[str] = None, from_c: Optional[Callable[[Any], Any]] = None, **kw: Any) -> Any:
    """A dataclass field mapped to C field `c`, converted by `from_c`."""
    meta = {}
    if c:
        meta["c"] = c
    if from_c:
        meta["from_c"] = from_c
    return field(metadata=meta, **kw)


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

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "carveouts_kib":
                if not isinstance(value, (tuple, list)):
                    raise TypeError(f"carveouts_kib must be a tuple of ints, not {type(value).__name__}")
                if len(value) > 16:
                    raise Error(_ERR_ARGUMENT, f"carveouts_kib has {len(value)} entries, at most 16")
                object.__setattr__(self, f.name, tuple(_i32(v, "carveouts_kib[]") for v in value))
            elif f.name == "vendor":
                _int(value, f.name, c_u32)
            else:
                _int(value, f.name, c_i64 if f.name in _DEVICE_INT64 else c_i32)

    def _to_c(self) -> _CDevice:
        d = _CDevice()
        _call("gpuocc_device_init", ctypes.byref(d))
        for f in dataclasses.fields(self):
            if f.name != "carveouts_kib":
                setattr(d, f.name, getattr(self, f.name))
        d.carveout_count = len(self.carveouts_kib)
        for i, kib in enumerate(self.carveouts_kib):
            d.carveouts_kib[i] = kib
        return d

    @classmethod
    def _from_c(cls, d: _CDevice) -> "Device":
        count = max(0, min(d.carveout_count, 16))
        return _from_c(cls, d, carveouts_kib=tuple(d.carveouts_kib[:count]))


def _device(dev: Union[Device, str]) -> _CDevice:
    if isinstance(dev, str):
        dev = device(dev)
    if not isinstance(dev, Device):
        raise TypeError(f"device must be a gpuocc.Device or a device name, not {type(dev).__name__}")
    return dev._to_c()


def device(name: str) -> Device:
    """A device of the built-in table by architecture ("sm_90", "9.0", "90", "compute_90", "sm_90a") or
    product ("H100", "A100", "RTX 4090"; case, spaces, '-' and '_' ignored).

    Raises TypeError for a non-str, gpuocc.Error "unknown_device" for a name the table lacks."""
    data = _text(name, "name")
    d = _CDevice(size=ctypes.sizeof(_CDevice))
    _call("gpuocc_device_lookup", data, ctypes.byref(d), where=name)
    return Device._from_c(d)


@dataclass(frozen=True)
class CatalogEntry:
    """One entry of the built-in table: name, kind ("arch": a compute capability without an SM count,
    or "product"), and the sources of its values."""
    index: int
    name: str
    kind: str
    source: str


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
    max_threads: int = _c("max_threads_per_block", default=0)   # __launch_bounds__ maximum; 0: none
    # AMD only (docs/amd.md): regs are arch VGPRs, smem_* LDS
    agprs: int = 0                                              # AGPRs per lane
    sgprs: int = 0                                              # SGPRs per wave; 0: unknown, no limit
    wave_size: int = 0                                          # 32 or 64; 0: the device's default
    cu_mode: int = 0                                            # 1: compiled with -mcumode
    model: Optional[str] = None                                 # "compiler" (None: LLVM's) or "runtime" (HIP's)
    rocm: Optional[str] = None                                  # with model "runtime": "6.2"; None: the newest

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
        if self.rocm is not None and self.model != "runtime":  # as `gpuocc report --rocm` and batch's rows
            raise Error(_ERR_ARGUMENT, "rocm picks the release of HIP's rules: give model='runtime' too")

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
_MODELS = {"compiler": 1, "runtime": 2}


def _model_number(value: Any) -> int:
    if value is None:
        return 0
    if not isinstance(value, str):
        raise TypeError(f"model must be a str ('compiler' or 'runtime') or None, not {type(value).__name__}")
    if value not in _MODELS:
        raise Error(_ERR_ARGUMENT, f"model={value!r}: expected 'compiler' or 'runtime'")
    return _MODELS[value]


_MODEL_NAMES = {number: name for name, number in _MODELS.items()}


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


def kernel(threads: int, regs: int = 0, smem_static: int = 0, smem_dynamic: int = 0, barriers: int = 1,
           carveout: int = CARVEOUT_DEFAULT, smem_optin: bool = True, smem_dynamic_max: int = -1,
           max_threads: int = 0, **amd: Any) -> Kernel:
    """A kernel and its launch: `threads` per block, `regs` registers per thread (ptxas's "Used N
    registers"), shared memory in bytes (`smem_static`: __shared__ arrays; `smem_dynamic`: the launch's),
    `barriers` per block, `carveout` the preferred shared-memory carveout in percent (-1: the driver's
    default), `smem_optin` (default True: a kernel asking for more than 48 KiB has raised its limit),
    `smem_dynamic_max` the opt-in attribute's value (-1: the device's most), `max_threads` the
    __launch_bounds__ maximum (0: none).  AMD kernels take the keywords agprs, sgprs, wave_size, cu_mode,
    model ("compiler", the default, or "runtime") and rocm ("6.2": with model "runtime", HIP's rules as of
    that ROCm release; None: the newest), as the CLI's flags and batch's columns (docs/amd.md).

    Raises TypeError for a non-int, gpuocc.Error "argument" for a value that does not fit its C type.
    The library checks the ranges when the kernel is used (gpuocc.Error "threads", "smem", ...)."""
    return Kernel(threads=threads, regs=regs, smem_static=smem_static, smem_dynamic=smem_dynamic,
                  barriers=barriers, carveout=carveout, smem_optin=smem_optin,
                  smem_dynamic_max=smem_dynamic_max, max_threads=max_threads, **amd)


def _kernel(kern: Kernel) -> _CKernel:
    if not isinstance(kern, Kernel):
        raise TypeError(f"kernel must be a gpuocc.Kernel (from gpuocc.kernel()), not {type(kern).__name__}")
    return kern._to_c()


# the kernel fields only one vendor's rules read, and their defaults
_AMD_ONLY = (("agprs", 0), ("sgprs", 0), ("wave_size", 0), ("cu_mode", 0), ("model", None), ("rocm", None))
_NVIDIA_ONLY = (("barriers", 1), ("carveout", CARVEOUT_DEFAULT), ("smem_optin", True), ("smem_dynamic_max", -1))


def _pair(dev: Union["Device", str], kern: Kernel) -> "tuple[_CDevice, _CKernel]":
    """The C device and kernel of a call.  A kernel field only the other vendor's rules read, set away from
    its default, raises gpuocc.Error "argument", as `gpuocc report` and `gpuocc batch` refuse it (the
    device's rules would not read it)."""
    d, k = _device(dev), _kernel(kern)
    amd = d.vendor == _VENDOR_AMD
    for name, default in _NVIDIA_ONLY if amd else _AMD_ONLY:
        if getattr(kern, name) != default:
            raise Error(_ERR_ARGUMENT, f"{name}={getattr(kern, name)!r}: " +
                        ("NVIDIA only (the device is AMD)" if amd else "AMD only (the device is NVIDIA)"))
    # what the library refuses with a bare code, named as `gpuocc report` names it
    if amd and kern.agprs > 0 and d.agpr_file == 0:  # GPUOCC_AGPR_NONE
        raise Error(_ERR_REGISTERS, f"agprs={kern.agprs}: the device has no AGPRs (gfx908, gfx90a and later have them)")
    if amd and kern.wave_size in (32, 64) and not d.wave_sizes & kern.wave_size:
        raise Error(_ERR_ARGUMENT, f"wave_size={kern.wave_size}: the device runs wave{d.warp_size} only")
    if amd and 0 < kern.max_threads < kern.threads:  # as `gpuocc report --max-threads` and a batch row
        raise Error(_ERR_ARGUMENT, f"threads={kern.threads} is more than max_threads={kern.max_threads}: a "
                    "workgroup larger than the kernel was compiled for does not launch")
    return d, k


def _pair_refs(dev: Union["Device", str], kern: Kernel) -> tuple:
    d, k = _pair(dev, kern)
    return ctypes.byref(d), ctypes.byref(k)


# ======================================================================================================
# Occupancy
# ======================================================================================================
# GPUOCC_RESOURCE_* order; "sgprs" limits AMD gfx8-9 only
RESOURCES = ("warps", "registers", "shared_memory", "blocks", "barriers", "sgprs")


def limiter_names(mask: int) -> tuple:
    """The resource names of a GPUOCC_LIMIT_* bit mask, in RESOURCES order."""
    return tuple(name for i, name in enumerate(RESOURCES) if mask & (1 << i))


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


def occupancy(dev: Union[Device, str], kern: Kernel) -> Result:
    """Resident blocks and warps per SM of `kern` on `dev` (a Device or a device name), and which
    resources limit them.  A launch that cannot run gives blocks_per_sm == 0, not an error.

    Raises gpuocc.Error with the library's status ("threads", "smem", "carveout", "device", ...) for
    a value it rejects; TypeError for arguments of the wrong type.

        >>> r = occupancy("A100", kernel(threads=256, regs=64))
        >>> r.blocks_per_sm, r.occupancy, r.limiters
        (4, 0.5, ('registers',))
    """
    r = _CResult(size=ctypes.sizeof(_CResult))
    _call("gpuocc_occupancy", *_pair_refs(dev, kern), ctypes.byref(r))
    # AMD's fields are None for NVIDIA (model 0), as JSON's null
    return _from_c(Result, r, waves_per_simd=r.waves_per_simd if r.model else None)


@dataclass(frozen=True)
class Limits:
    """Blocks per SM each resource alone allows; None where it cannot limit (sgprs: AMD gfx8-9 only)."""
    warps: Optional[int]
    registers: Optional[int]
    shared_memory: Optional[int]
    blocks: Optional[int]
    barriers: Optional[int]
    sgprs: Optional[int] = None


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


@dataclass(frozen=True)
class BestBlock:
    """The block size with the most resident threads (the largest on ties); threads == 0 when none can
    run.  min_grid = blocks per SM x SMs (0 for a bare architecture)."""
    threads: int
    min_grid: int


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


@dataclass(frozen=True)
class NextStep:
    """For one resource: the demand at which it alone allows one block more (new_value: registers per
    thread, shared memory per block in bytes, threads per block or barriers), and how much to shed."""
    resource: str
    new_value: int
    shed: int


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


# ======================================================================================================
# Models beyond occupancy (docs/models.md)
# ======================================================================================================
def warps_needed(latency_cycles: float, throughput_per_cycle: float, ilp: float = 1.0) -> float:
    """Little's law: warps that keep latency x throughput instructions in flight, `ilp` each."""
    v = c_dbl()
    _call("gpuocc_warps_needed", _f64(latency_cycles, "latency_cycles"),
          _f64(throughput_per_cycle, "throughput_per_cycle"), _f64(ilp, "ilp"), ctypes.byref(v))
    return v.value


def mix_warps_needed(alpha: float, alu_latency_cycles: float, alu_throughput: float, mem_latency_cycles: float,
                     mem_throughput: float, issue_throughput: float = 0.0) -> float:
    """Volkov's instruction-mix model: warps needed with `alpha` arithmetic instructions per memory
    instruction (issue_throughput 0: no separate issue limit)."""
    v = c_dbl()
    _call("gpuocc_mix_warps_needed", _f64(alpha, "alpha"), _f64(alu_latency_cycles, "alu_latency_cycles"),
          _f64(alu_throughput, "alu_throughput"), _f64(mem_latency_cycles, "mem_latency_cycles"),
          _f64(mem_throughput, "mem_throughput"), _f64(issue_throughput, "issue_throughput"), ctypes.byref(v))
    return v.value


@dataclass(frozen=True)
class Cusp:
    """The mix model's worst case: alpha = alu_throughput / mem_throughput, and the warps needed there."""
    alpha: float
    warps: float


def mix_cusp(alu_latency_cycles: float, alu_throughput: float, mem_latency_cycles: float,
             mem_throughput: float) -> Cusp:
    """The cusp of the instruction-mix model (no issue limit)."""
    a, w = c_dbl(), c_dbl()
    _call("gpuocc_mix_cusp", _f64(alu_latency_cycles, "alu_latency_cycles"), _f64(alu_throughput, "alu_throughput"),
          _f64(mem_latency_cycles, "mem_latency_cycles"), _f64(mem_throughput, "mem_throughput"),
          ctypes.byref(a), ctypes.byref(w))
    return Cusp(a.value, w.value)


@dataclass(frozen=True)
class BytesInFlight:
    """Bytes that must be in flight to saturate a memory level: per SM and device-wide."""
    bytes_per_sm: float
    bytes_device: float


def bytes_in_flight(bandwidth_bytes_per_s: float, latency_ns: float, sm_count: int) -> BytesInFlight:
    """bandwidth x latency, device-wide and per SM."""
    s, d = c_dbl(), c_dbl()
    _call("gpuocc_bytes_in_flight", _f64(bandwidth_bytes_per_s, "bandwidth_bytes_per_s"),
          _f64(latency_ns, "latency_ns"), _i32(sm_count, "sm_count"), ctypes.byref(s), ctypes.byref(d))
    return BytesInFlight(s.value, d.value)


def bandwidth_at(bytes_in_flight_per_sm: float, sm_count: int, latency_ns: float, peak_bytes_per_s: float,
                 smooth_k: float = 0.0) -> float:
    """Bandwidth (bytes/s) a per-SM concurrency reaches: the hard minimum (smooth_k <= 0) or the smooth
    form (SMOOTH_K gives 80 % of peak at the knee)."""
    v = c_dbl()
    _call("gpuocc_bandwidth_at", _f64(bytes_in_flight_per_sm, "bytes_in_flight_per_sm"), _i32(sm_count, "sm_count"),
          _f64(latency_ns, "latency_ns"), _f64(peak_bytes_per_s, "peak_bytes_per_s"), _f64(smooth_k, "smooth_k"),
          ctypes.byref(v))
    return v.value


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


def bandwidth(arch: str, warps_per_sm: float, bytes_per_warp: float) -> BandwidthPrediction:
    """DRAM bandwidth with `warps_per_sm` resident warps per SM, each keeping `bytes_per_warp` bytes of loads in
    flight, on a product of the table (its SM count, peak bandwidth and measured latency); the same
    numbers as `gpuocc bandwidth --arch A --warps-per-sm W --bytes-per-warp B`."""
    data = _text(arch, "arch")
    p = _CBandwidthPrediction(size=ctypes.sizeof(_CBandwidthPrediction))
    _call("gpuocc_bandwidth_predict", data, _f64(warps_per_sm, "warps_per_sm"), _f64(bytes_per_warp, "bytes_per_warp"),
          ctypes.byref(p), where=arch)
    return _from_c(BandwidthPrediction, p)


def bandwidth_model(warps_per_sm: float, bytes_per_warp: float, sm_count: int, latency_ns: float,
                    peak_gbps: float) -> BandwidthPrediction:
    """The same model with explicit constants: unloaded DRAM latency (ns) and peak bandwidth (GB/s)."""
    p = _CBandwidthPrediction(size=ctypes.sizeof(_CBandwidthPrediction))
    _call("gpuocc_bandwidth_model", _f64(warps_per_sm, "warps_per_sm"), _f64(bytes_per_warp, "bytes_per_warp"),
          _i32(sm_count, "sm_count"), _f64(latency_ns, "latency_ns"), _f64(peak_gbps, "peak_gbps"),
          ctypes.byref(p))
    return _from_c(BandwidthPrediction, p)


@dataclass(frozen=True)
class LatencyVerdict:
    """Whether warps_per_sm hide a latency; if not, the extra warps or the ILP that would."""
    hidden: bool = _c(from_c=bool)
    in_flight: float = 0.0
    warps_needed: float = 0.0
    extra_warps: float = 0.0
    ilp_needed: Optional[float] = _c(from_c=lambda v: None if v == float("inf") else v, default=None)


def latency_check(warps_per_sm: float, latency_cycles: float, throughput_per_cycle: float,
                  ilp: float = 1.0) -> LatencyVerdict:
    """Is this latency hidden with warps_per_sm resident warps (Little's law)?  ilp_needed is None when
    no ILP would do (0 warps)."""
    v = _CLatencyVerdict(size=ctypes.sizeof(_CLatencyVerdict))
    _call("gpuocc_latency_check", _f64(warps_per_sm, "warps_per_sm"), _f64(latency_cycles, "latency_cycles"),
          _f64(throughput_per_cycle, "throughput_per_cycle"), _f64(ilp, "ilp"), ctypes.byref(v))
    return _from_c(LatencyVerdict, v)


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


def perf(name: str) -> Perf:
    """The performance constants of a device name (as device() takes)."""
    data = _text(name, "name")
    p = _CPerf(size=ctypes.sizeof(_CPerf))
    _call("gpuocc_perf_lookup", data, ctypes.byref(p), where=name)
    return _from_c(Perf, p)


def spill_slowdown(work_cycles: float, spill_accesses: float, spill_latency_cycles: float) -> float:
    """(work + accesses x latency) / work: the slowdown of a loop whose spills are not hidden."""
    v = c_dbl()
    _call("gpuocc_spill_slowdown", _f64(work_cycles, "work_cycles"), _f64(spill_accesses, "spill_accesses"),
          _f64(spill_latency_cycles, "spill_latency_cycles"), ctypes.byref(v))
    return v.value


@dataclass(frozen=True)
class SpillCost:
    """Spill traffic: bytes touched, warp instructions, seconds on issue / L2 / DRAM, the largest."""
    local_bytes: float
    instructions: float
    issue_s: float
    l2_s: float
    dram_s: float
    spill_s: float


# spill_estimate()'s keywords that the CLI names (gpuocc spill) and their C fields; the others are the C
# fields' own names (bytes/s and Hz, where the CLI takes GB/s and MHz)
_SPILL_KEYWORDS = {"spill_loads": "spill_load_bytes", "spill_stores": "spill_store_bytes", "grid_threads": "threads"}


def spill_estimate(**inputs: Any) -> SpillCost:
    """Cost of ptxas's spills.  Keywords (defaults from gpuocc_spill_input_init), as `gpuocc spill` names
    them: spill_loads, spill_stores (bytes per thread, as ptxas reports them), executions, grid_threads (the
    whole launch's threads), access_bytes, l1_hit_rate, l2_hit_rate, sm_count; and in C's units
    l2_bandwidth_bytes_per_s, dram_bandwidth_bytes_per_s, clock_hz."""
    s = _CSpillInput()
    _call("gpuocc_spill_input_init", ctypes.byref(s))
    known = {name for name, _ in _CSpillInput._fields_ if name not in ("size", "reserved")}
    known = (known - set(_SPILL_KEYWORDS.values())) | set(_SPILL_KEYWORDS)
    for name, value in inputs.items():
        if name not in known:
            raise TypeError(f"spill_estimate() got an unknown keyword {name!r}")
        field = _SPILL_KEYWORDS.get(name, name)
        setattr(s, field, _i32(value, name) if name == "sm_count" else _f64(value, name))
    cost = _CSpillCost(size=ctypes.sizeof(_CSpillCost))
    _call("gpuocc_spill_estimate", ctypes.byref(s), ctypes.byref(cost))
    return _from_c(SpillCost, cost)


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


def tradeoff(dev: Union[Device, str], kern: Kernel, work_cycles: float, spill_accesses_per_reg: float,
             spill_latency_cycles: float) -> tuple:
    """Each register cap below the kernel's count that changes blocks per SM, best occupancy last."""
    d, k = _pair(dev, kern)
    args = (_f64(work_cycles, "work_cycles"), _f64(spill_accesses_per_reg, "spill_accesses_per_reg"),
            _f64(spill_latency_cycles, "spill_latency_cycles"))
    count = c_i32()
    status = library.gpuocc_tradeoff(ctypes.byref(d), ctypes.byref(k), *args, None, 0, ctypes.byref(count))
    if status not in (_OK, _ERR_BUFFER):
        raise Error(status, "tradeoff")
    steps = (_CTradeoffStep * max(count.value, 1))()
    _call("gpuocc_tradeoff", ctypes.byref(d), ctypes.byref(k), *args, steps, count.value, ctypes.byref(count))
    return tuple(_from_c(TradeoffStep, s) for s in steps[:count.value])


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


def waves(grid_blocks: int, sm_count: int, blocks_per_sm: int) -> Waves:
    """Waves of a grid of grid_blocks on sm_count SMs at blocks_per_sm (grid_down/grid_up: the nearest
    grids with no tail)."""
    w = _CWaves(size=ctypes.sizeof(_CWaves))
    _call("gpuocc_waves", _i64(grid_blocks, "grid_blocks"), _i32(sm_count, "sm_count"),
          _i32(blocks_per_sm, "blocks_per_sm"), ctypes.byref(w))
    return _from_c(Waves, w)


def lane_efficiency(threads: int, warp_size: int = 32) -> float:
    """threads / (warps x warp_size): the lanes a block size uses."""
    v = c_dbl()
    _call("gpuocc_lane_efficiency", _i32(threads, "threads"), _i32(warp_size, "warp_size"), ctypes.byref(v))
    return v.value


@dataclass(frozen=True)
class Divergence:
    """A divergent warp: serialized cycles and SIMT efficiency (0..1)."""
    serialized_cycles: float
    simt_efficiency: float


def divergence(lanes: Sequence[int], cost_cycles: Sequence[float], warp_size: int = 32) -> Divergence:
    """A warp whose lanes[i] lanes run path i, costing cost_cycles[i] cycles."""
    lanes_c = [_i32(v, "lanes[]") for v in lanes]
    costs_c = [_f64(v, "cost_cycles[]") for v in cost_cycles]
    if len(lanes_c) != len(costs_c):
        raise Error(_ERR_ARGUMENT, f"lanes has {len(lanes_c)} entries, cost_cycles {len(costs_c)}")
    n = len(lanes_c)
    s, e = c_dbl(), c_dbl()
    _call("gpuocc_divergence", (c_i32 * max(n, 1))(*lanes_c), (c_dbl * max(n, 1))(*costs_c), _i32(n, "paths"),
          _i32(warp_size, "warp_size"), ctypes.byref(s), ctypes.byref(e))
    return Divergence(s.value, e.value)


@dataclass(frozen=True)
class Routing:
    """Lanes routed at random to `experts` paths: expected distinct paths per warp and SIMT efficiency,
    unsorted and after sorting the items by path."""
    random_paths: float
    random_efficiency: float
    sorted_paths: float
    sorted_efficiency: float


def routing(experts: int, items: int, warp_size: int = 32) -> Routing:
    """Random routing of `items` items to `experts` equally likely paths (MoE experts; C: `paths`), as
    `gpuocc divergence --experts`."""
    r = _CRouting(size=ctypes.sizeof(_CRouting))
    _call("gpuocc_routing", _i32(experts, "experts"), _i64(items, "items"), _i32(warp_size, "warp_size"),
          ctypes.byref(r))
    return _from_c(Routing, r)


STALLS = ("long_scoreboard", "short_scoreboard", "barrier", "mio_throttle", "lg_throttle", "math_pipe_throttle",
          "not_selected", "no_instruction")  # GPUOCC_STALL_* order


def stall_name(reason: int) -> str:
    """The name of a GPUOCC_STALL_* value, "" if unknown."""
    return library.gpuocc_stall_name(_i32(reason, "reason")).decode()


def stall_from_name(name: str) -> Optional[int]:
    """The GPUOCC_STALL_* value of a name, None if unknown."""
    v = library.gpuocc_stall_from_name(_text(name, "name"))
    return None if v < 0 else v


@dataclass(frozen=True)
class Diagnosis:
    """What a dominant stall reason means at an occupancy, with the keys of `gpuocc diagnose --json`:
    whether more warps are the first thing to try, and the advice (`verdict`)."""
    stall: str
    occupancy: float
    meaning: str
    occupancy_helps: bool
    verdict: str


def diagnose(stall: Union[str, int], occupancy: float) -> Diagnosis:
    """Diagnose a stall reason (a name of STALLS or its value) at an occupancy of 0..1, as
    `gpuocc diagnose --stall NAME --occupancy X`."""
    if isinstance(stall, str):
        value = stall_from_name(stall)
        if value is None:
            raise Error(_ERR_ARGUMENT, f"stall reason {stall!r} (one of {', '.join(STALLS)})")
    else:
        value = _i32(stall, "stall")
    meaning, advice, helps = _CCHARP(), _CCHARP(), c_i32()
    occupancy = _f64(occupancy, "occupancy")
    _call("gpuocc_diagnose", value, occupancy, ctypes.byref(meaning), ctypes.byref(advice), ctypes.byref(helps))
    return Diagnosis(stall_name(value), occupancy, (meaning.value or b"").decode(), bool(helps.value),
                     (advice.value or b"").decode())


@dataclass(frozen=True)
class Roofline:
    """Arithmetic intensity (flop/byte), ridge point, attainable flop/s, and whether compute-bound."""
    intensity: float
    ridge: float
    attainable_flops_per_s: float
    compute_bound: bool


def roofline(flops: float, bytes: float, peak_flops_per_s: float, peak_bytes_per_s: float) -> Roofline:
    """The roofline of a kernel doing `flops` over `bytes` of traffic."""
    i, r, a, c = c_dbl(), c_dbl(), c_dbl(), c_i32()
    _call("gpuocc_roofline", _f64(flops, "flops"), _f64(bytes, "bytes"), _f64(peak_flops_per_s, "peak_flops_per_s"),
          _f64(peak_bytes_per_s, "peak_bytes_per_s"), ctypes.byref(i), ctypes.byref(r), ctypes.byref(a),
          ctypes.byref(c))
    return Roofline(i.value, r.value, a.value, bool(c.value))


# ======================================================================================================
# Compiler output in
# ======================================================================================================
def _recorded(v: int) -> Optional[int]:
    """-1 (the input does not record the value) as None, as JSON's null."""
    return None if v == -1 else v


def _sm(cc: int) -> Optional[str]:
    return f"sm_{cc}" if cc > 0 else None


def _recorded_c(c: str) -> Any:
    return _c(c, from_c=_recorded, default=None)


@dataclass(frozen=True)
class CompiledKernel:
    """One kernel as its compiler left it (C: gpuocc_compiled_kernel), with the keys of `gpuocc ptxas` and
    `gpuocc cubin`; None where the source does not record a value (spills only in ptxas reports, launch
    bounds and clusters only in cubins)."""
    name: str
    short_name: str
    arch: Optional[str] = _c("cc", from_c=_sm, default=None)   # "sm_90"
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
                                 short_name=text(k.short_offset, k.short_length)) for k in array_c[:count.value])


def read_ptxas(text: Union[str, bytes]) -> tuple:
    """The kernels of a `ptxas -v` report or a whole build log (str or bytes), as CompiledKernel.

    Raises TypeError for anything else, gpuocc.Error "parse"/"truncated" naming the line at fault."""
    if isinstance(text, str):
        data = text.encode()
    else:
        data = _bytes(text, "text")
    line = c_i32()
    status, rows = _records("gpuocc_ptxas_parse", data, ctypes.byref(line))
    if status != _OK:
        raise Error(status, f"line {line.value}")
    return rows


def read_cubin(data: Union[bytes, bytearray, memoryview]) -> tuple:
    """The kernels of a cubin, an uncompressed fatbinary or a CUDA host object (bytes), as CompiledKernel.

    Raises TypeError for a non-bytes argument, gpuocc.Error "format", "truncated", "compressed",
    "unsupported" for input it cannot read."""
    status, rows = _records("gpuocc_cubin_read", _bytes(data, "data"))
    if status != _OK:
        raise Error(status, "cubin")
    return rows


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


def read_remarks(text: Union[str, bytes]) -> tuple:
    """The kernels of LLVM's kernel-resource-usage remarks (`clang -Rpass-analysis=kernel-resource-usage`'s
    stderr, or a whole build log; str or bytes), as RemarksKernel.  The remarks do not name the target.

    Raises TypeError for anything else, gpuocc.Error "parse"/"truncated" naming the line at fault."""
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

    def text_at(offset: int, length: int) -> str:
        return data[offset:offset + length].decode(errors="replace")
    return tuple(_from_c(RemarksKernel, k, name=text_at(k.name_offset, k.name_length),
                         short_name=text_at(k.short_offset, k.short_length)) for k in records[:count.value])


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
    vendor: str                                  # "nvidia" or "amd"
    arch: Optional[str]                          # "sm_90"; AMD: the target ID's processor, "gfx90a"
    registers: Optional[int]
    barriers: Optional[int]
    smem: Optional[int]                          # static shared memory (LDS), bytes
    cmem: Optional[int]                          # constant bank 0, bytes
    stack: Optional[int]                         # stack frame (AMD: scratch per work-item), bytes
    max_threads: Optional[int]                   # __launch_bounds__ / flat workgroup size maximum; 0: none
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


def _processor(target: str) -> Optional[str]:
    """The processor of an AMD target ID: "amdgcn-amd-amdhsa--gfx90a:xnack-" -> "gfx90a"."""
    parts = target.split("-", 4)
    return parts[4].split(":")[0] or None if len(parts) == 5 else None


def _binary_kernel(k: Any, name: str, short_name: str, target: str) -> BinaryKernel:
    shared = dict(name=name, short_name=short_name, entry=k.entry)
    if k.vendor != _VENDOR_AMD:
        return BinaryKernel(**shared, vendor="nvidia", arch=_sm(k.cc), registers=k.registers,
                            barriers=_recorded(k.barriers), smem=k.smem_bytes, cmem=_recorded(k.cmem_bytes),
                            stack=_recorded(k.stack_frame_bytes), max_threads=_recorded(k.max_threads_per_block),
                            min_blocks=_recorded(k.min_blocks_per_sm), max_regs=_recorded(k.max_regs_per_thread),
                            max_blocks_per_cluster=_recorded(k.max_blocks_per_cluster),
                            cluster_x=_recorded(k.cluster_x), cluster_y=_recorded(k.cluster_y),
                            cluster_z=_recorded(k.cluster_z), smem_static=k.smem_bytes)
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


@dataclass(frozen=True)
class BinaryRead:
    """What read_binary found: every readable kernel, and how many entries were read or failed
    (first_failure: the status name of the first failed entry, None when none failed)."""
    kernels: tuple
    entries: int
    compressed_entries: int
    entries_read: int
    entries_failed: int
    first_failed_entry: int
    first_failure: Optional[str]


def read_binary(data: Union[bytes, bytearray, memoryview]) -> BinaryRead:
    """The kernels of every device-code entry of a binary (bytes): a cubin, a fatbinary, a host object,
    executable or shared library, compressed entries (zstd, LZ4) included; AMDGPU code objects and HIP
    offload bundles (.hip_fatbin, compressed CCOB bundles) too.  An unreadable entry is
    counted in the result and does not hide the others.

    Raises TypeError for a non-bytes argument; gpuocc.Error "format", "truncated", "unsupported" when the
    containers cannot be walked, or the first failure's status when no entry could be read."""
    data = _bytes(data, "data")
    summary = _CBinarySummary(size=ctypes.sizeof(_CBinarySummary))
    _call("gpuocc_binary_scan", data, len(data), ctypes.byref(summary))
    workspace = ctypes.create_string_buffer(max(summary.workspace_bytes, 1))
    kernels = []
    capacity = 256
    records = (_CBinaryKernel * capacity)()
    library.gpuocc_binary_kernel_init(records)
    for entry in range(summary.entries):
        count = c_i32()
        args = (data, len(data), entry, workspace, summary.workspace_bytes)
        # the summary counts each entry's outcome, and lets entries read in order walk the file once
        status = library.gpuocc_binary_read_entry(*args, records, capacity, ctypes.byref(count), ctypes.byref(summary))
        if status == _ERR_BUFFER:
            capacity = count.value
            records = (_CBinaryKernel * capacity)()
            library.gpuocc_binary_kernel_init(records)
            status = library.gpuocc_binary_read_entry(*args, records, capacity, ctypes.byref(count),
                                                      ctypes.byref(summary))
        if status != _OK:
            continue
        raw = workspace.raw if any(k.name_buffer for k in records[:count.value]) else b""
        for k in records[:count.value]:
            base = data if k.name_buffer == 0 else raw
            kernels.append(_binary_kernel(
                k, base[k.name_offset:k.name_offset + k.name_length].decode(errors="replace"),
                base[k.short_offset:k.short_offset + k.short_length].decode(errors="replace"),
                base[k.target_offset:k.target_offset + k.target_length].decode(errors="replace")))
    if summary.entries_read == 0 and summary.entries_failed > 0:
        raise Error(summary.first_failure, f"entry {summary.first_failed_entry}")
    first = status_name(summary.first_failure) if summary.entries_failed else None
    return BinaryRead(tuple(kernels), summary.entries, summary.compressed_entries, summary.entries_read,
                      summary.entries_failed, summary.first_failed_entry, first)


# ======================================================================================================
# Many launches at once: columns
# ======================================================================================================
class Columns(Mapping):
    """The answer of a call over many launches (batch, sweep): a read-only mapping from column name
    (the short names: threads, blocks_per_sm, occupancy, ...) to one array.array per column, all of the
    same length (or numpy arrays, when numpy arrays were passed in).  "No limit" is -1 in integer
    columns, as in CSV.  len(columns) is the number of columns; columns.rows the number of rows;
    columns.row(i) one row as a dict; columns.to_dicts() every row."""

    def __init__(self, columns: "dict[str, Any]"):
        lengths = {len(v) for v in columns.values()}
        if len(lengths) > 1:
            raise ValueError(f"columns of different lengths: {sorted(lengths)}")
        self._columns = dict(columns)
        self.rows = lengths.pop() if lengths else 0

    def __getitem__(self, name: str) -> Any:
        return self._columns[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._columns)

    def __len__(self) -> int:
        return len(self._columns)

    def row(self, i: int) -> dict:
        return {name: values[i] for name, values in self._columns.items()}

    def to_dicts(self) -> list:
        return [self.row(i) for i in range(self.rows)]

    def __repr__(self) -> str:
        return f"gpuocc.Columns({self.rows} rows: {', '.join(self._columns)})"


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


# ======================================================================================================
# Status and version
# ======================================================================================================
def strerror(status: int) -> str:
    """The library's description of a status code."""
    return library.gpuocc_strerror(_i32(status, "status")).decode()


def status_name(status: int) -> str:
    """The short name of a status code ("ok", "threads", ...)."""
    return library.gpuocc_status_name(_i32(status, "status")).decode()


def resource_name(resource: int) -> str:
    """The name of a GPUOCC_RESOURCE_* value, "" if unknown."""
    return library.gpuocc_resource_name(_i32(resource, "resource")).decode()


def version() -> str:
    """The loaded library's version, "MAJOR.MINOR.PATCH" (gpuocc.__version__ is this module's)."""
    return library.gpuocc_version_string().decode()


def version_number() -> int:
    """The loaded library's MAJOR * 10000 + MINOR * 100 + PATCH."""
    return library.gpuocc_version()
