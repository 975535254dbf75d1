// MaxPool, AveragePool, LpPool and the Global pools against a direct
// reference that visits every tap of every window; MaxUnpool against the
// scatter of MaxPool's own values and indices.
#include "kernels/cpu/max_unpool.hpp"
#include "kernels/cpu/pool.hpp"

#include "op_harness.hpp"

namespace {

using namespace onyx;
using onyx::test::attr;

enum class pool { max, avg, lp };

struct pool_case {
  extents x;
  std::vector<std::int64_t> kernel, strides, dilations, pads;
  bool ceil = false, include_pad = false;
  std::string auto_pad = "NOTSET";
};

struct pooled {
  extents shape;
  std::vector<double> y;
  std::vector<std::int64_t> idx;
};

pooled reference(const pool_case& pc, const std::vector<double>& x, pool kind, double p = 2, bool col_major = false) {
  const std::size_t n = pc.x.size() - 2;
  std::vector<std::int64_t> s(n, 1), d(n, 1), pb(n, 0), pe(n, 0), out(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!pc.strides.empty()) s[i] = pc.strides[i];
    if (!pc.dilations.empty()) d[i] = pc.dilations[i];
    const std::int64_t in = pc.x[2 + i], span = (pc.kernel[i] - 1) * d[i] + 1;
    if (pc.auto_pad == "SAME_UPPER" || pc.auto_pad == "SAME_LOWER") {
      out[i] = (in + s[i] - 1) / s[i];
      const std::int64_t total = std::max<std::int64_t>(0, (out[i] - 1) * s[i] + span - in);
      pb[i] = pc.auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      pe[i] = total - pb[i];
    } else {
      if (!pc.pads.empty()) pb[i] = pc.pads[i], pe[i] = pc.pads[n + i];
      const double q = double(in + pb[i] + pe[i] - span) / double(s[i]) + 1;
      out[i] = pc.ceil ? static_cast<std::int64_t>(std::ceil(q)) : static_cast<std::int64_t>(std::floor(q));
      if (pc.ceil && (out[i] - 1) * s[i] >= in + pb[i]) --out[i];
    }
  }
  pooled r;
  r.shape = {pc.x[0], pc.x[1]};
  for (auto o : out) r.shape.push_back(o);
  const std::int64_t P = element_count(out), insz = element_count(std::span(pc.x).subspan(2)),
                     taps = element_count(pc.kernel);
  std::vector<std::int64_t> o(n), k(n);
  for (std::int64_t plane = 0; plane < pc.x[0] * pc.x[1]; ++plane)
    for (std::int64_t q = 0; q < P; ++q) {
      for (std::int64_t t = q, i = static_cast<std::int64_t>(n); i-- > 0;) o[i] = t % out[i], t /= out[i];
      double acc = kind == pool::max ? -INFINITY : 0;
      std::int64_t valid = 0, counted = 0, best = -1;
      for (std::int64_t t = 0; t < taps; ++t) {
        for (std::int64_t u = t, i = static_cast<std::int64_t>(n); i-- > 0;) k[i] = u % pc.kernel[i], u /= pc.kernel[i];
        bool inside = true, in_padded = true;
        std::int64_t off = 0, coff = 0, cs = 1;
        for (std::size_t i = 0; i < n; ++i) {
          const std::int64_t pos = o[i] * s[i] - pb[i] + k[i] * d[i];
          inside = inside && pos >= 0 && pos < pc.x[2 + i];
          in_padded = in_padded && pos < pc.x[2 + i] + pe[i];
          off = off * pc.x[2 + i] + pos;
          coff += pos * cs;
          cs *= pc.x[2 + i];
        }
        counted += in_padded;
        if (!inside) continue;
        ++valid;
        const double v = x[plane * insz + off];
        if (kind == pool::max) {
          if (v > acc) acc = v, best = plane * insz + (col_major ? coff : off);
        } else if (kind == pool::avg) {
          acc += v;
        } else {
          acc += std::pow(std::abs(v), p);
        }
      }
      if (kind == pool::avg) acc /= double(pc.include_pad ? counted : valid);
      if (kind == pool::lp) acc = std::pow(acc, 1 / p);
      r.y.push_back(acc);
      r.idx.push_back(best);
    }
  return r;
}

std::vector<attribute> attrs_of(const pool_case& pc) {
  std::vector<attribute> a{attr("kernel_shape", pc.kernel), attr("auto_pad", pc.auto_pad),
                                  attr("ceil_mode", std::int64_t{pc.ceil})};
  if (!pc.strides.empty()) a.push_back(attr("strides", pc.strides));
  if (!pc.dilations.empty()) a.push_back(attr("dilations", pc.dilations));
  if (!pc.pads.empty()) a.push_back(attr("pads", pc.pads));
  return a;
}

const std::vector<pool_case>& cases() {
  static const std::vector<pool_case> all = {
      {{1, 3, 7, 9}, {3, 3}, {}, {}, {}},
      {{2, 2, 9, 8}, {3, 2}, {2, 2}, {}, {1, 0, 1, 1}},
      {{1, 3, 10, 11}, {3, 3}, {2, 2}, {}, {1, 1, 1, 1}, true},
      {{1, 2, 7, 7}, {2, 2}, {2, 2}, {}, {}, true},  // ceil adds a last window
      {{1, 2, 8, 9}, {3, 3}, {1, 2}, {2, 2}, {2, 1, 1, 2}},
      {{1, 2, 7, 8}, {3, 2}, {2, 3}, {}, {}, false, false, "SAME_UPPER"},
      {{1, 2, 7, 8}, {4, 3}, {2, 2}, {}, {}, false, false, "SAME_LOWER"},
      {{1, 2, 7, 8}, {3, 3}, {2, 2}, {}, {}, false, false, "VALID"},
      {{2, 3, 17}, {4}, {3}, {}, {2, 1}},
      {{1, 2, 5, 6, 7}, {2, 3, 2}, {2, 1, 2}, {1, 2, 1}, {1, 1, 0, 0, 1, 1}, true},
      // Rows wider than a vector (the f32 plane path's full vectors and tails).
      {{1, 3, 9, 37}, {3, 3}, {}, {}, {1, 1, 1, 1}},
      {{1, 2, 11, 40}, {3, 3}, {2, 2}, {}, {0, 0, 1, 1}, true},
      {{1, 2, 12, 35}, {5, 4}, {3, 2}, {}, {2, 1, 2, 2}},
      // The f32 row path: stride 1 (unit-stride taps), stride 2 (even
      // elements of two vectors) and 3 (gathered) over rows of several
      // vectors, a window wider than 16 taps, and dilation along H.
      {{1, 3, 6, 70}, {3, 3}, {1, 1}, {}, {1, 1, 1, 1}},
      {{2, 2, 9, 71}, {3, 3}, {2, 2}, {}, {1, 1, 1, 1}},
      {{1, 2, 8, 67}, {3, 4}, {2, 3}, {}, {0, 2, 1, 1}, true},
      {{1, 2, 4, 50}, {2, 20}, {1, 2}, {}, {0, 3, 1, 5}},
      {{1, 2, 11, 41}, {3, 3}, {1, 2}, {3, 1}, {2, 1, 2, 1}},
      // Row tails read and stored as whole vectors inside the plane, the
      // right padding (ceil, pad_end) read after them: SqueezeNet's 3x3/2
      // over 55x55, and rows shorter than a vector.
      {{1, 4, 55, 55}, {3, 3}, {2, 2}, {}, {}, true},
      {{2, 3, 13, 13}, {3, 3}, {2, 2}, {}, {0, 0, 1, 1}},
      {{1, 3, 5, 5}, {3, 3}, {1, 1}, {}, {1, 1, 1, 1}},
  };
  return all;
}

template <class Op> void check(pool kind, bool include_pad = false) {
  int i = 0;
  for (auto pc : cases()) {
    INFO("case " << i++);
    pc.include_pad = include_pad;
    auto xd = onyx::test::random_values<double>(static_cast<std::size_t>(element_count(pc.x)), -2, 2, 11);
    auto expect = reference(pc, xd, kind, 3);
    auto a = attrs_of(pc);
    if (include_pad) a.push_back(attr("count_include_pad", std::int64_t{1}));
    if (kind == pool::lp) a.push_back(attr("p", std::int64_t{3}));
    thread_pool threads(3);
    auto r = onyx::test::run_op<Op>({tensor::from(std::vector<float>(xd.begin(), xd.end()), pc.x)}, a,
                                    kind == pool::max ? 2 : 1, &threads);
    INFO(r.error().message());
    REQUIRE(r.ok());
    REQUIRE((*r)[0].shape() == expect.shape);
    onyx::test::require_close((*r)[0], std::vector<float>(expect.y.begin(), expect.y.end()), 1e-5, 1e-5);
    if (kind == pool::max) {
      auto idx = (*r)[1].template values<std::int64_t>();
      REQUIRE(std::vector<std::int64_t>(idx.begin(), idx.end()) == expect.idx);
      // Without Indices, two spatial axes take the separable path.
      auto y_only = onyx::test::run_op<Op>({tensor::from(std::vector<float>(xd.begin(), xd.end()), pc.x)}, a, 1,
                                           &threads);
      REQUIRE(y_only.ok());
      onyx::test::require_close((*y_only)[0], std::vector<float>(expect.y.begin(), expect.y.end()), 0, 0);
    }
  }
}

}  // namespace

TEST_CASE("MaxPool, with and without Indices", "[pool]") { check<ops::MaxPool>(pool::max); }
TEST_CASE("AveragePool, count_include_pad 0 and 1", "[pool]") {
  check<ops::AveragePool>(pool::avg, false);
  check<ops::AveragePool>(pool::avg, true);
}
TEST_CASE("LpPool p=3", "[pool]") { check<ops::LpPool>(pool::lp); }

TEST_CASE("MaxPool storage_order 1, float64, int8", "[pool]") {
  pool_case pc{{1, 2, 5, 6}, {2, 3}, {1, 2}, {}, {1, 1, 0, 1}};
  auto xd = onyx::test::random_values<double>(60, -100, 100, 5);
  for (auto& v : xd) v = std::round(v);
  auto expect = reference(pc, xd, pool::max, 2, true);
  auto a = attrs_of(pc);
  a.push_back(attr("storage_order", std::int64_t{1}));
  auto r = onyx::test::run_op<ops::MaxPool>({tensor::from(xd, pc.x)}, a, 2);
  REQUIRE(r.ok());
  onyx::test::require_close((*r)[0], expect.y, 0, 0);
  auto idx = (*r)[1].values<std::int64_t>();
  CHECK(std::vector<std::int64_t>(idx.begin(), idx.end()) == expect.idx);
  std::vector<std::int8_t> xi(xd.begin(), xd.end());
  auto ri = onyx::test::run_op<ops::MaxPool>({tensor::from(xi, pc.x)}, attrs_of(pc));
  REQUIRE(ri.ok());
  onyx::test::require_close((*ri)[0], std::vector<std::int8_t>(expect.y.begin(), expect.y.end()), 0, 0);
}

TEST_CASE("Global pools", "[pool]") {
  for (extents shape : {extents{2, 3, 5, 7}, extents{1, 4, 9}, extents{1, 2, 3, 2, 5}, extents{1, 3, 9, 13}}) {
    auto xd = onyx::test::random_values<double>(static_cast<std::size_t>(element_count(shape)), -2, 2, 3);
    const std::int64_t planes = shape[0] * shape[1], size = element_count(shape) / planes;
    std::vector<float> mx, avg, lp;
    for (std::int64_t p = 0; p < planes; ++p) {
      double m = -INFINITY, s = 0, l = 0;
      for (std::int64_t i = 0; i < size; ++i) {
        const double v = xd[p * size + i];
        m = std::max(m, v), s += v, l += v * v;
      }
      mx.push_back(float(m)), avg.push_back(float(s / size)), lp.push_back(float(std::sqrt(l)));
    }
    auto x = tensor::from(std::vector<float>(xd.begin(), xd.end()), shape);
    extents ys(shape.size(), 1);
    ys[0] = shape[0], ys[1] = shape[1];
    auto r = onyx::test::run_op<ops::GlobalMaxPool>({x});
    REQUIRE(r.ok());
    CHECK((*r)[0].shape() == ys);
    onyx::test::require_close((*r)[0], mx);
    r = onyx::test::run_op<ops::GlobalAveragePool>({x});
    REQUIRE(r.ok());
    onyx::test::require_close((*r)[0], avg, 1e-5, 1e-6);
    r = onyx::test::run_op<ops::GlobalLpPool>({x});
    REQUIRE(r.ok());
    onyx::test::require_close((*r)[0], lp, 1e-5, 1e-6);
  }
}

TEST_CASE("Pools reject bad inputs", "[pool]") {
  auto x = tensor::zeros(dtype::float32, {1, 2, 4, 4});
  auto r = onyx::test::run_op<ops::MaxPool>({x});  // no kernel_shape
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("kernel_shape") != std::string::npos);
  r = onyx::test::run_op<ops::AveragePool>({x}, {attr("kernel_shape", std::vector<std::int64_t>{5, 5})});
  REQUIRE(!r.ok());
  r = onyx::test::run_op<ops::AveragePool>({tensor::zeros(dtype::int32, {1, 2, 4, 4})},
                                           {attr("kernel_shape", std::vector<std::int64_t>{2, 2})});
  REQUIRE(!r.ok());
  r = onyx::test::run_op<ops::GlobalAveragePool>({tensor::zeros(dtype::float32, {4, 4})});
  REQUIRE(!r.ok());
}

TEST_CASE("MaxUnpool scatters MaxPool's values back to their indices", "[pool]") {
  const extents xs{2, 3, 6, 7};
  auto xd = onyx::test::random_values<float>(static_cast<std::size_t>(element_count(xs)), -1, 1, 9);
  auto pool_attrs = std::vector<attribute>{attr("kernel_shape", std::vector<std::int64_t>{2, 2}),
                                                  attr("strides", std::vector<std::int64_t>{2, 2})};
  auto pooled = onyx::test::run_op<ops::MaxPool>({tensor::from(xd, xs)}, pool_attrs, 2);
  REQUIRE(pooled.ok());
  const tensor &y = (*pooled)[0], &idx = (*pooled)[1];  // 2x3x3x3
  // Unpooled extent: (3 - 1) * 2 + 2 = 6 along H and along W (one column of X is dropped by the pool).
  std::vector<float> expect(2 * 3 * 6 * 6, 0.0f);
  auto iv = idx.values<std::int64_t>();
  auto yv = y.values<float>();
  std::vector<std::int64_t> unpooled_idx;
  for (std::size_t i = 0; i < iv.size(); ++i) {
    // MaxPool's indices are flat in X (width 7); MaxUnpool's are flat in the unpooled tensor (width 6).
    const std::int64_t plane = iv[i] / 42, h = iv[i] % 42 / 7, w = iv[i] % 7;
    unpooled_idx.push_back(plane * 36 + h * 6 + w);
    expect[static_cast<std::size_t>(unpooled_idx.back())] = yv[i];
  }
  auto idx6 = tensor::from(unpooled_idx, y.shape());
  auto r = onyx::test::run_op<ops::MaxUnpool>({y, idx6}, pool_attrs);
  REQUIRE(r.ok());
  REQUIRE((*r)[0].shape() == extents{2, 3, 6, 6});
  onyx::test::require_close((*r)[0], expect, 0, 0);

  // A larger output_shape holds the unpooled tensor in its corner.
  auto r8 = onyx::test::run_op<ops::MaxUnpool>({y, idx6, tensor::from(std::vector<std::int64_t>{2, 3, 7, 8}, {4})},
                                               pool_attrs);
  REQUIRE(r8.ok());
  REQUIRE((*r8)[0].shape() == extents{2, 3, 7, 8});
  auto big = (*r8)[0].values<float>();
  for (std::int64_t p = 0; p < 6; ++p)
    for (std::int64_t h = 0; h < 7; ++h)
      for (std::int64_t w = 0; w < 8; ++w)
        CHECK(big[static_cast<std::size_t>((p * 7 + h) * 8 + w)] ==
              (h < 6 && w < 6 ? expect[static_cast<std::size_t>((p * 6 + h) * 6 + w)] : 0.0f));

  // An index past the unpooled tensor is an error, not a stray write.
  std::vector<std::int64_t> bad(unpooled_idx);
  bad[5] = 2 * 3 * 36;
  auto r_bad = onyx::test::run_op<ops::MaxUnpool>({y, tensor::from(bad, y.shape())}, pool_attrs);
  REQUIRE_FALSE(r_bad.ok());
  CHECK(r_bad.error().code() == errc::out_of_range);
  CHECK_THAT(r_bad.error().message(), Catch::Contains("I[5] = 216"));
}
