// ConvTranspose against a direct scatter reference in double.
#include "kernels/cpu/conv_transpose.hpp"

#include "op_harness.hpp"

namespace {

using namespace onyx;
using onyx::test::attr;
using onyx::test::f32;

// y[n, g*Mg+m, i*s - pb + k*d] += x[n, g*Cg+c, i] * w[g*Cg+c, m, k], out extents given.
std::vector<double> reference(const extents& xs, const extents& ws, std::int64_t G, const std::vector<double>& x,
                              const std::vector<double>& w, const std::vector<double>& b, const extents& out,
                              const std::vector<std::int64_t>& s, const std::vector<std::int64_t>& d,
                              const std::vector<std::int64_t>& pb) {
  const std::size_t n = xs.size() - 2;
  const std::int64_t N = xs[0], C = xs[1], Cg = C / G, Mg = ws[1], M = Mg * G;
  const std::int64_t pin = element_count(std::span(xs).subspan(2)), pout = element_count(out),
                     taps = element_count(std::span(ws).subspan(2));
  std::vector<double> y(static_cast<std::size_t>(N * M * pout));
  for (std::int64_t i = 0; i < N * M; ++i)
    for (std::int64_t p = 0; p < pout; ++p) y[i * pout + p] = b.empty() ? 0 : b[i % M];
  std::vector<std::int64_t> ii(n), kk(n);
  for (std::int64_t nn = 0; nn < N; ++nn)
    for (std::int64_t c = 0; c < C; ++c)
      for (std::int64_t m = 0; m < Mg; ++m)
        for (std::int64_t p = 0; p < pin; ++p)
          for (std::int64_t t = 0; t < taps; ++t) {
            for (std::int64_t r = p, a = static_cast<std::int64_t>(n); a-- > 0;) ii[a] = r % xs[2 + a], r /= xs[2 + a];
            for (std::int64_t r = t, a = static_cast<std::int64_t>(n); a-- > 0;) kk[a] = r % ws[2 + a], r /= ws[2 + a];
            std::int64_t off = 0;
            bool inside = true;
            for (std::size_t a = 0; a < n; ++a) {
              const std::int64_t o = ii[a] * s[a] - pb[a] + kk[a] * d[a];
              inside = inside && o >= 0 && o < out[a];
              off = off * out[a] + o;
            }
            if (inside)
              y[(nn * M + (c / Cg) * Mg + m) * pout + off] += x[(nn * C + c) * pin + p] * w[(c * Mg + m) * taps + t];
          }
  return y;
}


}  // namespace

TEST_CASE("ConvTranspose 2-D: strides, pads, dilations, groups, output_padding", "[conv_transpose]") {
  extents xs{2, 4, 5, 6}, ws{4, 3, 3, 2};
  auto x = onyx::test::random_values<double>(static_cast<std::size_t>(element_count(xs)), -1, 1, 1);
  auto w = onyx::test::random_values<double>(static_cast<std::size_t>(element_count(ws)), -1, 1, 2);
  auto b = onyx::test::random_values<double>(6, -1, 1, 3);
  for (std::int64_t G : {1, 2}) {
    const std::int64_t M = 3 * G;
    std::vector<double> bb(b.begin(), b.begin() + M);
    // strides 2x3, dilations 1x2, pads 1,0,0,1, output_padding 1,0
    extents out{2 * 4 + 1 + 2 + 1 - 1 - 0, 3 * 5 + 0 + 2 + 1 - 0 - 1};
    auto y = reference(xs, ws, G, x, w, bb, out, {2, 3}, {1, 2}, {1, 0});
    auto r = onyx::test::run_op<ops::ConvTranspose>(
        {tensor::from(f32(x), xs), tensor::from(f32(w), ws), tensor::from(f32(bb), {M})},
        {attr("group", G), attr("strides", std::vector<std::int64_t>{2, 3}),
         attr("dilations", std::vector<std::int64_t>{1, 2}), attr("pads", std::vector<std::int64_t>{1, 0, 0, 1}),
         attr("output_padding", std::vector<std::int64_t>{1, 0})});
    INFO("group " << G << ": " << r.error().message());
    REQUIRE(r.ok());
    REQUIRE((*r)[0].shape() == extents{2, M, out[0], out[1]});
    onyx::test::require_close((*r)[0], f32(y), 1e-4, 1e-5);
    auto rd = onyx::test::run_op<ops::ConvTranspose>(
        {tensor::from(x, xs), tensor::from(w, ws), tensor::from(bb, {M})},
        {attr("group", G), attr("strides", std::vector<std::int64_t>{2, 3}),
         attr("dilations", std::vector<std::int64_t>{1, 2}), attr("pads", std::vector<std::int64_t>{1, 0, 0, 1}),
         attr("output_padding", std::vector<std::int64_t>{1, 0})});
    REQUIRE(rd.ok());
    onyx::test::require_close((*rd)[0], y, 1e-12, 1e-12);
  }
}

// Strides equal to the kernel, no padding: the taps tile Y and it is written
// once from the product (conv_transpose_detail::col_to_tiled): 2x2 stride 2
// (its own loop), 3x2 stride 3x2, and a 2x2 whose pad_end and output_padding
// cancel; groups (one channel each, as PP-OCR's head has), bias or none,
// widths not a multiple of the vector, two threads.
TEST_CASE("ConvTranspose where the taps tile the output", "[conv_transpose]") {
  struct shape {
    std::int64_t C, M, G, H, W, kh, kw;
    bool bias, cancelling_pads;
  };
  thread_pool pool(2);
  for (const shape& c : {shape{4, 6, 1, 5, 7, 2, 2, true, false}, shape{4, 4, 4, 3, 9, 2, 2, true, false},
                         shape{3, 2, 1, 4, 5, 3, 2, false, false}, shape{2, 3, 1, 3, 3, 2, 2, true, true}}) {
    INFO("C " << c.C << " M " << c.M << " group " << c.G << " kernel " << c.kh << "x" << c.kw);
    const extents xs{2, c.C, c.H, c.W}, ws{c.C, c.M / c.G, c.kh, c.kw};
    auto x = onyx::test::random_values<double>(static_cast<std::size_t>(element_count(xs)), -1, 1, 11);
    auto w = onyx::test::random_values<double>(static_cast<std::size_t>(element_count(ws)), -1, 1, 12);
    std::vector<double> b = c.bias ? onyx::test::random_values<double>(static_cast<std::size_t>(c.M), -1, 1, 13)
                                   : std::vector<double>{};
    const extents out{c.H * c.kh, c.W * c.kw};
    auto y = reference(xs, ws, c.G, x, w, b, out, {c.kh, c.kw}, {1, 1}, {0, 0});
    std::vector<attribute> attrs{attr("group", c.G), attr("strides", std::vector<std::int64_t>{c.kh, c.kw})};
    if (c.cancelling_pads) {
      attrs.push_back(attr("pads", std::vector<std::int64_t>{0, 0, 1, 1}));
      attrs.push_back(attr("output_padding", std::vector<std::int64_t>{1, 1}));
    }
    std::vector<tensor> in32{tensor::from(f32(x), xs), tensor::from(f32(w), ws)}, in64{tensor::from(x, xs), tensor::from(w, ws)};
    if (c.bias) in32.push_back(tensor::from(f32(b), {c.M})), in64.push_back(tensor::from(b, {c.M}));
    auto r = onyx::test::run_op<ops::ConvTranspose>(in32, attrs, 1, &pool);
    REQUIRE(r.ok());
    REQUIRE((*r)[0].shape() == extents{2, c.M, out[0], out[1]});
    onyx::test::require_close((*r)[0], f32(y), 1e-5, 1e-5);
    auto rd = onyx::test::run_op<ops::ConvTranspose>(in64, attrs, 1, &pool);
    REQUIRE(rd.ok());
    onyx::test::require_close((*rd)[0], y, 1e-12, 1e-12);
  }
}

TEST_CASE("ConvTranspose output_shape, SAME_UPPER, 1-D and 3-D", "[conv_transpose]") {
  {
    extents xs{1, 2, 3, 3}, ws{2, 2, 3, 3};
    auto x = onyx::test::random_values<double>(18, -1, 1, 4), w = onyx::test::random_values<double>(36, -1, 1, 5);
    // output_shape 10x8, strides 3x2: total pads = full - out, begin = total - total/2 (NOTSET)
    const std::int64_t full0 = 3 * 2 + 3, full1 = 2 * 2 + 3;  // 9, 7 + output_padding 0
    extents out{8, 6};
    auto y = reference(xs, ws, 1, x, w, {}, out, {3, 2}, {1, 1},
                       {(full0 - 8) - (full0 - 8) / 2, (full1 - 6) - (full1 - 6) / 2});
    thread_pool pool(3);
    auto r = onyx::test::run_op<ops::ConvTranspose>({tensor::from(f32(x), xs), tensor::from(f32(w), ws)},
                                                    {attr("strides", std::vector<std::int64_t>{3, 2}),
                                                     attr("output_shape", std::vector<std::int64_t>{8, 6})},
                                                    1, &pool);
    REQUIRE(r.ok());
    REQUIRE((*r)[0].shape() == extents{1, 2, 8, 6});
    onyx::test::require_close((*r)[0], f32(y), 1e-4, 1e-5);
    // SAME_UPPER: out = in * stride, begin = total / 2
    auto ys = reference(xs, ws, 1, x, w, {}, {9, 6}, {3, 2}, {1, 1}, {0, (7 - 6) / 2});
    auto rs = onyx::test::run_op<ops::ConvTranspose>({tensor::from(f32(x), xs), tensor::from(f32(w), ws)},
                                                     {attr("strides", std::vector<std::int64_t>{3, 2}),
                                                      attr("auto_pad", std::string("SAME_UPPER"))});
    REQUIRE(rs.ok());
    REQUIRE((*rs)[0].shape() == extents{1, 2, 9, 6});
    onyx::test::require_close((*rs)[0], f32(ys), 1e-4, 1e-5);
  }
  for (auto [xs, ws] : {std::pair{extents{1, 3, 7}, extents{3, 2, 4}}, std::pair{extents{1, 2, 3, 4, 3}, extents{2, 2, 2, 3, 2}}}) {
    auto x = onyx::test::random_values<double>(static_cast<std::size_t>(element_count(xs)), -1, 1, 6);
    auto w = onyx::test::random_values<double>(static_cast<std::size_t>(element_count(ws)), -1, 1, 7);
    const std::size_t n = xs.size() - 2;
    extents out;
    for (std::size_t a = 0; a < n; ++a) out.push_back(2 * (xs[2 + a] - 1) + ws[2 + a]);
    auto y = reference(xs, ws, 1, x, w, {}, out, std::vector<std::int64_t>(n, 2), std::vector<std::int64_t>(n, 1),
                       std::vector<std::int64_t>(n, 0));
    auto r = onyx::test::run_op<ops::ConvTranspose>({tensor::from(f32(x), xs), tensor::from(f32(w), ws)},
                                                    {attr("strides", std::vector<std::int64_t>(n, 2))});
    REQUIRE(r.ok());
    onyx::test::require_close((*r)[0], f32(y), 1e-4, 1e-5);
  }
}

TEST_CASE("ConvTranspose rejects bad inputs", "[conv_transpose]") {
  auto r = onyx::test::run_op<ops::ConvTranspose>(
      {tensor::zeros(dtype::float32, {1, 3, 4, 4}), tensor::zeros(dtype::float32, {2, 2, 3, 3})});
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("channels") != std::string::npos);
}
