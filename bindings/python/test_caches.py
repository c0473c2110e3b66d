#!/usr/bin/env python3
"""read_binary(path): the caches compilers leave, read as `gpuocc binary DIR` reads them.  The Triton cache is
tests/data/triton_cache (Triton 3.9.0's own files, compiled without a GPU by tests/triton/make_cache.py): each
kernel's launch is checked against the json Triton wrote beside it (num_warps x the target's warp size,
shared, tmem_size, maxnreg) and the rows against the CLI's (GPUOCC_CLI); the CuPy entry is written as CuPy
writes it (the MD5 of a real nvcc cubin in 32 hex digits, then the cubin).  (GPUOCC_LIBRARY, PYTHONPATH,
GPUOCC_TEST_DATA and GPUOCC_CLI set by Meson.)"""
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import unittest

import gpuocc

DATA = os.environ["GPUOCC_TEST_DATA"]
CACHE = os.path.join(DATA, "triton_cache")
CLI = os.environ["GPUOCC_CLI"]
# the fields both print, under the CLI's JSON keys (None in Python where the CLI prints null)
FIELDS = ("file", "name", "short_name", "arch", "registers", "smem", "max_regs", "cluster_x", "cluster_y",
          "cluster_z", "launch_threads", "tmem_columns", "smem_dynamic", "metadata", "virtual_resources",
          "tmem_cta_group", "setmaxnreg")


def slurp(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


def write(path, data):
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)


def cli(path, *flags):
    """`gpuocc binary PATH --json`: (rows, [(path, message)] of its stderr, exit status)."""
    p = subprocess.run([CLI, "binary", path, "--json", *flags], capture_output=True, text=True)
    problems = [tuple(line[len("gpuocc: "):].split(": ", 1)) for line in p.stderr.splitlines()]
    return json.loads(p.stdout) if p.stdout else [], problems, p.returncode


def rows(read):
    out = []
    for k in read:
        row = {f: getattr(k, f) for f in FIELDS}
        if k.vendor == "amd":  # the NVIDIA-only columns are null on AMD rows
            row.update(max_regs=None, cluster_x=None, cluster_y=None, cluster_z=None)
        out.append(row)
    return out


def cli_rows(found):
    return [{f: r[f] for f in FIELDS} for r in found]


class TritonCache(unittest.TestCase):
    def test_launch_from_each_json(self):
        read = gpuocc.read_binary(CACHE)
        self.assertEqual(len(read), 5)
        self.assertEqual(read.problems, ())
        for k in read:
            with open(k.metadata) as f:
                meta = json.load(f)
            self.assertEqual(os.path.dirname(k.metadata), os.path.dirname(k.file))
            self.assertEqual(k.short_name, meta["name"])
            self.assertEqual(k.launch_threads, meta["num_warps"] * meta["target"]["warp_size"], k)
            self.assertEqual(k.smem_dynamic, meta["shared"])
            self.assertEqual(k.tmem_columns, meta.get("tmem_size") or 0)
            if k.vendor == "nvidia" and meta.get("maxnreg"):
                self.assertEqual(k.max_regs, meta["maxnreg"])
        # the tcgen05 kernel (sm_100, tl.dot): the cubin's 128 virtual resources, the json's 128 columns
        mm100 = [k for k in read if k.arch == "sm_100a"]
        self.assertEqual([(k.virtual_resources, k.tmem_columns) for k in mm100], [(128, 128)])
        # add on sm_90 compiled with maxnreg 128: the json's cap
        self.assertEqual([k.max_regs for k in read if k.short_name == "add" and k.arch == "sm_90a"], [128])

    def test_the_cli_rows(self):
        found, problems, status = cli(CACHE)
        self.assertEqual((status, problems), (0, []))
        self.assertEqual(rows(gpuocc.read_binary(CACHE)), cli_rows(found))

    def test_nested_as_inductor_keeps_it(self):
        # Inductor's cache holds a Triton cache under triton/<device>/
        with tempfile.TemporaryDirectory() as tmp:
            nested = os.path.join(tmp, "torchinductor_user", "triton", "0")
            shutil.copytree(CACHE, nested)
            read = gpuocc.read_binary(tmp)
            found, problems, status = cli(tmp)
            self.assertEqual(len(read), 5)
            self.assertEqual(rows(read), cli_rows(found))
            self.assertEqual(list(read.problems), problems)

    def test_unpaired_said_never_guessed(self):
        with tempfile.TemporaryDirectory() as tmp:
            cache = os.path.join(tmp, "cache")
            shutil.copytree(CACHE, cache)
            no_binary = os.path.join(cache, "W2QMIWP6JYK5BYJ7M5NTMJZF7YWMPMNJAWI5CER3343TUGHI5KYA")
            no_json = os.path.join(cache, "FQVQRTOMYTGF6TBYTVBOATWILPQ2MU3AJ2TH2OGUIVKALTEPTJUA")
            os.remove(os.path.join(no_binary, "add.cubin"))
            os.remove(os.path.join(no_json, "add.json"))
            mm = os.path.join(cache, "ZTEYS5NYLYR4FNHN2V3A2KTS467KIUBZNPQ63MLCPBPRP24RKD4Q", "mm.json")
            write(mm, json.dumps(dict(json.loads(slurp(mm)), name="other")))
            broken = os.path.join(cache, "Y2FJ7DKRH5MGK2ZRMNLZSCESS2UNSJVC4WUPWRU4BH6PCGY243MA", "mm.json")
            write(broken, '{"name": "mm", "shared": 1')
            read = gpuocc.read_binary(cache)
            found, problems, status = cli(cache)
            self.assertEqual(status, 1)
            self.assertEqual(rows(read), cli_rows(found))
            paths = [p for p, _ in read.problems]
            self.assertEqual(paths, [p for p, _ in problems])
            said = dict(read.problems)
            self.assertIn("no binary beside it", said[os.path.join(no_binary, "add.json")])
            self.assertIn("no Triton json beside it", said[os.path.join(no_json, "add.cubin")])
            self.assertIn("names kernel 'other'", said[mm])
            self.assertIn("not a Triton kernel's metadata", said[broken])
            # the pairing problems in the CLI's words
            self.assertEqual([p for p in read.problems if p[0] != broken], [p for p in problems if p[0] != broken])
            lone = [k for k in read if k.file == os.path.join(no_json, "add.cubin")]
            self.assertEqual([(k.metadata, k.launch_threads) for k in lone], [(None, None)])
            self.assertFalse([k for k in read if k.file.startswith(no_binary)])

    def test_an_empty_file_said_as_the_cli_says(self):
        with tempfile.TemporaryDirectory() as tmp:
            cache = os.path.join(tmp, "cache")
            shutil.copytree(CACHE, cache)
            empty = os.path.join(cache, "empty.cubin")
            write(empty, b"")
            read = gpuocc.read_binary(cache)
            found, problems, status = cli(cache)
            self.assertEqual(status, 1)
            self.assertEqual(problems, [(empty, "cannot read: the file is empty (0 bytes)")])
            self.assertEqual(list(read.problems), problems)
            self.assertEqual(rows(read), cli_rows(found))

    def test_nothing_readable_raises(self):
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaises(gpuocc.Error):
                gpuocc.read_binary(tmp)
            write(os.path.join(tmp, "k.json"), '{"name": "k", "num_warps": 4}')
            with self.assertRaises(gpuocc.Error) as e:
                gpuocc.read_binary(tmp)
            self.assertIn("no binary beside it", str(e.exception))


class CompiledLaunch(unittest.TestCase):
    """gpuocc.triton.compiled_launch on what triton.compile returns, stood in for by the fixture's own files (its
    .metadata is the json, its .asm the binary); the triton suite does it on real compiles."""

    def kernel(self, folder, stem, **changes):
        import types
        path = os.path.join(CACHE, folder, stem)
        with open(path + ".json") as f:
            meta = dict(json.load(f), **changes)
        binary = "hsaco" if os.path.exists(path + ".hsaco") else "cubin"
        with open(f"{path}.{binary}", "rb") as f:
            return types.SimpleNamespace(metadata=meta, asm={binary: f.read()})

    def test_launch_from_metadata_registers_from_the_binary(self):
        import gpuocc.triton
        # mm for sm_90: 8 warps x 32, 65,536 bytes of shared memory (its json); 194 registers (cuobjdump
        # --dump-resource-usage on mm.cubin: REG:194, SHARED:1024 = the reserved window alone)
        mm90 = self.kernel("ZTEYS5NYLYR4FNHN2V3A2KTS467KIUBZNPQ63MLCPBPRP24RKD4Q", "mm")
        self.assertEqual(gpuocc.triton.compiled_launch(mm90),
                         {"threads": 256, "smem_dynamic": 65536, "smem_static": 0, "regs": 194})
        # mm for sm_100 (tcgen05): REG:255, the cubin's 128 virtual resources, the json's 128 tmem columns
        mm100 = gpuocc.triton.compiled_launch(self.kernel("Y2FJ7DKRH5MGK2ZRMNLZSCESS2UNSJVC4WUPWRU4BH6PCGY243MA", "mm"))
        self.assertEqual((mm100["regs"], mm100["virtual_resources"], mm100["tmem_columns"], mm100["threads"]),
                         (255, 128, 128, 128))
        # clusters: num_ctas along x, or an older Triton's cluster_dims; (1, 1, 1) is no cluster
        folder = "ZTEYS5NYLYR4FNHN2V3A2KTS467KIUBZNPQ63MLCPBPRP24RKD4Q"
        for changes, shape in (({"num_ctas": 2}, (2, 1, 1)), ({"cluster_dims": [1, 2, 1]}, (1, 2, 1)),
                               ({"cluster_dims": [1, 1, 1]}, None)):
            row = gpuocc.triton.compiled_launch(self.kernel(folder, "mm", **changes))
            self.assertEqual(tuple(row[k] for k in ("cluster_x", "cluster_y", "cluster_z")) if shape else
                             "cluster_x" in row, shape or False, changes)
        # gfx942: 4 warps x wave 64, on the device its target names
        hip = self.kernel("OEOB7Y2KPFAQMIPMRJDI7Y4DFKH6W6RZIT76M64KIR2EN4RA3CEA", "add")
        row = gpuocc.triton.compiled_launch(hip)
        self.assertEqual((row["threads"], row["wave_size"]), (256, 64))
        self.assertEqual(gpuocc.triton.target_device(hip.metadata["target"]), "gfx942")
        with self.assertRaises(TypeError):
            gpuocc.triton.compiled_launch(object())
        with self.assertRaises(gpuocc.Error):
            gpuocc.triton.compiled_launch(self.kernel(folder, "mm", name="other"))

    def test_after_the_compile_prune(self):
        import gpuocc.triton
        mm90 = self.kernel("ZTEYS5NYLYR4FNHN2V3A2KTS467KIUBZNPQ63MLCPBPRP24RKD4Q", "mm")
        # 194 registers -> 6,400 a warp (256-register units) x 8 warps = 51,200 of 65,536: one block on H100;
        # the same launch with 256 KiB of shared memory fits nowhere
        big = self.kernel("ZTEYS5NYLYR4FNHN2V3A2KTS467KIUBZNPQ63MLCPBPRP24RKD4Q", "mm", shared=256 * 1024)
        configs = ["mm", "big"]
        prune = gpuocc.triton.early_config_prune("H100", compiled={"mm": mm90, "big": big}.get)
        self.assertEqual(prune(configs, {}), ["mm"])
        self.assertEqual([(f.blocks_per_sm, f.regs_judged, f.exceeded) for f in prune.last],
                         [(1, True, None), (0, True, "smem_dynamic")])
        self.assertEqual(gpuocc.triton.target_device(mm90.metadata["target"]), "sm_90")


class CuPyCache(unittest.TestCase):
    def test_md5_prefixed_cubin(self):
        cubin = slurp(os.path.join(DATA, "kernels_sm80.cubin"), "rb")  # nvcc -cubin (tests/cuda/capture.sh)
        entry = hashlib.md5(cubin).hexdigest().encode() + cubin
        plain = gpuocc.read_binary(cubin)
        self.assertGreater(len(plain), 1)
        self.assertEqual(gpuocc.read_binary(entry).kernels, plain.kernels)
        with tempfile.TemporaryDirectory() as tmp:
            folder = os.path.join(tmp, "kernel_cache")
            os.mkdir(folder)
            path = os.path.join(folder, hashlib.md5(b"the source CuPy hashed").hexdigest() + ".cubin")
            write(path, entry)
            read = gpuocc.read_binary(tmp)
            self.assertEqual([k.name for k in read], [k.name for k in plain])
            self.assertEqual({k.file for k in read}, {path})
            self.assertEqual([(k.registers, k.smem, k.launch_threads) for k in read],
                             [(k.registers, k.smem, None) for k in plain])
            found, problems, status = cli(tmp, "--threads", "128")  # nvcc's kernels record no launch bound
            self.assertEqual((status, problems), (0, []))
            self.assertEqual(rows(read), cli_rows(found))
            self.assertEqual(rows(gpuocc.read_binary(path)), cli_rows(found))


class LikeTheCli(unittest.TestCase):
    """What the CLI says of input it cannot use, said by the readers too (the CLI run on the same file)."""

    def run_cli(self, *args):
        p = subprocess.run([CLI, *args], capture_output=True, text=True)
        return p.returncode, p.stderr

    def test_no_kernel_found(self):
        with tempfile.TemporaryDirectory() as tmp:
            for command, read, data, flags in (("ptxas", gpuocc.read_ptxas, "hello\n", ["--threads", "256"]),
                                               ("remarks", gpuocc.read_remarks, "garbage",
                                                ["--threads", "256", "--arch", "MI300X"])):
                path = os.path.join(tmp, command + ".txt")
                write(path, data)
                status, said = self.run_cli(command, path, *flags)
                self.assertEqual(status, 2)
                cli_why = said.strip()[len(f"gpuocc: {path}: "):]
                self.assertTrue(cli_why.startswith("no kernel found (expected"), said)
                with self.assertRaises(gpuocc.Error) as e:
                    read(data)
                self.assertIn(cli_why, str(e.exception))

    def test_text_to_read_binary(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "passwd")
            write(path, "root:x:0:0:root:/root:/bin/sh\n")
            status, said = self.run_cli("binary", path)
            self.assertEqual(status, 2)
            cli_why = said.strip()[len(f"gpuocc: {path}: "):]
            with self.assertRaises(gpuocc.Error) as e:
                gpuocc.read_binary(path)
            # the CLI's words, its commands named by the functions that do their work
            python_why = (cli_why.replace("gpuocc ptxas reads", "gpuocc.read_ptxas reads")
                          .replace("gpuocc remarks LLVM", "gpuocc.read_remarks LLVM")
                          .replace("gpuocc binary what", "gpuocc.read_binary what")
                          .replace(" (nvcc -Xptxas -v -c k.cu 2>&1 | gpuocc ptxas)", ""))
            self.assertEqual(str(e.exception), f"{path}: {python_why} [format]")
            with self.assertRaises(gpuocc.Error) as e:
                gpuocc.read_binary(tmp)  # a folder: the same problem, in the same words
            self.assertEqual(str(e.exception), f"{path}: {python_why} [format]")


if __name__ == "__main__":
    unittest.main()
