"""The bottom of the package, the C side: the ctypes mirrors of include/gpuocc.h's structs, the signature
of every symbol called (_SIGNATURES), finding and loading the library, gpuocc.Error and the argument
checks every wrapper uses, and the status and version calls.  Imports nothing of the package."""
from __future__ import annotations

import ctypes
import itertools
import ctypes.util
import dataclasses
import glob
import numbers
import operator
import os
import struct
import sys
from dataclasses import field
from typing import Any, Callable, Iterator, Optional

__version__ = "1.0.0"


# ======================================================================================================
# C layouts: ctypes mirrors of include/gpuocc.h (private; the public types are the dataclasses of _types.py)
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
                ("reserved0", c_i32), ("reserved1", c_i32), ("reserved", c_u64 * 1),
                # Intel (1.0.0, the tail past the 0.1.0 layout's 232 bytes)
                ("xves_per_xecore", c_i32), ("threads_per_xve", c_i32), ("sub_group_sizes", c_i32),
                ("grf_max", c_i32), ("grf_table", c_i32), ("runtime_barriers_per_xecore", c_i32),
                ("slm_sizes_kib", c_i32 * 16), ("runtime_slm_sizes_kib", c_i32 * 16),
                # NVIDIA's virtual resources, then named barriers per block (NVIDIA 16, 0 = the same)
                ("virtual_resources_per_sm", c_i32), ("barriers_per_block_max", c_i32),
                # NVIDIA's tensor-memory columns per SM
                ("tmem_columns_per_sm", c_i32), ("reserved2", c_i32)]


class _CKernel(ctypes.Structure):
    _fields_ = [("size", c_u32), ("threads_per_block", c_i32), ("regs_per_thread", c_i32), ("barriers", c_i32),
                ("smem_static_bytes", c_i64), ("smem_dynamic_bytes", c_i64), ("carveout_percent", c_i32),
                ("smem_optin", c_i32), ("smem_dynamic_max_bytes", c_i64), ("max_threads_per_block", c_i32),
                ("agprs", c_i32), ("sgprs", c_i32), ("wave_size", c_i32), ("cu_mode", c_i32), ("model", c_i32),
                ("rocm_version", c_i32), ("reserved0", c_i32), ("reserved", c_u64 * 1),
                ("sub_group", c_i32), ("grf", c_i32), ("virtual_resources", c_i32), ("reserved2", c_i32),
                ("tmem_columns", c_i32), ("dvgpr", c_i32),
                # AMD's compiler inputs
                ("trap_handler", c_i32), ("waves_per_eu_min", c_i32), ("waves_per_eu_max", c_i32),
                ("flat_workgroup_size_min", c_i32)]


class _CResult(ctypes.Structure):
    _fields_ = [("size", c_u32), ("limiters", c_u32), ("blocks_per_sm", c_i32), ("warps_per_sm", c_i32),
                ("max_warps_per_sm", c_i32), ("warps_per_block", c_i32), ("occupancy", c_dbl),
                ("limit_warps", c_i32), ("limit_regs", c_i32), ("limit_smem", c_i32), ("limit_blocks", c_i32),
                ("limit_barriers", c_i32), ("regs_per_block", c_i32), ("smem_per_block_bytes", c_i64),
                ("smem_per_sm_bytes", c_i64), ("model", c_i32), ("waves_per_simd", c_i32),
                ("limit_sgprs", c_i32), ("reserved0", c_i32), ("reserved", c_u64 * 2),
                ("workgroups_per_gpu", c_i64), ("limit_virtual_resources", c_i32), ("reserved2", c_i32),
                ("exceeded", c_i32), ("reserved3", c_i32), ("exceeded_limit", c_i64)]


class _CLatencyVerdict(ctypes.Structure):
    _fields_ = [("size", c_u32), ("hidden", c_i32), ("in_flight", c_dbl), ("warps_needed", c_dbl),
                ("extra_warps", c_dbl), ("ilp_needed", c_dbl), ("reserved", c_u64 * 4)]


class _CPerf(ctypes.Structure):
    _fields_ = [("size", c_u32), ("sm_count", c_i32), ("sm_clock_mhz", c_dbl), ("dram_bandwidth_gbps", c_dbl),
                ("l2_bandwidth_gbps", c_dbl), ("latency_clock_mhz", c_dbl), ("dram_latency_cycles", c_dbl),
                ("l2_latency_cycles", c_dbl), ("l1_latency_cycles", c_dbl), ("smem_latency_cycles", c_dbl),
                ("fp32_latency_cycles", c_dbl), ("fp32_lanes", c_dbl), ("issue_per_cycle", c_dbl),
                ("bytes_in_flight_target", c_dbl), ("reserved", c_u64 * 4), ("dram_bus_bits", c_dbl),
                ("dram_attainable_gbps", c_dbl), ("dram_latency_own", c_i32), ("reserved1", c_i32),
                ("dram_memory", ctypes.c_char * 16), ("dram_source", ctypes.c_char * 384)]


class _CBandwidthPrediction(ctypes.Structure):
    _fields_ = [("size", c_u32), ("sm_count", c_i32), ("bandwidth_gbps", c_dbl), ("fraction_of_peak", c_dbl),
                ("peak_gbps", c_dbl), ("latency_ns", c_dbl), ("loaded_latency_ns", c_dbl),
                ("bytes_in_flight_per_sm", c_dbl), ("warps_for_80", c_dbl), ("warps_for_90", c_dbl),
                ("warps_for_95", c_dbl), ("reserved", c_u64 * 4), ("attainable_gbps", c_dbl), ("bus_bits", c_dbl),
                ("pin_rate_gbps", c_dbl), ("queue_service_ns", c_dbl), ("fraction_of_attainable", c_dbl)]


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


class _CSetmaxnreg(ctypes.Structure):
    _fields_ = [("size", c_u32), ("fits", c_i32), ("pool_regs", c_i64), ("requested_regs", c_i64),
                ("mean_regs_per_thread", c_dbl), ("blocks_per_sm", c_i32), ("warnings", c_u32),
                ("warpgroups", c_i32), ("reserved0", c_i32), ("reserved", c_u64 * 2)]


class _CWaves(ctypes.Structure):
    _fields_ = [("size", c_u32), ("reserved0", c_i32), ("blocks_per_wave", c_i64), ("full_waves", c_i64),
                ("waves", c_i64), ("last_wave_blocks", c_i64), ("last_wave_utilization", c_dbl),
                ("efficiency", c_dbl), ("grid_down", c_i64), ("grid_up", c_i64), ("reserved", c_u64 * 4)]


GPC_MAX = 32  # GPUOCC_MAX_GPCS


class _CCluster(ctypes.Structure):
    _fields_ = [("size", c_u32), ("cluster_x", c_i32), ("cluster_y", c_i32), ("cluster_z", c_i32),
                ("cluster_nonportable", c_i32), ("max_blocks_per_cluster", c_i32), ("grid_x", c_i64),
                ("grid_y", c_i64), ("grid_z", c_i64)]


class _CGpcLayout(ctypes.Structure):
    _fields_ = [("size", c_u32), ("gpc_count", c_i32), ("exact", c_i32), ("sm_count", c_i32),
                ("sms_per_tpc", c_i32), ("tpcs_per_gpc_max", c_i32), ("sms_per_gpc", c_i32 * GPC_MAX)]


class _CClusterResult(ctypes.Structure):
    _fields_ = [("size", c_u32), ("verdict", c_i32), ("cluster_blocks", c_i32), ("cluster_blocks_max", c_i32),
                ("blocks_per_sm", c_i32), ("clusters_exact", c_i32), ("gpc_count", c_i32), ("reserved0", c_i32),
                ("clusters_min", c_i64), ("clusters_max", c_i64)]


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
                ("cluster_z", c_i32), ("arch_variant", c_u32), ("reserved", c_u64 * 2)]


class _CSweepPoint(ctypes.Structure):
    _fields_ = [("value", c_i64), ("blocks_per_sm", c_i32), ("warps_per_sm", c_i32), ("occupancy", c_dbl),
                ("limiters", c_u32), ("limit_warps", c_i32), ("limit_regs", c_i32), ("limit_smem", c_i32),
                ("limit_blocks", c_i32), ("limit_barriers", c_i32), ("regs_per_block", c_i32),
                ("reserved0", c_i32), ("smem_per_block_bytes", c_i64), ("smem_per_sm_bytes", c_i64)]


class _CStepChange(ctypes.Structure):
    _fields_ = [("resource", c_i32), ("reserved0", c_i32), ("new_value", c_i64), ("shed", c_i64)]


STEP_ALSO_MAX = 3
STEPS_MAX = 8


class _CStep(ctypes.Structure):
    _fields_ = [("blocks_per_sm", c_i32), ("also_count", c_i32), ("change", _CStepChange),
                ("also", _CStepChange * STEP_ALSO_MAX)]


class _CPreparedNvidia(ctypes.Structure):
    # gpuocc_prepared_nvidia: 22 int32 values, the carveouts, four int64 byte counts, four reserved words
    _fields_ = [("values", c_i32 * 22), ("carveouts_kib", c_i32 * 16), ("smem", c_i64 * 4),
                ("reserved", c_u64 * 4)]


class _CPrepared(ctypes.Structure):
    _fields_ = [("size", c_u32), ("magic", c_u32), ("device", _CDevice), ("nvidia", _CPreparedNvidia)]


# gpuocc_batch's pointers take 64 bits on every target (GPUOCC_PTR64): an address, 0 for NULL
_VP = c_u64


class _CBatch(ctypes.Structure):
    _fields_ = [("size", c_u32), ("smem_width", c_i32), ("threads_per_block", _VP), ("regs_per_thread", _VP),
                ("smem_static_bytes", _VP), ("smem_dynamic_bytes", _VP), ("status", _VP),
                ("blocks_per_sm", _VP), ("warps_per_sm", _VP), ("occupancy", _VP), ("limiters", _VP),
                ("limit_warps", _VP), ("limit_regs", _VP), ("limit_smem", _VP), ("limit_blocks", _VP),
                ("limit_barriers", _VP), ("regs_per_block", _VP), ("smem_per_block_bytes", _VP),
                ("smem_per_sm_bytes", _VP), ("waves_per_simd", _VP), ("limit_sgprs", _VP), ("reserved", c_u64 * 2),
                ("barriers", _VP), ("virtual_resources", _VP), ("tmem_columns", _VP),
                ("limit_virtual_resources", _VP), ("exceeded", _VP), ("exceeded_limit", _VP)]


class _CBinaryKernel(ctypes.Structure):
    _fields_ = [("size", c_u32), ("vendor", c_u32), ("entry", c_i32), ("name_buffer", c_i32),
                ("name_offset", c_u64), ("name_length", c_u64), ("short_offset", c_u64), ("short_length", c_u64),
                ("cc", c_i32), ("registers", c_i32), ("barriers", c_i32), ("max_threads_per_block", c_i32),
                ("smem_bytes", c_i64), ("cmem_bytes", c_i64), ("stack_frame_bytes", c_i64),
                ("min_blocks_per_sm", c_i32), ("max_regs_per_thread", c_i32), ("max_blocks_per_cluster", c_i32),
                ("cluster_x", c_i32), ("cluster_y", c_i32), ("cluster_z", c_i32),
                # AMD: from the code object's NT_AMDGPU_METADATA note
                ("target_offset", c_u64), ("target_length", c_u64), ("vgprs", c_i32), ("agprs", c_i32),
                ("sgprs", c_i32), ("wave_size", c_i32), ("lds_bytes", c_i64), ("scratch_bytes", c_i64),
                ("max_flat_workgroup_size", c_i32), ("vgpr_spill_count", c_i32), ("sgpr_spill_count", c_i32),
                ("uses_dynamic_stack", c_i32), ("amd_mach", c_u32), ("code_object_version", c_i32),
                ("workgroup_processor_mode", c_i32), ("reserved1", c_i32), ("reserved", c_u64 * 6),
                # which copy, and the target's variant ('a', 'f' or 0)
                ("linked", c_i32), ("arch_variant", c_u32),

                # Intel: from a zebin's .ze_info section
                ("sub_group", c_i32), ("grf", c_i32), ("slm_bytes", c_i64), ("scratch_per_thread_bytes", c_i64),
                ("private_bytes", c_i64), ("private_per_work_item", c_i32), ("product_family", c_u32),
                ("spill_bytes", c_i64), ("reserved2", c_i64 * 2),
                # Blackwell's records (EIATTR 0x4a, 0x51/0x52, 0x54), AMD's (filled by the AMD reader), and a
                # launch's metadata (a Triton json, filled by the caller that pairs them)
                ("virtual_resources", c_i32), ("tmem_cta_group", c_i32), ("setmaxnreg", c_i32),
                ("waves_per_eu_min", c_i32), ("waves_per_eu_max", c_i32), ("flat_workgroup_size_min", c_i32),
                ("launch_threads", c_i32), ("tmem_columns", c_i32), ("metadata_offset", c_u64),
                ("metadata_length", c_u64)]


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
                ("reserved", c_u64 * 4), ("containers", c_i32), ("skipped_candidates", c_i32),
                ("uncompiled_entries", c_i32), ("reserved1", c_i32), ("fault", c_i32), ("fault_value", c_i32),
                ("fault_offset", c_i64)]


class _CBinaryEntry(ctypes.Structure):
    """gpuocc_binary_entry: where an entry is and what reading it takes (gpuocc_binary_entry_info)."""
    _fields_ = [("size", c_u32), ("container", c_u32), ("entry", c_i32), ("sm", c_i32), ("compression", c_u32),
                ("section", c_u32), ("section_name_offset", c_u64), ("section_name_length", c_u64),
                ("container_offset", c_u64), ("offset", c_u64), ("stored_bytes", c_u64), ("image_bytes", c_u64),
                ("workspace_bytes", c_u64), ("fast_workspace_bytes", c_u64), ("reserved", c_u64 * 4)]


_SMEM_FN = ctypes.CFUNCTYPE(c_i64, c_i32, ctypes.c_void_p)
_CCHARP = ctypes.c_char_p

# Every symbol this module calls, with its C signature (include/gpuocc.h).
_SIGNATURES = {
    "gpuocc_strerror": (_CCHARP, [c_i32]),
    "gpuocc_status_name": (_CCHARP, [c_i32]),
    "gpuocc_input_name": (_CCHARP, [c_i32]),
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
    "gpuocc_occupancy_prepared": (c_i32, [P(_CPrepared), P(_CKernel), P(_CResult)]),
    "gpuocc_best_block_affine": (c_i32, [P(_CDevice), P(_CKernel), c_i64, c_i64, P(c_i32), P(c_i32)]),
    "gpuocc_best_block_table": (c_i32, [P(_CDevice), P(_CKernel), P(c_i64), c_i32, P(c_i32), P(c_i32)]),
    "gpuocc_best_block_callback": (c_i32, [P(_CDevice), P(_CKernel), _SMEM_FN, ctypes.c_void_p, P(c_i32),
                                           P(c_i32)]),
    "gpuocc_smem_dynamic_available": (c_i32, [P(_CDevice), P(_CKernel), c_i32, P(c_i64)]),
    "gpuocc_regs_max_for_blocks": (c_i32, [P(_CDevice), P(_CKernel), c_i32, P(c_i32)]),
    "gpuocc_max_stages": (c_i32, [P(_CDevice), P(_CKernel), c_i32, c_i64, c_i64, P(c_i64)]),
    "gpuocc_next_step": (c_i32, [P(_CDevice), P(_CKernel), c_i32, P(c_i64), P(c_i64)]),
    "gpuocc_next_steps": (c_i32, [P(_CDevice), P(_CKernel), P(_CStep), c_i32, P(c_i32)]),
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
    "gpuocc_bandwidth_model": (c_i32, [c_dbl, c_dbl, c_i32, c_dbl, c_dbl, c_dbl, c_dbl, P(_CBandwidthPrediction)]),
    "gpuocc_bandwidth_predict": (c_i32, [_CCHARP, c_dbl, c_dbl, P(_CBandwidthPrediction)]),
    "gpuocc_latency_check": (c_i32, [c_dbl, c_dbl, c_dbl, c_dbl, P(_CLatencyVerdict)]),
    "gpuocc_perf_lookup": (c_i32, [_CCHARP, P(_CPerf)]),
    "gpuocc_spill_slowdown": (c_i32, [c_dbl, c_dbl, c_dbl, P(c_dbl)]),
    "gpuocc_spill_input_init": (c_i32, [P(_CSpillInput)]),
    "gpuocc_spill_estimate": (c_i32, [P(_CSpillInput), P(_CSpillCost)]),
    "gpuocc_tradeoff": (c_i32, [P(_CDevice), P(_CKernel), c_dbl, c_dbl, c_dbl, P(_CTradeoffStep), c_i32,
                                P(c_i32)]),
    "gpuocc_waves": (c_i32, [c_i64, c_i32, c_i32, P(_CWaves)]),
    "gpuocc_tmem_holders": (c_i32, [P(_CDevice), c_i32, P(c_i32)]),
    "gpuocc_setmaxnreg_check": (c_i32, [P(_CDevice), P(_CKernel), P(c_i32), c_i32, c_i32, P(_CSetmaxnreg)]),
    "gpuocc_min_blocks_check": (c_i32, [P(_CDevice), P(_CKernel), c_i32, P(c_i32), P(c_u32)]),
    "gpuocc_cluster_init": (c_i32, [P(_CCluster)]),
    "gpuocc_cluster_size_max": (c_i32, [P(_CDevice), c_i32, P(c_i32)]),
    "gpuocc_cluster_check": (c_i32, [P(_CDevice), P(_CCluster), P(c_i32)]),
    "gpuocc_gpc_layout_lookup": (c_i32, [_CCHARP, P(_CGpcLayout)]),
    "gpuocc_clusters_per_gpc": (c_i32, [c_i32, c_i32, c_i32, P(c_i64)]),
    "gpuocc_cluster_occupancy": (c_i32, [P(_CDevice), P(_CKernel), P(_CCluster), P(_CGpcLayout),
                                         P(_CClusterResult)]),
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
    "gpuocc_binary_kernel_registers": (c_i32, [P(_CDevice), P(_CBinaryKernel), P(c_i32), P(c_i32)]),
    "gpuocc_remarks_kernel_init": (c_i32, [P(_CRemarksKernel)]),
    "gpuocc_remarks_parse": (c_i32, [_CCHARP, ctypes.c_size_t, P(_CRemarksKernel), c_i32, P(c_i32), P(c_i32)]),
    "gpuocc_binary_scan": (c_i32, [ctypes.c_void_p, ctypes.c_size_t, P(_CBinarySummary)]),
    "gpuocc_binary_read_entry": (c_i32, [ctypes.c_void_p, ctypes.c_size_t, c_i32, ctypes.c_void_p, ctypes.c_size_t,
                                         P(_CBinaryKernel), c_i32, P(c_i32), P(_CBinarySummary)]),
    "gpuocc_binary_entry_info": (c_i32, [ctypes.c_void_p, ctypes.c_size_t, c_i32, P(_CBinaryEntry),
                                         P(_CBinarySummary)]),
}

# Status codes the module itself needs (include/gpuocc.h, fixed values).
_OK, _ERR_ARGUMENT, _ERR_BUFFER, _ERR_UNSATISFIABLE, _ERR_REGISTERS = 0, -12, -19, -13, -8
_ERR_SMEM, _ERR_BARRIERS = -9, -10
_ERR_FORMAT, _ERR_TRUNCATED = -22, -21  # GPUOCC_ERR_FORMAT, GPUOCC_ERR_TRUNCATED
_VENDOR_AMD = 2  # GPUOCC_VENDOR_AMD
_VENDOR_INTEL = 3  # GPUOCC_VENDOR_INTEL

UNLIMITED = -1          # GPUOCC_UNLIMITED in C; None in Python results
CARVEOUT_DEFAULT = -1   # GPUOCC_CARVEOUT_DEFAULT: the driver's choice (the largest carveout)
SMOOTH_K = 3.1062837195053903  # GPUOCC_SMOOTH_K: 80 % of peak bandwidth at the knee
LOADED_LATENCY_BASE = 1.69  # GPUOCC_LOADED_LATENCY_BASE: streaming round trip / unloaded latency at light load
DRAM_QUEUE_BITS = 210.0  # GPUOCC_DRAM_QUEUE_BITS: M/M/1 service time of the DRAM queue, in bit times of one data pin


# ======================================================================================================
# Finding and loading the library
# ======================================================================================================
# File names to look for in the package's folder (glob patterns, best first), and the name for the system search.
_LIBRARY_NAMES = {"win32": ["gpuocc.dll", "libgpuocc.dll", "gpuocc.dll"],
                  "darwin": ["libgpuocc.1.dylib", "libgpuocc*.dylib", "libgpuocc.1.dylib"]}
_LIBRARY_NAMES_ELF = ["libgpuocc.so.1", "libgpuocc.so.1.*", "libgpuocc.so", "libgpuocc.so.1"]


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
    yield f"in the package's folder ({here})", beside[0] if beside else None
    recorded = None
    paths = os.path.join(here, "_paths.py")  # written at configure time, installed in the package
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
            raise ImportError(f"libgpuocc at {path} ({where}) is too old for the Python package gpuocc "
                              f"{__version__}: it lacks {', '.join(missing)}")
        for name, (restype, argtypes) in _SIGNATURES.items():
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = restype, argtypes
        return lib
    raise ImportError("libgpuocc not found; set GPUOCC_LIBRARY to its path. Looked in: " + "; ".join(tried))


library = _open()
"""The loaded C library (ctypes.CDLL), every symbol of _SIGNATURES typed."""

# The per-call fast path's pieces (_occupancy, _batch): the prepared single call; the batch call taking its
# gpuocc_batch as bytes packed in one step (the library only reads it); the result read in one unpack.
_occupancy_prepared = library.gpuocc_occupancy_prepared
_batch_packed = library._FuncPtr(("gpuocc_occupancy_batch", library))
_batch_packed.restype, _batch_packed.argtypes = c_i32, [P(_CPrepared), P(_CKernel), ctypes.c_char_p, ctypes.c_size_t]
# gpuocc_batch: size, smem_width, the 19 column addresses (0: NULL), reserved, the 6 column addresses after it
_BATCH_PACK = struct.Struct("<Ii19Q16x6Q")
# gpuocc_result from limiters to limit_sgprs, then workgroups_per_gpu, limit_virtual_resources, exceeded and
# exceeded_limit (size, the reserved words skipped)
_RESULT_UNPACK = struct.Struct("<4xIiiiidiiiiiiqqiii4x16xqi4xi4xq")
# The inputs gpuocc_result.exceeded names, by GPUOCC_INPUT_* value: the library's own names ("" for none)
INPUT_NAMES = ("",) + tuple(itertools.takewhile(bool, (library.gpuocc_input_name(i).decode() for i in range(1, 64))))
assert _BATCH_PACK.size == ctypes.sizeof(_CBatch) and _RESULT_UNPACK.size == ctypes.sizeof(_CResult)


# ======================================================================================================
# Errors and argument checks
# ======================================================================================================
class Error(ValueError):
    """The library rejected a value (or a value does not fit its C type).

    .status: the negative GPUOCC_ERR_* code; .name: its short name ("threads", "unsatisfiable",
    "argument", ...), as gpuocc_status_name() and the CLI's `status` column give it.  .exceeded,
    .exceeded_limit: for a launch no compiler or driver accepts, the field over a limit ("barriers",
    "smem_static") and the limit's value, as `gpuocc batch`'s columns of the same names; else None."""

    def __init__(self, status: int, where: str = "", exceeded: Optional[str] = None,
                 exceeded_limit: Optional[int] = None, reason: Optional[str] = None):
        self.status = status
        self.code = status
        self.name = library.gpuocc_status_name(status).decode()
        self.exceeded = exceeded
        self.exceeded_limit = exceeded_limit
        self.where = where
        text = reason or library.gpuocc_strerror(status).decode()
        self.reason = text  # what is wrong, without `where` and the status name
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
