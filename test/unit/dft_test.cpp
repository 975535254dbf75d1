// DFT (forward, inverse, RFFT, IRFFT round trips, axis, dft_length padding),
// STFT against per-frame transforms, MelWeightMatrix shape and peaks; bad
// inputs. The reference transform is a plain sum of std::polar terms.
#include <catch2/catch.hpp>
#include <complex>
#include <numbers>

#include "kernels/cpu/dft.hpp"
#include "kernels/cpu/mel_weight_matrix.hpp"
#include "op_harness.hpp"

using namespace onyx;

namespace {
using cplx = std::complex<double>;
std::vector<cplx> naive_dft(const std::vector<cplx>& x, std::size_t length, bool inverse) {
  std::vector<cplx> y(length);
  for (std::size_t k = 0; k < length; ++k)
    for (std::size_t n = 0; n < std::min(length, x.size()); ++n)
      y[k] += x[n] * std::polar(1.0, (inverse ? 2 : -2) * std::numbers::pi * double(k * n) / double(length));
  if (inverse)
    for (auto& v : y) v /= double(length);
  return y;
}
}  // namespace

TEST_CASE("DFT forward and inverse along an inner axis with padding", "[misc]") {
  const int B = 2, N = 7, M = 3, L = 9;  // x [B, N, M, 2], transform axis 1 zero-padded to 9
  auto xv = test::random_values<double>(B * N * M * 2, -1, 1, 151);
  for (int inverse : {0, 1}) {
    std::vector<double> want(B * L * M * 2);
    for (int b = 0; b < B; ++b)
      for (int m = 0; m < M; ++m) {
        std::vector<cplx> line;
        for (int n = 0; n < N; ++n) line.emplace_back(xv[((b * N + n) * M + m) * 2], xv[((b * N + n) * M + m) * 2 + 1]);
        auto y = naive_dft(line, L, inverse);
        for (int k = 0; k < L; ++k) {
          want[((b * L + k) * M + m) * 2] = y[k].real();
          want[((b * L + k) * M + m) * 2 + 1] = y[k].imag();
        }
      }
    auto r = test::run_op<ops::DFT>({tensor::from(xv, {B, N, M, 2}), tensor::scalar<std::int64_t>(L),
                                     tensor::scalar<std::int64_t>(1)},
                                    {test::attr("inverse", inverse)});
    REQUIRE(r.ok());
    CHECK((*r)[0].shape() == extents{B, L, M, 2});
    test::require_close((*r)[0], want, 1e-12, 1e-12);
  }
}

TEST_CASE("RFFT then IRFFT gives the real signal back (even and odd lengths)", "[misc]") {
  for (int L : {8, 9}) {
    auto xv = test::random_values<double>(L, -1, 1, 152);
    auto f = test::run_op<ops::DFT>({tensor::from(xv, {1, L, 1})}, {test::attr("onesided", 1)});
    REQUIRE(f.ok());
    CHECK((*f)[0].shape() == extents{1, L / 2 + 1, 2});
    auto back = test::run_op<ops::DFT>({(*f)[0], tensor::scalar<std::int64_t>(L)},
                                       {test::attr("onesided", 1), test::attr("inverse", 1)});
    REQUIRE(back.ok());
    CHECK((*back)[0].shape() == extents{1, L, 1});
    test::require_close((*back)[0], xv, 1e-12, 1e-12);
  }
}

TEST_CASE("STFT equals windowed per-frame DFTs", "[misc]") {
  const int len = 20, frame = 6, step = 4, frames = (len - frame) / step + 1, bins = frame / 2 + 1;
  auto xv = test::random_values<float>(2 * len, -1, 1, 153);
  auto win = test::random_values<float>(frame, 0, 1, 154);
  std::vector<float> want;
  for (int b = 0; b < 2; ++b)
    for (int f = 0; f < frames; ++f) {
      std::vector<cplx> line;
      for (int n = 0; n < frame; ++n) line.emplace_back(double(xv[b * len + f * step + n]) * win[n], 0);
      auto y = naive_dft(line, frame, false);
      for (int k = 0; k < bins; ++k) want.push_back(float(y[k].real())), want.push_back(float(y[k].imag()));
    }
  auto r = test::run_op<ops::STFT>({tensor::from(xv, {2, len, 1}), tensor::scalar<std::int64_t>(step),
                                    tensor::from(win, {frame})});
  REQUIRE(r.ok());
  CHECK((*r)[0].shape() == extents{2, frames, bins, 2});
  test::require_close((*r)[0], want, 1e-5, 1e-5);
}

TEST_CASE("MelWeightMatrix has one unit peak per band", "[misc]") {
  auto r = test::run_op<ops::MelWeightMatrix>({tensor::scalar<std::int64_t>(8), tensor::scalar<std::int64_t>(64),
                                               tensor::scalar<std::int64_t>(8000), tensor::scalar(0.0f),
                                               tensor::scalar(4000.0f)});
  REQUIRE(r.ok());
  REQUIRE((*r)[0].shape() == extents{33, 8});
  auto w = (*r)[0].values<float>();
  for (int i = 0; i < 8; ++i) {
    float peak = 0;
    for (int j = 0; j < 33; ++j) {
      CHECK(w[j * 8 + i] >= 0);
      peak = std::max(peak, w[j * 8 + i]);
    }
    CHECK(peak == 1.0f);
  }
}

TEST_CASE("DFT and STFT reject bad inputs", "[misc]") {
  auto c = test::run_op<ops::DFT>({tensor::from(std::vector<float>(8, 0), {1, 4, 2})}, {test::attr("onesided", 1)});
  REQUIRE(!c.ok());
  CHECK(c.error().message().find("real") != std::string::npos);
  auto s = test::run_op<ops::STFT>({tensor::from(std::vector<float>(4, 0), {1, 4, 1}), tensor::scalar<std::int64_t>(1),
                                    tensor::from(std::vector<float>(6, 1), {6})});
  REQUIRE(!s.ok());
  CHECK(s.error().message().find("frame_length") != std::string::npos);
}
