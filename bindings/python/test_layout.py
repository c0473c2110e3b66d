#!/usr/bin/env python3
"""The Python package's layout and public surface: its modules follow the library's layers, each
importing only modules below its own (read with ast: the order is fixed here); every name `import
gpuocc` gave before the module became a package is still there, the very object of the module that
defines it, and `__all__` is the same list in the same order.  (GPUOCC_LIBRARY and PYTHONPATH set by
Meson, as for test_gpuocc.py.)"""
import ast
import importlib
import os
import unittest

import gpuocc

# The package's modules, bottom first: each may import only modules before it in this list.
ORDER = ["_library", "_types", "_occupancy", "_batch", "_models", "_caches", "_readers", "_fits", "triton"]
PACKAGE = os.path.dirname(os.path.abspath(gpuocc.__file__))

# gpuocc.__all__ as bindings/python/gpuocc.py (one module, 0.2.0) defined it, in its order (0.2.0 adds the
# cluster functions and their two result types after sweep_range, then
# Step, StepChange and next_steps; max_stages follows regs_max_for_blocks; fits, Fit and Fits, and the
# modules _fits and triton, are the tuning work's).
ALL = [
    "Error", "Device", "Kernel", "Result", "Limits", "BestBlock", "NextStep", "Step", "StepChange", "CatalogEntry",
    "LatencyVerdict", "Cusp", "BytesInFlight", "BandwidthPrediction", "Perf", "SpillCost", "TradeoffStep", "Waves", "Setmaxnreg",
    "MinBlocks", "Divergence",
    "Routing", "Diagnosis", "Roofline", "CompiledKernel", "BinaryKernel", "BinaryRead", "RemarksKernel",
    "Columns", "Fit", "Fits", "AXES", "RESOURCES", "STALLS", "UNLIMITED", "CARVEOUT_DEFAULT", "SMOOTH_K",
    "LOADED_LATENCY_BASE", "DRAM_QUEUE_BITS", "device", "devices", "catalog_device", "custom_device",
    "validate_device", "kernel", "occupancy", "limits", "regs_per_warp", "regs_per_block", "smem_per_block",
    "smem_carveout", "best_block", "smem_dynamic_available", "regs_max_for_blocks", "max_stages", "next_step", "next_steps",
    "batch", "sweep", "sweep_steps", "sweep_range", "fits", "cluster_size_max", "cluster_check", "gpc_layout",
    "clusters_per_gpc", "cluster_occupancy", "ClusterResult", "GpcLayout", "warps_needed", "mix_warps_needed", "mix_cusp", "bytes_in_flight",
    "bandwidth_at", "bandwidth", "bandwidth_model", "latency_check", "perf", "spill_slowdown", "spill_estimate",
    "tradeoff", "waves", "lane_efficiency", "divergence", "routing", "stall_name", "stall_from_name",
    "diagnose", "roofline", "tmem_holders", "setmaxnreg", "min_blocks_check", "read_ptxas", "read_cubin", "read_binary", "read_remarks", "binary_kernel_registers", "strerror",
    "status_name", "resource_name", "limiter_names", "version", "version_number", "library",
]
# The other names the one module had at its top level that code outside it reads: the version, the
# ctypes aliases without an underscore, and the C layouts and signatures the tests check.
OTHER = [
    "__version__", "c_i32", "c_u32", "c_i64", "c_u64", "c_dbl", "P", "_SIGNATURES",
    "_CDevice", "_CKernel", "_CResult", "_CLatencyVerdict", "_CPerf", "_CBandwidthPrediction", "_CSpillInput",
    "_CSpillCost", "_CTradeoffStep", "_CWaves", "_CRouting", "_CCompiledKernel", "_CSweepPoint", "_CPrepared",
    "_CBatch", "_CBinaryKernel", "_CRemarksKernel", "_CBinarySummary",
]


def sibling_imports(module):
    """(line, sibling module name) of every import of another module of the package in `module`."""
    with open(os.path.join(PACKAGE, module + ".py")) as f:
        tree = ast.parse(f.read(), module + ".py")
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            # from ._x import ... names _x; from . import _x, _y names each
            found += [(node.lineno, node.module)] if node.module else [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level > 1:
            found.append((node.lineno, "." * node.level + (node.module or "")))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "gpuocc":
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "gpuocc"]
    return found


def top_level_names(module):
    """The names `module` defines at its top level (not the ones it imports)."""
    with open(os.path.join(PACKAGE, module + ".py")) as f:
        tree = ast.parse(f.read())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:  # a name, or a tuple of names (not an attribute: _CKernel._fields_dict)
                names.update(n.id for n in getattr(target, "elts", [target]) if isinstance(n, ast.Name))
    return names


class Layers(unittest.TestCase):
    def test_every_module_has_its_place_in_the_order(self):
        modules = sorted(name[:-3] for name in os.listdir(PACKAGE) if name.endswith(".py"))
        # _paths.py: generated at install (the library's recorded path), read as data, imported by no module
        self.assertEqual(sorted(set(modules) - {"__init__", "_paths"}), sorted(ORDER))

    def test_imports_go_only_downward(self):
        for i, module in enumerate(ORDER):
            for line, imported in sibling_imports(module):
                self.assertIn(imported, ORDER[:i],
                              f"gpuocc/{module}.py:{line} imports {imported}: only {ORDER[:i] or 'nothing'} "
                              f"may be imported there (the order: {', '.join(ORDER)})")

    def test_the_checker_sees_the_imports(self):
        # the walk above finds what is there: the top module imports the ones below it
        self.assertEqual({name for _, name in sibling_imports("_readers")}, {"_library", "_types", "_caches"})
        self.assertEqual(sibling_imports("_library"), [])


class PublicNames(unittest.TestCase):
    def test_all_is_unchanged(self):
        self.assertEqual(gpuocc.__all__, ALL)

    def test_every_name_is_still_there(self):
        missing = [name for name in ALL + OTHER if not hasattr(gpuocc, name)]
        self.assertFalse(missing, f"gone from import gpuocc: {missing}")

    def test_each_name_is_the_object_of_the_module_defining_it(self):
        defined = {module: top_level_names(module) for module in ORDER}
        for name in ALL + OTHER:
            homes = [module for module in ORDER if name in defined[module]]
            self.assertEqual(len(homes), 1, f"{name} is defined in {homes or 'no module'}")
            self.assertIs(getattr(gpuocc, name), getattr(importlib.import_module("gpuocc." + homes[0]), name), name)


if __name__ == "__main__":
    unittest.main()
