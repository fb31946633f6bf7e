// 3xTF32: an FP32 operand split into two TF32 halves for the tensor cores, and the m16n8k8 TF32
// MMA of mma.sync. tf32x3 multiplies with both; wgmma splits its operands the same way.
#pragma once

namespace gemmtune {

// x = big + small + e, |e| < 2^-21 |x|, as the tensor cores read big and small: they take the
// top 19 bits of a .tf32 operand's register and ignore the low 13 (NVIDIA's own cvt.rna.tf32 +
// mma code relies on it: ptxas passes the unmasked x + 0x1000 to HMMA). So big is x's bits plus
// half a TF32 unit (rounding to nearest once the low bits are dropped), small is the exact
// remainder x - big, and the tensor cores truncate small in turn. Three instructions an element,
// against seven for two cvt.rna.tf32. Infinities, NaNs and extreme magnitudes do not survive the
// split (x - big is inf - inf, and x + 0x1000 can overflow near FLT_MAX): the kernels watch for
// them and compute such blocks again with FFMA (special_values.cuh).
__device__ __forceinline__ void split_tf32(float x, unsigned& big, unsigned& small) {
  big = __float_as_uint(x) + 0x1000u;
  small = __float_as_uint(x - __uint_as_float(big & 0xffffe000u));
}

// d += a * b on a 16 x 8 x 8 tile; fragments as the PTX ISA lays them out for m16n8k8 .tf32
// (lane l: group g = l / 4, t = l % 4; a: (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4);
// b: (k t, n g), (k t + 4, n g); d: (g, 2t), (g, 2t + 1), (g + 8, 2t), (g + 8, 2t + 1)).
__device__ __forceinline__ void mma_tf32(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
  asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

}  // namespace gemmtune
