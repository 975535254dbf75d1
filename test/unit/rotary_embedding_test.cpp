// RotaryEmbedding against a scalar reference: 4D halves with position ids,
// 3D interleaved partial rotation without them, and an out-of-range position.
#include <catch2/catch.hpp>

#include "kernels/cpu/rotary_embedding.hpp"
#include "op_harness.hpp"

using namespace onyx;
using onyx::test::attr;

TEST_CASE("RotaryEmbedding: 4D with position ids", "[rotary_embedding]") {
  const std::int64_t B = 2, H = 3, S = 5, D = 8, maxpos = 11;
  auto x = test::random_values<float>(B * H * S * D, -1, 1, 21);
  auto cs = test::random_values<float>(maxpos * D / 2, -1, 1, 22);
  auto sn = test::random_values<float>(maxpos * D / 2, -1, 1, 23);
  std::vector<std::int64_t> pos(B * S);
  for (std::size_t i = 0; i < pos.size(); ++i) pos[i] = (i * 7) % maxpos;
  std::vector<float> want(x.size());
  for (std::int64_t b = 0; b < B; ++b)
    for (std::int64_t h = 0; h < H; ++h)
      for (std::int64_t s = 0; s < S; ++s) {
        const float* xi = &x[((b * H + h) * S + s) * D];
        float* yo = &want[((b * H + h) * S + s) * D];
        const std::int64_t p = pos[b * S + s];
        for (std::int64_t j = 0; j < D / 2; ++j) {
          const float c = cs[p * D / 2 + j], sv = sn[p * D / 2 + j];
          yo[j] = c * xi[j] - sv * xi[j + D / 2];
          yo[j + D / 2] = sv * xi[j] + c * xi[j + D / 2];
        }
      }
  auto out = test::run_op<ops::RotaryEmbedding>({tensor::from(x, {B, H, S, D}), tensor::from(cs, {maxpos, D / 2}),
                                                 tensor::from(sn, {maxpos, D / 2}), tensor::from(pos, {B, S})});
  REQUIRE(out.ok());
  test::require_close(out.value()[0], want, 1e-6, 1e-6);

  pos[3] = maxpos;
  auto bad = test::run_op<ops::RotaryEmbedding>({tensor::from(x, {B, H, S, D}), tensor::from(cs, {maxpos, D / 2}),
                                                 tensor::from(sn, {maxpos, D / 2}), tensor::from(pos, {B, S})});
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error().message(), Catch::Contains("position id 11 at index 3"));
}

TEST_CASE("RotaryEmbedding: 3D interleaved partial rotation", "[rotary_embedding]") {
  const std::int64_t B = 1, H = 2, S = 3, D = 6, R = 4;
  auto x = test::random_values<float>(B * S * H * D, -1, 1, 31);
  auto cs = test::random_values<float>(B * S * R / 2, -1, 1, 32);
  auto sn = test::random_values<float>(B * S * R / 2, -1, 1, 33);
  std::vector<float> want = x;
  for (std::int64_t s = 0; s < S; ++s)
    for (std::int64_t h = 0; h < H; ++h)
      for (std::int64_t j = 0; j < R / 2; ++j) {
        const std::int64_t base = (s * H + h) * D;
        const float c = cs[s * R / 2 + j], sv = sn[s * R / 2 + j], a = x[base + 2 * j], b = x[base + 2 * j + 1];
        want[base + 2 * j] = c * a - sv * b;
        want[base + 2 * j + 1] = sv * a + c * b;
      }
  auto out = test::run_op<ops::RotaryEmbedding>(
      {tensor::from(x, {B, S, H * D}), tensor::from(cs, {B, S, R / 2}), tensor::from(sn, {B, S, R / 2})},
      {attr("interleaved", 1), attr("num_heads", 2), attr("rotary_embedding_dim", 4)});
  REQUIRE(out.ok());
  test::require_close(out.value()[0], want, 1e-6, 1e-6);
}
