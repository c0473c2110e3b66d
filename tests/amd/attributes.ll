; The code object of tests/data/amdgpu_attributes_gfx942.o: what an AMDGPU code object records of the
; amdgpu-waves-per-eu and amdgpu-flat-work-group-size attributes (tests/test_amdgpu.c, docs/inputs.md).
;   llc-19 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj tests/amd/attributes.ll \
;     -o tests/data/amdgpu_attributes_gfx942.o
; llc-19 prints for them (-filetype=asm): waves_per_eu NumVGPRsForWavesPerEU 97, NumSGPRsForWavesPerEU 102,
; Occupancy 4, .amdhsa_next_free_vgpr 97; flat_range and plain 2 VGPRs, 10 SGPRs, Occupancy 8.

define amdgpu_kernel void @waves_per_eu(ptr addrspace(1) %p) #0 {
  store i32 1, ptr addrspace(1) %p
  ret void
}

define amdgpu_kernel void @flat_range(ptr addrspace(1) %p) #1 {
  store i32 1, ptr addrspace(1) %p
  ret void
}

define amdgpu_kernel void @plain(ptr addrspace(1) %p) {
  store i32 1, ptr addrspace(1) %p
  ret void
}

attributes #0 = { "amdgpu-waves-per-eu"="2,4" "amdgpu-flat-work-group-size"="64,256" }
attributes #1 = { "amdgpu-flat-work-group-size"="128,512" }
