// MatMul and Gemm against plain double references.
#include "kernels/cpu/gemm.hpp"
#include "kernels/cpu/mat_mul.hpp"

#include "op_harness.hpp"

namespace {

using namespace onyx;
using onyx::test::attr;
using onyx::test::random_values;
using onyx::test::f32;


// numpy matmul over broadcast batches, 1-D promotion included.
std::vector<double> matmul_ref(const std::vector<double>& a, extents as, const std::vector<double>& b, extents bs,
                               extents& ys) {
  const bool a1 = as.size() == 1, b1 = bs.size() == 1;
  if (a1) as.insert(as.begin(), 1);
  if (b1) bs.push_back(1);
  const std::int64_t M = as[as.size() - 2], K = as.back(), N = bs.back();
  const std::size_t r = std::max(as.size(), bs.size()) - 2;
  extents batch(r);
  for (std::size_t i = 0; i < r; ++i) {
    const std::int64_t da = i + as.size() - 2 >= r ? as[i + as.size() - 2 - r] : 1;
    const std::int64_t db = i + bs.size() - 2 >= r ? bs[i + bs.size() - 2 - r] : 1;
    batch[i] = std::max(da, db);
  }
  ys = batch;
  if (!a1) ys.push_back(M);
  if (!b1) ys.push_back(N);
  std::vector<double> y;
  for (std::int64_t q = 0; q < element_count(batch); ++q) {
    std::int64_t oa = 0, ob = 0, ma = 1, mb = 1, rem = q;
    for (std::size_t i = r; i-- > 0;) {
      const std::int64_t idx = rem % batch[i];
      rem /= batch[i];
      const std::int64_t da = i + as.size() - 2 >= r ? as[i + as.size() - 2 - r] : 1;
      const std::int64_t db = i + bs.size() - 2 >= r ? bs[i + bs.size() - 2 - r] : 1;
      oa += (da == 1 ? 0 : idx) * ma, ma *= da;
      ob += (db == 1 ? 0 : idx) * mb, mb *= db;
    }
    for (std::int64_t i = 0; i < M; ++i)
      for (std::int64_t j = 0; j < N; ++j) {
        double s = 0;
        for (std::int64_t k = 0; k < K; ++k) s += a[oa * M * K + i * K + k] * b[ob * K * N + k * N + j];
        y.push_back(s);
      }
  }
  return y;
}

void check_matmul(extents as, extents bs, const thread_pool* pool = nullptr) {
  auto a = random_values<double>(static_cast<std::size_t>(element_count(as)), -1, 1, 1);
  auto b = random_values<double>(static_cast<std::size_t>(element_count(bs)), -1, 1, 2);
  extents ys;
  auto y = matmul_ref(a, as, b, bs, ys);
  INFO("A " << to_string(as) << " B " << to_string(bs));
  auto r = onyx::test::run_op<ops::MatMul>({tensor::from(f32(a), as), tensor::from(f32(b), bs)}, {}, 1, pool);
  INFO(r.error().message());
  REQUIRE(r.ok());
  REQUIRE((*r)[0].shape() == ys);
  onyx::test::require_close((*r)[0], f32(y), 1e-4, 1e-5);
  // int64 through the plain path
  std::vector<std::int64_t> ai, bi;
  for (double v : a) ai.push_back(static_cast<std::int64_t>(v * 10));
  for (double v : b) bi.push_back(static_cast<std::int64_t>(v * 10));
  auto yi = matmul_ref({ai.begin(), ai.end()}, as, {bi.begin(), bi.end()}, bs, ys);
  auto ri = onyx::test::run_op<ops::MatMul>({tensor::from(ai, as), tensor::from(bi, bs)}, {}, 1, pool);
  REQUIRE(ri.ok());
  onyx::test::require_close((*ri)[0], std::vector<std::int64_t>(yi.begin(), yi.end()), 0, 0);
}

}  // namespace

TEST_CASE("MatMul shapes: 2-D, batched, broadcast, 1-D promotion", "[mat_mul]") {
  thread_pool pool(3);
  for (const thread_pool* p : {static_cast<const thread_pool*>(nullptr), static_cast<const thread_pool*>(&pool)}) {
    check_matmul({7, 13}, {13, 37}, p);
    check_matmul({2, 3, 5, 9}, {9, 17}, p);        // shared B: batches folded into M
    check_matmul({4, 5, 9}, {4, 9, 6}, p);         // batched
    check_matmul({2, 1, 5, 9}, {3, 9, 6}, p);      // broadcast batch
    check_matmul({9}, {2, 9, 5}, p);               // 1-D A
    check_matmul({3, 4, 9}, {9}, p);               // 1-D B
    check_matmul({9}, {9}, p);                     // dot
    check_matmul({1, 6, 70}, {6, 70, 33}, p);
  }
}

TEST_CASE("MatMul float16 and rejection", "[mat_mul]") {
  auto a = random_values<double>(12, -1, 1, 3), b = random_values<double>(20, -1, 1, 4);
  std::vector<float16_t> ah, bh;
  std::vector<double> ar, br;
  for (double v : a) ah.push_back(to_float16(float(v))), ar.push_back(to_float(ah.back()));
  for (double v : b) bh.push_back(to_float16(float(v))), br.push_back(to_float(bh.back()));
  extents ys;
  auto y = matmul_ref(ar, {3, 4}, br, {4, 5}, ys);
  auto r = onyx::test::run_op<ops::MatMul>({tensor::from(ah, {3, 4}), tensor::from(bh, {4, 5})});
  REQUIRE(r.ok());
  for (std::size_t i = 0; i < y.size(); ++i) REQUIRE(std::abs(to_float((*r)[0].values<float16_t>()[i]) - y[i]) < 5e-3);

  auto bad = onyx::test::run_op<ops::MatMul>({tensor::zeros(dtype::float32, {3, 4}), tensor::zeros(dtype::float32, {5, 2})});
  REQUIRE(!bad.ok());
  CHECK(bad.error().message().find("inner dimension") != std::string::npos);
  bad = onyx::test::run_op<ops::MatMul>({tensor::zeros(dtype::float32, {2, 3, 4}), tensor::zeros(dtype::float32, {3, 4, 2})});
  REQUIRE(!bad.ok());
}

TEST_CASE("Gemm: transposes, alpha, beta, C broadcast", "[mat_mul]") {
  // M = 1 runs the GEMV (gemm_detail::gemv_row): N past one 1024-output
  // block, K past the 16 partial sums with a tail.
  for (auto [M, N, K] : {std::array<std::int64_t, 3>{5, 19, 11}, {1, 1030, 37}}) {
  auto a = random_values<double>(M * K, -1, 1, 5), b = random_values<double>(K * N, -1, 1, 6);
  for (int ta = 0; ta < 2; ++ta)
    for (int tb = 0; tb < 2; ++tb)
      for (extents cs : {extents{}, extents{N}, extents{1, N}, extents{M, 1}, extents{M, N}, extents{1}, extents{1, 1}}) {
        const bool has_c = !(cs.empty());
        auto cvals = random_values<double>(static_cast<std::size_t>(element_count(cs)), -1, 1, 7);
        std::vector<double> y(M * N);
        for (std::int64_t i = 0; i < M; ++i)
          for (std::int64_t j = 0; j < N; ++j) {
            double s = 0;
            for (std::int64_t k = 0; k < K; ++k) s += a[ta ? k * M + i : i * K + k] * b[tb ? j * K + k : k * N + j];
            double cv = 0;
            if (has_c) {
              const std::int64_t cm = cs.size() == 2 ? cs[0] : 1, cn = cs.back();
              cv = cvals[(cm == 1 ? 0 : i) * cn + (cn == 1 ? 0 : j)];
            }
            y[i * N + j] = 0.5 * s + 2.0 * cv;
          }
        std::vector<tensor> in{tensor::from(f32(a), ta ? extents{K, M} : extents{M, K}),
                               tensor::from(f32(b), tb ? extents{N, K} : extents{K, N})};
        if (has_c) in.push_back(tensor::from(f32(cvals), cs));
        INFO("transA " << ta << " transB " << tb << " C " << to_string(cs));
        auto r = onyx::test::run_op<ops::Gemm>(in, {attr("transA", ta), attr("transB", tb), attr("alpha", 0.5f),
                                                    attr("beta", 2.0f)});
        INFO(r.error().message());
        REQUIRE(r.ok());
        onyx::test::require_close((*r)[0], f32(y), 1e-4, 1e-5);
        // float64 through the plain path
        std::vector<tensor> ind{tensor::from(a, in[0].shape()), tensor::from(b, in[1].shape())};
        if (has_c) ind.push_back(tensor::from(cvals, cs));
        auto rd = onyx::test::run_op<ops::Gemm>(ind, {attr("transA", ta), attr("transB", tb), attr("alpha", 0.5f),
                                                      attr("beta", 2.0f)});
        REQUIRE(rd.ok());
        onyx::test::require_close((*rd)[0], y, 1e-12, 1e-12);
      }
  }
  auto bad = onyx::test::run_op<ops::Gemm>(
      {tensor::zeros(dtype::float32, {3, 4}), tensor::zeros(dtype::float32, {4, 5}), tensor::zeros(dtype::float32, {4})});
  REQUIRE(!bad.ok());
  CHECK(bad.error().message().find("broadcast") != std::string::npos);
  bad = onyx::test::run_op<ops::Gemm>({tensor::zeros(dtype::float32, {3, 4}), tensor::zeros(dtype::float32, {3, 5})});
  REQUIRE(!bad.ok());
}
