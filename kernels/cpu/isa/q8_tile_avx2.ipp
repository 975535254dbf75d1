// The 6 x 16 int32 tile of the avx2-level int8 kernels (q8_kernels_avx2.cpp,
// q8_kernels_avx2vnni.cpp), which differ only in the instruction that adds
// products into the accumulators. Included into each kernel's TU, so it takes
// that TU's flags and namespace.

// The tile from an aligned array (row i at tile[i]) into the top-left m x n
// of c (row stride ldc), added to what is there when `accumulate`.
[[gnu::always_inline]] inline void store_tile_6x16(const std::int32_t (&tile)[6][16], std::int32_t* c,
                                                   std::int64_t ldc, int m, int n, bool accumulate) {
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i mask0 = _mm256_cmpgt_epi32(_mm256_set1_epi32(n), lane);
  const __m256i mask1 = _mm256_cmpgt_epi32(_mm256_set1_epi32(n - 8), lane);
  for (int i = 0; i < m; ++i) {
    int* row = c + i * ldc;
    __m256i t0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(tile[i]));
    __m256i t1 = _mm256_load_si256(reinterpret_cast<const __m256i*>(tile[i] + 8));
    if (n == 16) {
      __m256i* r0 = reinterpret_cast<__m256i*>(row);
      __m256i* r1 = reinterpret_cast<__m256i*>(row + 8);
      if (accumulate) {
        t0 = _mm256_add_epi32(t0, _mm256_loadu_si256(r0));
        t1 = _mm256_add_epi32(t1, _mm256_loadu_si256(r1));
      }
      _mm256_storeu_si256(r0, t0);
      _mm256_storeu_si256(r1, t1);
    } else {
      if (accumulate) {
        t0 = _mm256_add_epi32(t0, _mm256_maskload_epi32(row, mask0));
        if (n > 8) t1 = _mm256_add_epi32(t1, _mm256_maskload_epi32(row + 8, mask1));
      }
      _mm256_maskstore_epi32(row, mask0, t0);
      if (n > 8) _mm256_maskstore_epi32(row + 8, mask1, t1);
    }
  }
}
// The same from the 12 ymm accumulators (c0[i] | c1[i] is row i). The
// registers leave by constant indices only: indexing c0/c1 by the runtime m
// made GCC keep them on the stack, loaded and stored on every step of the
// kernel's loop.
[[gnu::always_inline]] inline void store_tile_6x16(const __m256i (&c0)[6], const __m256i (&c1)[6], std::int32_t* c,
                                                   std::int64_t ldc, int m, int n, bool accumulate) {
  alignas(32) std::int32_t tile[6][16];
#pragma GCC unroll 6
  for (int i = 0; i < 6; ++i) {
    _mm256_store_si256(reinterpret_cast<__m256i*>(tile[i]), c0[i]);
    _mm256_store_si256(reinterpret_cast<__m256i*>(tile[i] + 8), c1[i]);
  }
  store_tile_6x16(tile, c, ldc, m, n, accumulate);
}

// One K group of the tile: 4 bytes of each of A's 6 rows (two int16 or four
// uint8 values), broadcast, and 64 bytes of B (16 columns),
// c0/c1[i] = mul_add(c0/c1[i], A row i, B half).
template <class MulAdd>
[[gnu::always_inline]] inline void tile_group_6x16(__m256i (&c0)[6], __m256i (&c1)[6], const std::uint8_t* a,
                                                   const std::uint8_t* b, MulAdd mul_add) {
  const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b));
  const __m256i b1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 32));
#pragma GCC unroll 6
  for (int i = 0; i < 6; ++i) {
    std::int32_t quad;
    std::memcpy(&quad, a + i * 4, sizeof quad);
    const __m256i ai = _mm256_set1_epi32(quad);
    c0[i] = mul_add(c0[i], ai, b0);
    c1[i] = mul_add(c1[i], ai, b1);
  }
}

// The tile over `groups` K groups of both kernels' panels (tile_group_6x16).
// With `prefetch`, the next B panel's line per group is fetched as b's is read.
// The two cases are two loops, so the row tiles that fetch nothing (all but
// the first of each panel) do not test for it every group. Two groups an
// iteration made GCC keep all 12 accumulators on the stack.
template <class MulAdd>
[[gnu::always_inline]] inline void gemm_6x16(std::int64_t groups, const void* av, const void* bv, std::int32_t* c,
                                             std::int64_t ldc, int m, int n, bool accumulate, const void* prefetch,
                                             MulAdd mul_add) {
  constexpr int mr = 6;
  const auto* a = static_cast<const std::uint8_t*>(av);
  const auto* b = static_cast<const std::uint8_t*>(bv);
  const char* pf = static_cast<const char*>(prefetch);
  __m256i c0[mr], c1[mr];
#pragma GCC unroll 6
  for (int i = 0; i < mr; ++i) c0[i] = c1[i] = _mm256_setzero_si256();
  std::int64_t p = 0;
  if (pf) {
    for (; p < groups; ++p, a += mr * 4, b += 64) {
      _mm_prefetch(pf + p * 64, _MM_HINT_T0);
      tile_group_6x16(c0, c1, a, b, mul_add);
    }
  } else {
    for (; p < groups; ++p, a += mr * 4, b += 64) tile_group_6x16(c0, c1, a, b, mul_add);
  }
  store_tile_6x16(c0, c1, c, ldc, m, n, accumulate);
}
