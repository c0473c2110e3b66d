#!/bin/sh
# Rebuilds the zebin fixtures of this folder with Debian bookworm's ocloc (package intel-opencl-icd
# 22.43.24595.41; `ocloc --version` names it).  Run from this folder.  -cl-intel-allow-zebin makes that
# ocloc write a zebin (ELF, e_machine 205) instead of its default patch-token binary; ocloc names its output
# OUTPUT_<core><device>.bin and writes a .spv beside it (not kept).
set -eu
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
build() { # SOURCE DEVICE NAME [more internal options]
    here=$(pwd)
    (cd "$out" && ocloc compile -file "$here/$1" -device "$2" -internal_options "-cl-intel-allow-zebin${4:+ $4}" \
        -output "$3" >/dev/null)
    mv "$out/$3"_*.bin "$3.bin"
}
build kernels.cl dg2 kernels_dg2
build kernels.cl pvc kernels_pvc
build kernels.cl pvc kernels_pvc_256grf -cl-intel-256-GRF-per-thread
build private.cl dg2 private_dg2
build private.cl pvc private_pvc
build reqd.cl pvc reqd_pvc
# ocloc's default output, not a zebin (e_type 0xff04, a patch-token program): gpuocc names it and does not read it
here=$(pwd)
(cd "$out" && ocloc compile -file "$here/kernels.cl" -device pvc -output patchtoken >/dev/null)
mv "$out"/patchtoken_*.bin kernels_pvc_patchtoken.bin
