#!/usr/bin/env python3
"""The lossless `gpuocc batch` contract: RFC 4180 input, one output row per input data row in
order, bad rows kept with status and error, `line` and `error` last (after smem_per_block and AMD's model,
waves_per_simd and limit_sgprs), unknown columns
echoed byte for byte, FILE or stdin, --json lines with the same keys; and the hand-made number printing
checked against Python's own formatting of the library's answers over thousands of random launches.
Usage: test_cli_batch.py GPUOCC   (GPUOCC_LIBRARY and PYTHONPATH set: the equivalence part runs too)"""
import csv
import io
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile

from checks import check, finish

GPUOCC = sys.argv[1]
RESULTS = ["status", "blocks_per_sm", "warps_per_sm", "occupancy", "limiters", "limit_warps", "limit_regs",
           "limit_smem", "limit_blocks", "limit_barriers", "regs_per_block", "smem_per_block", "model", "waves_per_simd",
           "limit_sgprs", "workgroups_per_gpu", "limit_virtual_resources", "exceeded", "exceeded_limit", "line", "error"]


def run(args, stdin=None):
    p = subprocess.run([GPUOCC, "batch"] + args, input=stdin, capture_output=True)
    return p.returncode, p.stdout, p.stderr


def table(raw):
    return list(csv.reader(io.StringIO(raw.decode("utf-8", "surrogateescape"), newline="")))


# A file mixing every line ending, quotes, commas and a line break inside cells, a blank line, unknown
# columns, and bad rows of every kind between good ones.  Good rows are the seeds' Example 1 (H100, 256
# threads, 64 registers: 4 blocks, 32 warps, 50 %, registers) or 8 blocks of 128 threads at 32 registers
# (warp slots: 64 / 4 warps = 16 blocks, registers: 65536 / (32 x 32 x 4) = 16 -> warps|registers tie).
src = (b"\xef\xbb\xbf"
       b'id,arch,threads,"regs",note\r\n'                      # line 1 (CRLF)
       b'a,H100,256,64,plain\n'                                # line 2 (LF)
       b'b,H100,256,64,"with, comma"\r'                        # line 3 (bare CR)
       b'c,"H100","256","64","two\nlines"\r\n'                 # lines 4-5
       b'\r\n'                                                 # line 6 blank
       b'd,H100,abc,64,bad threads\n'                          # line 7
       b'e,H999,256,64,bad arch\n'                             # line 8
       b'f,H100,256\n'                                         # line 9 short
       b'g,H100,256,64,x,extra,"more"\n'                       # line 10 long
       b'h,H100,128,32,"quote ""q"""\n'                        # line 11
       b'i,H100,0,64,zero threads\n'                           # line 12
       b'j,H100,256,64,"unterminated\n')                       # line 13, to the end
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "in.csv")
    with open(path, "wb") as f:
        f.write(src)
    rc_file, out_file, err_file = run([path])
rc, out, err = run([], src)
check("FILE and stdin agree", (rc, out) == (rc_file, out_file), out_file)
check("exit 1 with bad rows", rc == 1, err)
t = table(out)
header = t[0] if t else []
check("header: input cells, then the results, line, error", header == ["id", "arch", "threads", "regs", "note"] + RESULTS,
      header)
data = t[1:]
ids = [r[0] for r in data]
check("one row per data row, in order", ids == list("abcdefghij"), ids)
check("every row has the header's width", all(len(r) == len(header) for r in data), data)
by = {r[0]: dict(zip(header, r)) for r in data}
ex1 = {"status": "ok", "blocks_per_sm": "4", "warps_per_sm": "32", "occupancy": "0.500000", "limiters": "registers",
       "limit_regs": "4", "error": ""}
for k in "abc":
    check(f"good row {k}", all(by.get(k, {}).get(c) == v for c, v in ex1.items()), by.get(k))
check("lines", [by[k]["line"] for k in "abcdefghij"] == ["2", "3", "4", "7", "8", "9", "10", "11", "12", "13"],
      [by[k]["line"] for k in by])
check("quoted cells echoed", by["b"]["note"] == "with, comma" and by["c"]["note"] == "two\nlines"
      and by["h"]["note"] == 'quote "q"', by)
check("tie of limiters |-joined", by["h"]["limiters"] == "warps|registers" and by["h"]["blocks_per_sm"] == "16", by["h"])
check("bad threads", by["d"]["status"] == "parse" and by["d"]["error"].startswith("threads:") and by["d"]["blocks_per_sm"] == "",
      by["d"])
check("bad arch", by["e"]["status"] == "unknown_device" and by["e"]["error"].startswith("arch:"), by["e"])
check("short row padded", by["f"]["status"] == "parse" and by["f"]["regs"] == "" and by["f"]["note"] == "", by["f"])
check("long row keeps its extra cells in the error", by["g"]["status"] == "parse" and by["g"]["note"] == "x"
      and 'extra,"more"' in by["g"]["error"], by["g"])
check("library status", by["i"]["status"] == "threads" and by["i"]["error"].startswith("threads:"), by["i"])
check("unterminated quote", by["j"]["status"] == "parse", by["j"])
errs = err.decode().strip().splitlines()
check("the columns not read named once, before the rows", errs[:1] == ["gpuocc: header: columns not read: id, note"],
      errs)
check("one stderr line per bad row, naming the line", len(errs) == 7 and all(l.startswith("gpuocc: line ") for l in errs[1:]),
      errs)
# echoed bytes: a row in LF form comes out as it went in
check("raw echo", b"\na,H100,256,64,plain,ok," in out and b'\nb,H100,256,64,"with, comma",ok,' in out, out)

# --json: one object per row, the CSV's keys in the CSV's order, the same values
rc_j, jout, _ = run(["--json"], src)
objs = [json.loads(l) for l in jout.decode().splitlines()]
check("json rc", rc_j == 1)
check("json rows", [o["id"] for o in objs] == list("abcdefghij"), jout)
check("json keys = csv header", all(list(o) == header for o in objs), [list(o) for o in objs[:1]])
for o in objs:
    row = by[o["id"]]
    same = True
    for k in header:
        v = o[k]
        want = row[k]
        if k == "limiters":
            same &= (v is None and want == "") or "|".join(v) == want
        elif k in ("error",):
            same &= (v is None and want == "") or v == want
        elif isinstance(v, str):
            same &= v == want
        elif v is None:  # not computed (or not applicable): empty; no limit: -1 (docs/output.md)
            same &= want == "" or (k.startswith("limit_") and want == "-1")
        elif k == "occupancy":
            same &= "%.6f" % v == want
        else:
            same &= str(v) == want
    check(f"json row {o['id']} = csv row", same, (o, row))
# no barriers: that resource cannot limit: -1 in CSV, null in JSON (docs/output.md)
nb = b"arch,threads,regs,barriers\nH100,256,64,0\n"
_, c_out, _ = run([], nb)
_, j_out, _ = run(["--json"], nb)
check("unlimited: -1 in CSV, null in JSON", table(c_out)[1][13] == "-1" and json.loads(j_out)["limit_barriers"] is None,
      (c_out, j_out))

# exit statuses: 0 when every row is answered (a launch that fits 0 blocks is an answer), 2 without a usable header
rc, out, _ = run([], b"arch,threads,regs,smem_dynamic,smem_optin\nH100,256,64,100K,0\n")
check("0 blocks is an answer", rc == 0 and table(out)[1][5] == "ok" and table(out)[1][6] == "0", out)
for name, data in [("empty", b""), ("blank", b"\n\n"), ("no regs", b"arch,threads\nH100,1\n"),
                   ("twice", b"arch,threads,regs,regs\n"), ("header only ok", None)]:
    if data is None:
        rc, out, _ = run([], b"arch,threads,regs\n")
        check(name, rc == 0 and table(out) == [["arch", "threads", "regs"] + RESULTS], out)
        continue
    rc, out, err = run([], data)
    check(f"exit 2: {name}", rc == 2 and len(err.strip().splitlines()) == 1, (rc, err))

# Columns under their CLI flag's spelling, and AMD's flag names (the stranger's review, item 1).
# MI300X (gfx942), 256 threads = 4 wave64 on 4 SIMDs, 64 VGPRs: 512 / 64 = 8 waves per SIMD, 8 workgroups by
# the registers; 60K = 61440 B of LDS against 64 KiB per CU: 65536 // 61440 = 1 workgroup, 4 waves of 32 slots.
for spelling in ("lds", "lds_static", "lds-static", "smem_static", "smem-static"):
    rc, out, err = run([], f"arch,threads,regs,{spelling}\nMI300X,256,64,60K\n".encode())
    t = table(out)
    row = dict(zip(t[0], t[1])) if len(t) > 1 else {}
    check(f"batch reads '{spelling}' as static LDS", rc == 0 and t[0][3] == spelling and row.get(spelling) == "60K"
          and (row.get("blocks_per_sm"), row.get("warps_per_sm"), row.get("occupancy"), row.get("limiters"),
               row.get("smem_per_block")) == ("1", "4", "0.125000", "shared_memory", "61440"), (rc, out, err))
# 40K = 40960 B of dynamic LDS: 65536 // 40960 = 1 workgroup
for spelling in ("lds_dynamic", "lds-dynamic", "smem-dynamic"):
    rc, out, err = run(["--json"], f"arch,threads,vgprs,{spelling}\nMI300X,256,64,40K\n".encode())
    o = json.loads(out) if rc == 0 and out else {}
    check(f"batch reads 'vgprs' and '{spelling}'", o.get("vgprs") == "64" and o.get(spelling) == "40K"
          and o.get("blocks_per_sm") == 1 and o.get("smem_per_block") == 40960 and "regs" not in o, (rc, out, err))
# H100: 100K dynamic + 1 KiB reserved = 103424 B per block, 228 KiB = 233472 B per SM: 2 blocks (registers
# 65536 / (32 x 32 x 8) = 8, warps 64 / 8 = 8)
for spelling in ("smem-dynamic", "smem_dynamic"):
    rc, out, err = run([], f"arch,threads,regs,{spelling}\nH100,256,32,100K\n".encode())
    t = table(out)
    check(f"batch reads '{spelling}' on NVIDIA", rc == 0 and len(t) == 2 and t[1][4:7] == ["ok", "2", "16"]
          and t[1][8] == "shared_memory", (rc, out, err))
# wave-size is AMD's wave_size: MI300X runs wave64 only (a row error naming the column as given); on an
# NVIDIA row a filled cell is the row's error as for wave_size
rc, out, err = run([], b"arch,threads,regs,wave-size\nMI300X,256,64,32\nH100,256,64,64\nH100,256,64,\n")
t = table(out)
check("wave-size keeps wave_size's rules", rc == 1 and [r[4] for r in t[1:]] == ["argument", "argument", "ok"]
      and t[1][-1].startswith("wave-size: ") and t[2][-1].startswith("wave-size: AMD only"), (out, err))
for cols in ("lds,smem_static", "smem-dynamic,lds_dynamic", "vgprs,regs", "cu_mode,cu-mode"):
    a, b = cols.split(",")
    rc, out, err = run([], f"arch,threads,{'regs,' if 'regs' not in cols else ''}{cols}\nMI300X,256,64,1,1\n".encode())
    lines = err.decode().strip().splitlines()
    check(f"two columns for one input ({cols}): exit 2, one line naming both", rc == 2 and len(lines) == 1
          and f"'{a}'" in lines[0] and f"'{b}'" in lines[0] and not out, (rc, out, err))

# A near miss of an input column (item 2): warned on stderr, echoed, every row answered, exit 1.
# H100, 256 threads, 64 registers: the seeds' Example 1, 4 blocks (the misspelt column is not read).
for args in ([], ["--json"]):
    rc, out, err = run(args, b"arch,threads,regs,smem_statc\nH100,256,64,60K\nH100,256,64,0\n")
    lines = err.decode().strip().splitlines()
    rows = [json.loads(l) for l in out.splitlines()] if args else [dict(zip(table(out)[0], r)) for r in table(out)[1:]]
    check(f"near miss {args}: exit 1, one warning naming it and the suggestion", rc == 1 and len(lines) == 1
          and "'smem_statc'" in lines[0] and "'smem_static'" in lines[0], (rc, err))
    check(f"near miss {args}: echoed, every row answered", len(rows) == 2
          and [r["smem_statc"] for r in rows] == ["60K", "0"]
          and [(r["status"], str(r["blocks_per_sm"])) for r in rows] == [("ok", "4"), ("ok", "4")], out)
rc, out, err = run([], b"arch,threads,regs,no_optin\nH100,256,64,1\n")
check("no_optin (the flag's opposite) is a near miss of smem_optin", rc == 1 and b"'smem_optin'" in err
      and table(out)[1][4:6] == ["ok", "4"], (rc, out, err))
rc, out, err = run([], b"arch,threads,regs,note\nH100,256,64,x\n")
check("an unrelated extra column is named once as not read, exit 0",
      rc == 0 and err == b"gpuocc: header: columns not read: note\n", (rc, err))
# names of three letters or fewer are too short to call a typo: a GEMM table's M, lda, ldb, ldc (one letter from
# `lds`) and an `ids` column are echoed, named in the one line, exit 0
rc, out, err = run([], b"M,lda,ldb,ldc,ids,arch,threads,regs\n1,4,5,6,7,H100,256,64\n")
check("short extra columns are no near miss", rc == 0 and err == b"gpuocc: header: columns not read: M, lda, ldb, ldc, ids\n"
      and table(out)[1][8:10] == ["ok", "4"], (rc, out, err))

# Nothing silently dropped.  The reproducer: shared_mem is read by no one, and the row was answered as if
# the kernel had no shared memory with exit 0; a name that means an input column is a near miss (exit 1).
rc, out, err = run([], b"arch,threads,regs,shared_mem\nH100,256,64,48K\n")
check("shared_mem: a near miss of smem_dynamic and smem_static, exit 1, echoed, the row answered",
      rc == 1 and err == b"gpuocc: header: column 'shared_mem' is not read by gpuocc (echoed unchanged); did you mean "
      b"'smem_dynamic' or 'smem_static'?\n" and table(out)[1][3:5] == ["48K", "ok"], (rc, out, err))
# other tools' names for an input column, and the one each means
for name, means in (("regs_per_thread", ["regs"]), ("dynamic_smem", ["smem_dynamic"]), ("shmem", ["smem_dynamic", "smem_static"]),
                    ("Shared-Mem-Bytes", ["smem_dynamic", "smem_static"]), ("static_smem", ["smem_static"]),
                    ("smem_static_bytes", ["smem_static"]), ("threads_per_block", ["threads"]), ("num_regs", ["regs"]),
                    ("grf_count", ["grf"]), ("simd_size", ["sub_group"]), (".vgpr_count", ["regs"])):
    rc, out, err = run([], f"arch,threads,regs,{name}\nH100,256,64,1\n".encode())
    lines = err.decode().splitlines()
    check(f"{name}: a near miss of {' or '.join(means)}", rc == 1 and len(lines) == 1 and f"'{name}'" in lines[0]
          and lines[0].endswith("did you mean " + " or ".join(f"'{m}'" for m in means) + "?"), (rc, err))
# unrelated names: one line naming them all, exit 0, every row answered
rc, out, err = run([], b"id,arch,threads,regs,note,config\n1,H100,256,64,x,y\n2,H100,128,32,z,w\n")
check("id, note, config: one line naming them, exit 0", rc == 0 and err == b"gpuocc: header: columns not read: id, note, config\n"
      and [r[6:8] for r in table(out)[1:]] == [["ok", "4"], ["ok", "16"]], (rc, out, err))
# a tag_ column is echoed without a word, whatever follows the prefix
rc, out, err = run([], b"tag_run,arch,threads,regs,tag_shared_mem,tag\nr1,H100,256,64,48K,x\n")
check("tag and tag_ columns: echoed, no word, exit 0",
      rc == 0 and not err and table(out)[1][:6] == ["r1", "H100", "256", "64", "48K", "x"], (rc, err))
# the batch's own outputs read again, and a tuning table's tile size, mean no input: no near miss; the outputs
# are replaced by this run's answers, the tile size named as not read
rc, out, err = run([], b"arch,threads,regs,regs_per_block,smem_per_block,block_size\nH100,256,64,16384,1024,128\n")
check("outputs read again are no near miss", rc == 0 and err == b"gpuocc: header: columns not read: block_size\n"
      b"gpuocc: header: columns replaced by this run's answers: regs_per_block, smem_per_block\n", (rc, err))

# Every launch input of docs/vocabulary.md is a batch column (an empty cell: the default, no word on stderr) or
# refused with the reason (one line at the first row that gives it a value, exit 1; an empty cell is no value):
# the names come from the document's table, not from the code.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "vocabulary.md")) as f:
    doc = f.read()
table_text = doc.split("## Launch (inputs)")[1].split("\n## ")[0]
inputs = []
for row in table_text.splitlines()[3:]:
    if row.startswith("| "):
        cell = re.sub(r"\([^)]*\)", "", row.split("|")[1])  # the names, without "(`report` input; ...)"
        inputs += [n for n in cell.split("`")[1::2] if n not in inputs]
check("the vocabulary's launch table read", {"threads", "smem_dynamic_max", "setmaxnreg", "grf", "tmem_columns"} <= set(inputs),
      inputs)
refused = {}
for name in inputs:
    header = "arch,threads,regs" + ("" if name in ("arch", "threads", "regs") else "," + name)
    rc, out, err = run([], f"{header}\nH100,256,64{'' if header == 'arch,threads,regs' else ','}\n".encode())
    lines = err.decode().splitlines()
    check(f"vocabulary input {name}: an empty cell is the default, no word", rc == 0 and not lines
          and table(out)[1][header.count(",") + 1] == "ok", (rc, lines))
    if header == "arch,threads,regs":
        continue
    # a value: a batch column reads it (answered, or a bad row naming the column); any other is named
    rc, out, err = run([], f"{header}\nH100,256,64,1\nH100,256,64,2\n".encode())
    lines = err.decode().splitlines()
    unread = [ln for ln in lines if f"column '{name}' is not read by gpuocc batch" in ln]
    if not unread:
        continue
    refused[name] = (rc, lines)
    check(f"vocabulary input {name}: refused with the reason, once, at the row that gives it",
          rc == 1 and lines == unread and len(unread) == 1 and unread[0].startswith("gpuocc: line 2: ")
          and ("gpuocc report" in lines[0] or "Python" in lines[0]), (rc, lines))
check("the inputs the batch does not read are the report's and Python's", sorted(refused) ==
      ["base_bytes", "max_regs", "min_blocks", "setmaxnreg", "smem_dynamic_max", "stage_bytes", "target_blocks"],
      refused)
help_text = subprocess.run([GPUOCC, "batch", "--help"], capture_output=True, text=True).stdout
check("batch --help names the tag_ prefix", "tag_" in help_text, help_text)

# Error messages show a cell's invisible bytes escaped (\xNN): a NUL ended the value ('64'), a line break in a
# quoted cell split the stderr line.  The CSV error, the JSON error and the stderr line say the same.
for cell, shown in ((b"64\x00", r"64\x00"), (b'"6\n4"', r"6\x0a4"), (b"6\x7f4", r"6\x7f4")):
    want = f"regs: expected an integer, got '{shown}'"
    rc, out, err = run([], b"arch,threads,regs\nH100,256," + cell + b"\n")
    _, jout, _ = run(["--json"], b"arch,threads,regs\nH100,256," + cell + b"\n")
    t = table(out)
    check(f"escaped {shown}", rc == 1 and t[1][-1] == want and json.loads(jout)["error"] == want
          and err.decode() == f"gpuocc: line 2: {want}\n", (out, jout, err))

# the value shown is cut at 40 bytes, but never inside a UTF-8 character: 39 letters then 'é' (2 bytes) x 5
# shows the 39 letters alone, and every output stays valid UTF-8 (the JSON parses)
cell = ("a" * 39 + "\u00e9" * 5).encode()
rc, out, err = run([], b"arch,threads,regs\nH100,256," + cell + b"\n")
_, jout, _ = run(["--json"], b"arch,threads,regs\nH100,256," + cell + b"\n")
want = "regs: expected an integer, got '" + "a" * 39 + "'"
try:
    shown = (table(out)[1][-1], json.loads(jout.decode())["error"], err.decode())
except (UnicodeDecodeError, ValueError, IndexError) as e:
    shown = repr(e)
check("a cut value keeps whole UTF-8 characters", rc == 1 and shown == (want, want, f"gpuocc: line 2: {want}\n"),
      shown)

# header names in messages are escaped too, and a name holding a NUL names no input (not `lds`): MI300X at
# 64 VGPRs answers 8 workgroups (the registers' 512 / 64) with the cell unread
rc, out, err = run([], b'arch,threads,regs,"lds\x00x","smem_statc\n"\nMI300X,256,64,60K,1\n')
lines = err.decode().splitlines()
check("header names escaped; NUL names nothing", rc == 1 and len(lines) == 2 and "'lds\\x00x'" in lines[0]
      and "'smem_statc\\x0a'" in lines[1] and table(out)[1][5:7] == ["ok", "8"], (out, err))

# A row with extra cells: the stderr line is the `error` cell's text, the extra cells included (line breaks
# escaped there, to keep one line per problem)
rc, out, err = run([], b'arch,threads,regs\nH100,256,64,x,"y, z"\nH100,256,64,"a\nb"\n')
t = table(out)
want = ["row has 5 cells, the header has 3; the extra cells: x,\"y, z\"",
        "row has 4 cells, the header has 3; the extra cells: \"a\nb\""]
check("extra cells in the error cell", rc == 1 and [r[-1] for r in t[1:]] == want, out)
check("extra cells on stderr too", err.decode().splitlines() == ["gpuocc: line 2: " + want[0],
                                                                 "gpuocc: line 3: " + want[1].replace("\n", r"\x0a")],
      err)

# Blank and whitespace-only lines (docs/output.md says so) give no row and still count in `line`
rc, out, err = run([], b"\n \t\narch,threads,regs\n\n  \nH100,256,64\n\t\nH100,abc,64\n")
t = table(out)
check("blank lines skipped, counted", rc == 1 and [(r[3], r[-2]) for r in t[1:]] == [("ok", "6"), ("parse", "8")]
      and err.decode().startswith("gpuocc: line 8: threads:"), (out, err))

# the hand-made parsing and printing against Python's formatting of the library's own answers
try:
    import gpuocc
    gpuocc.device("H100")
except Exception as e:  # sanitized builds: the library cannot load into this Python
    print(f"test_cli_batch: equivalence part skipped ({e.__class__.__name__})")
    gpuocc = None
# A record longer than the reader keeps (1 MiB, --max-record-bytes) is a bad row of its own, with its
# line and the reason in its error cell and on stderr; the reader goes on at the next line break outside quotes
# and answers the rows after it (exit 1).  Here the long record's quoted cell holds a CRLF and a LF, so it spans
# lines 3-5 and the next row is line 6.  The good rows: H100 at 256 threads and 64 registers is 4 blocks, 32 warps,
# 50 % (registers); 128 threads at 32 registers is 16 blocks, 64 warps, 100 % (warps|registers).
csv.field_size_limit(1 << 30)
long_cell = b"x" * 700000 + b'""\r\n' + b"y" * 700000 + b"\n"
src27 = (b"id,arch,threads,regs,note,more\n"
         b"a,H100,256,64,first,\n"
         b'b,H100,128,32,"' + long_cell + b'",after\r\n'
         b"c,H100,128,32,last,\n")
rc, out, err = run([], src27)
rows = table(out)
errs = err.decode().splitlines()
check("27 a long record is a bad row, the rows after it are answered (exit 1)",
      rc == 1 and len(rows) == 4 and [r[0] for r in rows[1:]] == ["a", "", "c"]
      and rows[1][6:10] == ["ok", "4", "32", "0.500000"] and rows[3][6:11] == ["ok", "16", "64", "1.000000", "warps|registers"],
      f"{rc} {[r[:10] for r in rows]} {errs}")
check("27 the long record's row: its line, status parse, the reason naming the flag; the next row's line",
      len(rows) == 4 and rows[2][-2] == "3" and rows[2][6] == "parse" and "longer than 1048576 bytes" in rows[2][-1]
      and "--max-record-bytes" in rows[2][-1] and rows[3][-2] == "6" and all(c == "" for c in rows[2][:6]),
      rows[2:] if len(rows) > 2 else rows)
check("27 its stderr line is 'line 3:' and the error cell", len(errs) == 2 and len(rows) == 4
      and errs == ["gpuocc: header: columns not read: id, note, more", "gpuocc: line 3: " + rows[2][-1]], errs)
rc, out, err = run(["--json"], src27)
objs = [json.loads(l) for l in out.decode().splitlines()]
check("27 --json: the long record's cells are null, its line 3, the next row's line 6",
      rc == 1 and len(objs) == 3 and objs[1]["status"] == "parse" and objs[1]["line"] == 3 and objs[1]["arch"] is None
      and objs[1]["note"] is None and objs[2]["line"] == 6 and objs[2]["blocks_per_sm"] == 16, objs[1:] if objs else err)
rc, out, err = run(["--max-record-bytes", "4M"], src27)
rows = table(out)
check("27 --max-record-bytes 4M reads it: an answered row echoing the whole cell",
      rc == 0 and len(rows) == 4 and rows[2][6] == "ok" and rows[2][4] == long_cell.decode().replace('""', '"')
      and rows[2][5] == "after" and rows[3][-2] == "6", f"{rc} {err}")
rc, out, err = run(["--max-record-bytes", "64"], b"arch,threads,regs,note\nH100,256,64," + b"z" * 80 + b"\nH100,256,64,\n")
rows = table(out)
check("27 --max-record-bytes 64: an 80-byte note is over it, the next row is answered",
      rc == 1 and len(rows) == 3 and rows[1][4] == "parse" and "longer than 64 bytes" in rows[1][-1] and rows[2][4] == "ok",
      f"{rc} {rows} {err}")
for bad in ("0", "2G", "x"):
    rc, out, err = run(["--max-record-bytes", bad], b"arch,threads,regs\nH100,256,64\n")
    check(f"27 --max-record-bytes {bad} is a usage error", rc == 2 and out == b"" and b"--max-record-bytes" in err, err)
# Where the reader goes on is where a reader keeping the whole record would: random long records of quotes,
# commas and every line ending (a quote opens a quoted cell only at a cell's start), read past by default,
# read whole with --max-record-bytes 1G; the rows after them must start on the same lines.
rnd27 = random.Random(27)
pieces = [b'"', b'""', b",", b",\"", b"\r\n", b"\n", b"\r", b"a" * 5000, b"b" * 70000]
body = [b"arch,threads,regs,note\n"]
for k in range(4):
    rec = [b"H100,256,64,"]
    size = 0
    while size < 1200000:
        piece = rnd27.choice(pieces)
        rec.append(piece)
        size += len(piece)
    body += rec + [b'"\n' if k % 2 else b"\n", b"H100,128,32,row%d\n" % k]
src = b"".join(body)
rc_a, out_a, _ = run(["--json"], src)
rc_b, out_b, _ = run(["--json", "--max-record-bytes", "1G"], src)
la = [(o["line"], o["note"]) for o in map(json.loads, out_a.decode().splitlines()) if (o["note"] or "").startswith("row")]
lb = [(o["line"], o["note"]) for o in map(json.loads, out_b.decode().splitlines()) if (o["note"] or "").startswith("row")]
check("27 reading past a long record ends it where reading it whole does", la and la == lb, f"{la} {lb}")
# Memory stays bounded: a 64 MB record is never held (the reader keeps at most --max-record-bytes + 64 KiB,
# twice), checked by running under a 32 MiB address-space limit (ru_maxrss would count the forking Python).
# A sanitized binary reserves terabytes of shadow address space at start: there the limit cannot be applied,
# and the record is still checked to be a bad row with the next one answered.
with open(GPUOCC, "rb") as exe:
    SANITIZED = b"__asan_init" in exe.read()
def limit_memory():
    if not SANITIZED:
        resource.setrlimit(resource.RLIMIT_AS, (32 << 20, 32 << 20))
with tempfile.NamedTemporaryFile(suffix=".csv") as f:
    f.write(b"arch,threads,regs,note\nH100,256,64," + b"q" * (64 << 20) + b"\nH100,256,64,end\n")
    f.flush()
    p = subprocess.run([GPUOCC, "batch", f.name], capture_output=True, preexec_fn=limit_memory)
    rows = table(p.stdout)
check("27 a 64 MB record in 32 MiB of address space: a bad row, the next answered",
      p.returncode == 1 and len(rows) == 3 and rows[1][4] == "parse" and rows[2][4] == "ok", f"{p.returncode} {p.stderr[:300]}")
# Input that is not text at all still stops at once: no line break in the first MiB.
rc, out, err = run([], b"a" * (3 << 20))
check("27 no line break in the first MiB: not CSV, exit 2, one line", rc == 2 and out == b""
      and len(err.splitlines()) == 1 and b"no line break" in err, f"{rc} {err}")

if gpuocc:
    rnd = random.Random(8)
    archs = ["H100", "A100", "sm_75", "sm_120", "L4", "sm_86", "RTX 4090", "B200"]
    lines = ["arch,threads,regs,smem_static,smem_dynamic,barriers,carveout,smem_optin"]
    launches = []
    for _ in range(6000):
        l = (rnd.choice(archs), rnd.choice([rnd.randint(1, 1024), 32 * rnd.randint(1, 32)]), rnd.randint(0, 255),
             rnd.choice([0, rnd.randint(0, 100000)]), rnd.choice([0, rnd.randint(0, 230000), 1024 * rnd.randint(0, 228)]),
             rnd.randint(0, 16), rnd.choice([-1, rnd.randint(0, 100)]), rnd.randint(0, 1))
        launches.append(l)
        lines.append(",".join(map(str, l)))
    rc, out, err = run([], ("\n".join(lines) + "\n").encode())
    got = table(out)[1:]
    check("random rows", len(got) == len(launches), len(got))
    mismatches = []
    for l, row in zip(launches, got):
        try:
            r = gpuocc.occupancy(l[0], gpuocc.kernel(threads=l[1], regs=l[2], smem_static=l[3], smem_dynamic=l[4],
                                                      barriers=l[5], carveout=l[6], smem_optin=bool(l[7])))
            lim = lambda v: "-1" if v is None else str(v)
            want = ["ok", str(r.blocks_per_sm), str(r.warps_per_sm), "%.6f" % r.occupancy, "|".join(r.limiters),
                    lim(r.limit_warps), lim(r.limit_regs), lim(r.limit_smem), lim(r.limit_blocks),
                    lim(r.limit_barriers), str(r.regs_per_block), str(r.smem_per_block)]
        except gpuocc.Error as e:
            want = [e.name] + [""] * 11 if hasattr(e, "name") else None  # the status column names it
        if want is not None and row[8:20] != want:
            mismatches.append((l, row[8:20], want))
    check("every random row equals the library's answer, printed by Python", not mismatches, mismatches[:3])

# AMD gfx12's dvgpr column (docs/amd.md): 256 threads at 128 VGPRs on gfx1200, 8 workgroups with
# blocks of 16 (no VGPR limit: the 16 wave slots x 4 SIMDs / 8 waves), 5 without (1536 / 144 = 10 waves)
p = subprocess.run([GPUOCC, "batch"], input="arch,threads,regs,dvgpr\ngfx1200,256,128,16\ngfx1200,256,128,\n"
                   "gfx1200,256,128,8\nH100,256,64,16\n", capture_output=True, text=True)
rows = list(csv.reader(io.StringIO(p.stdout)))
check("dvgpr column read", rows[1][4:6] == ["ok", "8"] and rows[1][10] == "-1" and rows[2][4:6] == ["ok", "5"],
      p.stdout)
check("dvgpr bad cells are bad rows", p.returncode == 1 and rows[3][4] == "argument" and rows[4][4] == "argument"
      and "expected 16 or 32" in rows[3][-1] and "AMD only" in rows[4][-1], p.stdout)
check("dvgpr on an NVIDIA row: the single call's input, limit 0", rows[4][-4:-2] == ["dvgpr", "0"], rows[4])

# NVIDIA's virtual resources and tensor memory as columns: the batch applies them as `report` does.  sm_110
# (128 virtual resources per SM, CUDA 13's header), 160 threads, 123 registers, 109 virtual resources: 128 /
# 109 = 1 block; the registers alone give 3 (4096 registers a warp, 4 warps a sub-partition, 16 / 5).
p = subprocess.run([GPUOCC, "batch"], input="arch,threads,regs,virtual_resources,tmem_columns\n"
                   "sm_110,160,123,109,\nsm_110,160,123,,\nH100,256,32,,128\nsm_100,256,32,,128\n",
                   capture_output=True, text=True)
rows = list(csv.DictReader(io.StringIO(p.stdout)))
check("virtual_resources column read", [(r["status"], r["blocks_per_sm"], r["limiters"]) for r in rows[:2]] ==
      [("ok", "1", "virtual_resources"), ("ok", "3", "registers")], p.stdout)
check("tmem_columns column read: none on H100, held on sm_100", rows[2]["status"] == "tmem" and
      rows[2]["exceeded"] == "tmem_columns" and rows[3]["status"] == "ok" and p.returncode == 1, p.stdout)
# the limit itself is a column (the C batch's and Python's output): 128 / 109 = 1; no virtual resources, no limit
# (-1, as report writes it); the refused H100 row (tensor memory) is empty; sm_100 without any, -1.  JSON: null
# for each -1, and on AMD (no virtual resources at all).
check("limit_virtual_resources column", [r["limit_virtual_resources"] for r in rows] == ["1", "-1", "", "-1"],
      p.stdout)
pj = subprocess.run([GPUOCC, "batch", "--json"], input="arch,threads,regs,virtual_resources\nsm_110,160,123,109\n"
                    "sm_110,160,123,0\nMI300X,256,64,\n", capture_output=True, text=True)
check("limit_virtual_resources in JSON",
      [json.loads(line)["limit_virtual_resources"] for line in pj.stdout.splitlines()] == [1, None, None], pj.stdout)
p2 = subprocess.run([GPUOCC, "report", "--arch", "sm_110", "--threads", "160", "--regs", "123",
                     "--virtual-resources", "109", "--json"], capture_output=True, text=True)
check("the batch row equals the report", json.loads(p2.stdout)["blocks_per_sm"] == int(rows[0]["blocks_per_sm"]),
      p2.stdout)

# A seeded differential over cc 10-12 launches with virtual resources: every `gpuocc batch` row equals the
# library's answer through Python (the batch had ignored the column: 806 of 5,000 such rows differed).
if gpuocc:
    rnd = random.Random(35)
    archs = ["sm_100", "sm_103", "sm_110", "sm_120", "sm_121", "B200", "RTX 5090"]
    launches = [(rnd.choice(archs), rnd.randrange(1, 1025), rnd.randrange(0, 256), rnd.randrange(0, 140))
                for _ in range(5000)]
    src = "arch,threads,regs,virtual_resources\n" + "".join(f"{a},{t},{r},{v}\n" for a, t, r, v in launches)
    rc, out, err = run([], src.encode())
    got = list(csv.DictReader(io.StringIO(out.decode())))
    wrong = []
    for l, row in zip(launches, got):
        r = gpuocc.occupancy(l[0], gpuocc.kernel(threads=l[1], regs=l[2], virtual_resources=l[3]))
        if (row["blocks_per_sm"], row["limiters"]) != (str(r.blocks_per_sm), "|".join(r.limiters)):
            wrong.append((l, row["blocks_per_sm"], r.blocks_per_sm))
    check("5,000 virtual-resource rows equal the library", len(got) == 5000 and not wrong, wrong[:3])

# max_threads on NVIDIA rows: the kernel's launch bound (H100, 32 registers: 256 threads 8 blocks, 65536 / 8192;
# 512 threads over the bound 256 fit none, exceeded threads, limit 256); on Intel rows the kernel's largest
# work-group (B580, sub-group 16: 256 work-items = 16 threads, 64 / 16 = 4; over 128: none, limit 128).
rc, out, err = run(["--json"], b"arch,threads,regs,max_threads\nH100,256,32,256\nH100,512,32,256\nB580,256,,256\nB580,256,,128\n")
rows = [json.loads(line) for line in out.decode().splitlines()]
check("NVIDIA max_threads column", [(r["status"], r["blocks_per_sm"], r["exceeded"], r["exceeded_limit"]) for r in rows]
      == [("ok", 8, None, None), ("ok", 0, "threads", 256), ("ok", 4, None, None), ("ok", 0, "threads", 128)],
      (rows, err))
# 0 is no bound, as the C field's 0 and an empty cell are, on every vendor (MI300X: 256 threads, 32 VGPRs: 8)
rc, out, err = run(["--json"], b"arch,threads,regs,max_threads\nH100,512,32,0\nB580,256,,0\nMI300X,256,32,0\nH100,512,32,-1\n")
rows = [json.loads(line) for line in out.decode().splitlines()]
check("max_threads 0: no bound", [(r["status"], r["blocks_per_sm"]) for r in rows]
      == [("ok", 4), ("ok", 4), ("ok", 8), ("argument", None)], (rows, err))

finish("test_cli_batch")
