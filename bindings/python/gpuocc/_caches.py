"""The caches compilers leave behind, as `gpuocc binary` walks them (docs/inputs.md, "Triton caches"): a
folder walked in name order, a Triton kernel's <name>.json paired with its binary, CuPy's 32-byte prefix.
No reading of device code here (read_binary in _readers does it).  Imports no module of the package."""
from __future__ import annotations

import json
import os
import stat
from typing import Any, Iterator, Optional

DIR_DEPTH = 8  # folders below the one named, as `gpuocc binary DIR` follows them
META_MAX_BYTES = 1 << 20  # the most bytes of a json read (Triton 3.9 writes about 1.3 KB)
BINARIES = (".cubin", ".hsaco", ".spv")
INTERMEDIATES = (".ttir", ".ttgir", ".llir", ".ptx", ".amdgcn", ".source")


def cupy_prefix(data: bytes) -> int:
    """A CuPy kernel-cache file: the cubin's MD5 as 32 ASCII hex digits, then the cubin (an ELF header): the
    bytes to skip (32), else 0.  The digest is not checked."""
    if len(data) < 36 or data[32:36] != b"\x7fELF":
        return 0
    return 32 if all(c in b"0123456789abcdefABCDEF" for c in data[:32]) else 0


def _integer(meta: dict, key: str, lo: int, hi: int, default: Any, where: str = "") -> Any:
    value = meta.get(key)
    if value is None:
        return default
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ValueError(f"{where}{key}: expected an integer from {lo} to {hi}")
    return value


def triton_meta(text: bytes) -> dict:
    """The launch fields of a Triton kernel's <name>.json, as `gpuocc binary DIR` takes them: name, backend,
    num_warps (required, 1..1024), warp_size (the top level's, else target.warp_size; 0 when neither),
    num_ctas (1 when absent), maxnreg (None when absent or null), shared (0), tmem_size (0), cluster
    (cluster_dims, an older Triton's; (0, 0, 0) when absent).  Raises ValueError saying what is wrong."""
    try:
        meta = json.loads(text)
    except (ValueError, UnicodeDecodeError) as e:
        raise ValueError(f"not JSON: {e}") from None
    if not isinstance(meta, dict):
        raise ValueError("not a JSON object")
    name = meta.get("name", "")
    if not isinstance(name, str) or len(name.encode()) > 255:
        raise ValueError("name: expected a string of at most 255 bytes")
    target = meta.get("target")
    if target is not None and not isinstance(target, dict):
        raise ValueError("target: expected an object")
    target = target or {}
    backend = target.get("backend", "")
    if not isinstance(backend, str):
        raise ValueError("target.backend: expected a string")
    if "num_warps" not in meta or meta["num_warps"] is None:
        raise ValueError("no num_warps: not the metadata of a Triton kernel")
    cluster = meta.get("cluster_dims")
    if cluster is not None and (not isinstance(cluster, list) or len(cluster) != 3 or
                                any(not isinstance(c, int) or isinstance(c, bool) or not 0 <= c <= 65535
                                    for c in cluster)):
        raise ValueError("cluster_dims: expected three integers")
    warp = _integer(meta, "warp_size", 1, 1024, 0) or _integer(target, "warp_size", 1, 1024, 0, "target.")
    return {"name": name, "backend": backend, "num_warps": _integer(meta, "num_warps", 1, 1024, None),
            "warp_size": warp, "num_ctas": _integer(meta, "num_ctas", 1, 65535, 1),
            "maxnreg": _integer(meta, "maxnreg", 1, 65535, None), "shared": _integer(meta, "shared", 0, 1 << 40, 0),
            "tmem_size": _integer(meta, "tmem_size", 0, 65535, 0), "cluster": tuple(cluster or (0, 0, 0))}


def _key(name: str) -> bytes:
    return os.fsencode(name)  # byte order, as the CLI sorts with strcmp


def walk(path: str, depth: int = 0) -> Iterator[tuple]:
    """What `gpuocc binary DIR` reads in folder `path`, in its order: ("binary", file, json or None) for a
    file to read (json: the Triton json paired with it), ("problem", path, message) for what it reports.
    Names in byte order; folders DIR_DEPTH deep; links and special files not followed; in a folder holding a
    .json (Triton's), group manifests (__grp__*.json) and intermediates are recognised and not read, each
    <name>.json is paired with <name>.cubin/.hsaco/.spv, and a json or binary without its partner is said."""
    try:
        names = sorted(os.listdir(path), key=_key)
    except OSError as e:
        yield ("problem", path, f"cannot open the folder: {e.strerror}")
        return
    if not names and depth == 0:
        yield ("problem", path, "the folder holds no file to read")
    present = set(names)
    triton = any(n.endswith(".json") and n != ".json" for n in names)
    for name in names:
        full = os.path.join(path, name)
        try:
            mode = os.lstat(full).st_mode
        except OSError as e:
            yield ("problem", full, f"cannot read: {e.strerror}")
            continue
        if stat.S_ISDIR(mode):
            if depth < DIR_DEPTH:
                yield from walk(full, depth + 1)
            else:
                yield ("problem", full, f"more than {DIR_DEPTH} folders deep: not read")
            continue
        if not stat.S_ISREG(mode):
            continue
        stem_of = lambda ext: name[:-len(ext)] if len(name) > len(ext) and name.endswith(ext) else None
        if name.startswith("__grp__") and stem_of(".json") is not None:
            continue
        if stem_of(".json") is not None:
            if not any(stem_of(".json") + b in present for b in BINARIES):
                yield ("problem", full, "no binary beside it (.cubin, .hsaco or .spv of the same name): its kernel "
                       "is not reported")
            continue
        binary = next((b for b in BINARIES if stem_of(b) is not None), None)
        if binary and triton:
            json_name = stem_of(binary) + ".json"
            if json_name in present:
                yield ("binary", full, os.path.join(path, json_name))
            else:
                yield ("problem", full, "no Triton json beside it (the launch's block size, clusters and shared "
                       "memory are not known): read with the launch the flags give")
                yield ("binary", full, None)
        elif not (triton and any(stem_of(t) is not None for t in INTERMEDIATES)):
            yield ("binary", full, None)


def read_meta(json_path: str, binary_path: str) -> "tuple[Optional[dict], Optional[str]]":
    """(the json's launch fields, None), or (None, the problem said about it) when it cannot be used."""
    try:
        with open(json_path, "rb") as f:
            text = f.read(META_MAX_BYTES + 1)
    except OSError as e:
        return None, f"cannot read it ({e.strerror}): {binary_path} read without it"
    if len(text) > META_MAX_BYTES:
        return None, (f"over {META_MAX_BYTES} bytes, or unreadable: not a Triton kernel's json; {binary_path} read "
                      "without it")
    try:
        return triton_meta(text), None
    except ValueError as e:
        return None, f"not a Triton kernel's metadata ({e}): {binary_path} read without it"
