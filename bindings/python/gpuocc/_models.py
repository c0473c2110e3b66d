"""The models beyond occupancy (docs/models.md): latency hiding (Little's law, the instruction mix),
bandwidth, spills and the register tradeoff, waves, divergence and routing, stall diagnosis, the
roofline.  Imports _library, _types and _occupancy (tradeoff checks its device and kernel there)."""
from __future__ import annotations

import ctypes
from typing import Any, Optional, Sequence, Union

from ._library import (Error, _CBandwidthPrediction, _CCHARP, _CLatencyVerdict, _CPerf, _CRouting, _CSetmaxnreg,
                       _CSpillCost, _CSpillInput, _CTradeoffStep, _CWaves, _ERR_ARGUMENT, _ERR_BUFFER, _OK, _call,
                       _f64, _from_c, _i32, _i64, _text, c_dbl, c_i32, c_u32, library)
from ._occupancy import _device, _pair
from ._types import (BandwidthPrediction, BytesInFlight, Cusp, Device, Diagnosis, Divergence, Kernel, LatencyVerdict,
                     MinBlocks, Perf, Roofline, Routing, Setmaxnreg, SpillCost, TradeoffStep, Waves, limiter_names)


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


def mix_cusp(alu_latency_cycles: float, alu_throughput: float, mem_latency_cycles: float,
             mem_throughput: float) -> Cusp:
    """The cusp of the instruction-mix model (no issue limit)."""
    a, w = c_dbl(), c_dbl()
    _call("gpuocc_mix_cusp", _f64(alu_latency_cycles, "alu_latency_cycles"), _f64(alu_throughput, "alu_throughput"),
          _f64(mem_latency_cycles, "mem_latency_cycles"), _f64(mem_throughput, "mem_throughput"),
          ctypes.byref(a), ctypes.byref(w))
    return Cusp(a.value, w.value)


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
                    peak_gbps: float, bus_bits: float, attainable_gbps: float = 0.0) -> BandwidthPrediction:
    """The same model with explicit constants: unloaded DRAM latency (ns), peak bandwidth (GB/s), the DRAM
    interface's data pins, and the best bandwidth measured on it (0: the peak)."""
    p = _CBandwidthPrediction(size=ctypes.sizeof(_CBandwidthPrediction))
    _call("gpuocc_bandwidth_model", _f64(warps_per_sm, "warps_per_sm"), _f64(bytes_per_warp, "bytes_per_warp"),
          _i32(sm_count, "sm_count"), _f64(latency_ns, "latency_ns"), _f64(peak_gbps, "peak_gbps"),
          _f64(bus_bits, "bus_bits"), _f64(attainable_gbps, "attainable_gbps"), ctypes.byref(p))
    return _from_c(BandwidthPrediction, p)


def latency_check(warps_per_sm: float, latency_cycles: float, throughput_per_cycle: float,
                  ilp: float = 1.0) -> LatencyVerdict:
    """Is this latency hidden with warps_per_sm resident warps (Little's law)?  ilp_needed is None when
    no ILP would do (0 warps)."""
    v = _CLatencyVerdict(size=ctypes.sizeof(_CLatencyVerdict))
    _call("gpuocc_latency_check", _f64(warps_per_sm, "warps_per_sm"), _f64(latency_cycles, "latency_cycles"),
          _f64(throughput_per_cycle, "throughput_per_cycle"), _f64(ilp, "ilp"), ctypes.byref(v))
    return _from_c(LatencyVerdict, v)


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


def waves(grid_blocks: int, sm_count: int, blocks_per_sm: int) -> Waves:
    """Waves of a grid of grid_blocks on sm_count SMs at blocks_per_sm (grid_down/grid_up: the nearest
    grids with no tail)."""
    w = _CWaves(size=ctypes.sizeof(_CWaves))
    _call("gpuocc_waves", _i64(grid_blocks, "grid_blocks"), _i32(sm_count, "sm_count"),
          _i32(blocks_per_sm, "blocks_per_sm"), ctypes.byref(w))
    return _from_c(Waves, w)


# ======================================================================================================
# Hopper- and Blackwell-era resources (docs/model.md)
# ======================================================================================================
def tmem_holders(dev: Union[Device, str], tmem_columns: int) -> Optional[int]:
    """Blocks per SM that can hold `tmem_columns` tensor-memory columns at once (floor(512 / columns) on
    sm_100, sm_103, sm_110); None for 0 columns.  Tensor memory never lowers blocks_per_sm: resident blocks
    beyond the holders wait at tcgen05.alloc.  gpuocc.Error "tmem" on a device without tensor memory."""
    h = c_i32()
    _call("gpuocc_tmem_holders", ctypes.byref(_device(dev)), _i32(tmem_columns, "tmem_columns"), ctypes.byref(h))
    return None if h.value == -1 else h.value


def setmaxnreg(dev: Union[Device, str], kern: Kernel, targets: Sequence[int], regs_fixed: bool = True) -> Setmaxnreg:
    """Check setmaxnreg's per-block register pool (sm_90a and later): `targets` has each warpgroup's
    registers per thread after setmaxnreg (multiples of 8 from 24 to 256), one per 128 threads of
    kern.threads; kern.regs is the launch's count.  regs_fixed=False: the kernel records no fixed register
    count (the warning `unfixed`)."""
    d, k = _pair(dev, kern)
    if isinstance(targets, (str, bytes)) or not hasattr(targets, "__len__"):
        raise TypeError("targets must be a sequence of ints, one per warpgroup")
    if len(targets) > 8:
        raise Error(_ERR_ARGUMENT, f"{len(targets)} warpgroups: a block has at most 8 (1024 threads)")
    arr = (c_i32 * max(len(targets), 1))(*[_i32(t, "targets[]") for t in targets])
    if not isinstance(regs_fixed, bool):
        raise TypeError(f"regs_fixed must be a bool, not {type(regs_fixed).__name__}")
    r = _CSetmaxnreg(size=ctypes.sizeof(_CSetmaxnreg))
    _call("gpuocc_setmaxnreg_check", ctypes.byref(d), ctypes.byref(k), arr, len(targets), int(regs_fixed),
          ctypes.byref(r))
    return Setmaxnreg(fits=bool(r.fits), pool_regs=r.pool_regs, requested_regs=r.requested_regs,
                      mean_regs_per_thread=r.mean_regs_per_thread, blocks_per_sm=r.blocks_per_sm,
                      warpgroups=r.warpgroups, unfixed=bool(r.warnings & 1))


def min_blocks_check(dev: Union[Device, str], kern: Kernel, min_blocks: int) -> MinBlocks:
    """Whether the launch reaches __launch_bounds__'s minimum of blocks per SM, and which resources (their
    limits alone below it) prevent it."""
    d, k = _pair(dev, kern)
    blocks, mask = c_i32(), c_u32()
    _call("gpuocc_min_blocks_check", ctypes.byref(d), ctypes.byref(k), _i32(min_blocks, "min_blocks"),
          ctypes.byref(blocks), ctypes.byref(mask))
    return MinBlocks(min_blocks=int(min_blocks), blocks_per_sm=blocks.value, reached=mask.value == 0,
                     preventing=limiter_names(mask.value))


def lane_efficiency(threads: int, warp_size: int = 32) -> float:
    """threads / (warps x warp_size): the lanes a block size uses."""
    v = c_dbl()
    _call("gpuocc_lane_efficiency", _i32(threads, "threads"), _i32(warp_size, "warp_size"), ctypes.byref(v))
    return v.value


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


def roofline(flops: float, bytes: float, peak_flops_per_s: float, peak_bytes_per_s: float) -> Roofline:
    """The roofline of a kernel doing `flops` over `bytes` of traffic."""
    i, r, a, c = c_dbl(), c_dbl(), c_dbl(), c_i32()
    _call("gpuocc_roofline", _f64(flops, "flops"), _f64(bytes, "bytes"), _f64(peak_flops_per_s, "peak_flops_per_s"),
          _f64(peak_bytes_per_s, "peak_bytes_per_s"), ctypes.byref(i), ctypes.byref(r), ctypes.byref(a),
          ctypes.byref(c))
    return Roofline(i.value, r.value, a.value, bool(c.value))
