// VQ_HD marks a function that both the CPU twin and a CUDA kernel call: __host__ __device__ under
// nvcc, nothing elsewhere. A header without CUDA includes, so host-only code can share the maths.
#pragma once

#if defined(__CUDACC__)
#define VQ_HD __host__ __device__
#else
#define VQ_HD
#endif
