// kernels/cpu/recurrent.hpp: RNN, GRU and LSTM (7+) on the CPU.
//
// One driver serves the three cells. Per direction, the input projections of
// every step are one SGEMM, XW = X W^T ([S*B, G*H]); each step then adds
// H_{t-1} R^T (one SGEMM over the batch) and evaluates the gates per batch
// entry. With sequence_lens, entry b runs its own L_b steps (a reverse pass
// starts at L_b - 1), stops updating afterwards, and leaves zeros in Y.
// Everything is computed in float32; float16 is widened once on entry and
// narrowed once on exit, so one instantiation serves both. Prepare parses the
// attributes once and packs constant W^T and R^T per direction, so neither
// SGEMM packs weights per run; an LSTM with the default activations (no
// clip, peepholes or coupled gate) evaluates each step's gates as whole rows
// through the ISA logistic and tanh kernels.
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include "kernels/cpu/isa/isa.hpp"
#include "kernels/cpu/sgemm.hpp"
#include "onyx/core/float_convert.hpp"
#include "onyx/ops/gru.hpp"
#include "onyx/ops/lstm.hpp"
#include "onyx/ops/rnn.hpp"
#include "onyx/registry/kernel.hpp"

namespace onyx::kernels::cpu::recurrent_detail {

struct activation {
  enum class fn { relu, tanh, sigmoid, affine, leaky_relu, thresholded_relu, scaled_tanh, hard_sigmoid, elu,
                  softsign, softplus };
  fn f = fn::tanh;
  float alpha = 0, beta = 0;
  float operator()(float x) const {
    switch (f) {
      case fn::relu: return x > 0 ? x : 0.0f;
      case fn::tanh: return std::tanh(x);
      case fn::sigmoid: return 1.0f / (1.0f + std::exp(-x));
      case fn::affine: return alpha * x + beta;
      case fn::leaky_relu: return x >= 0 ? x : alpha * x;
      case fn::thresholded_relu: return x > alpha ? x : 0.0f;
      case fn::scaled_tanh: return alpha * std::tanh(beta * x);
      case fn::hard_sigmoid: return std::clamp(alpha * x + beta, 0.0f, 1.0f);
      case fn::elu: return x >= 0 ? x : alpha * (std::exp(x) - 1.0f);
      case fn::softsign: return x / (1.0f + std::abs(x));
      case fn::softplus: return std::log1p(std::exp(x));
    }
    return x;
  }
};

/// Parses the activation list: `per_dir` functions per direction (a list of
/// only `per_dir` names serves both directions); alpha and beta are consumed
/// in list order by the functions that take them, defaults otherwise.
inline result<std::vector<activation>> parse_activations(const std::vector<std::string>& names,
                                                         const std::vector<float>& alphas,
                                                         const std::vector<float>& betas, int per_dir, int dirs) {
  if (names.size() != static_cast<std::size_t>(per_dir) && names.size() != static_cast<std::size_t>(per_dir * dirs))
    return status(errc::invalid_argument, "expected " + std::to_string(per_dir * dirs) + " activations, got " +
                                              std::to_string(names.size()));
  std::vector<activation> out;
  std::size_t ai = 0, bi = 0;
  for (const auto& n : names) {
    std::string l;
    for (char ch : n) l += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    using F = activation::fn;
    struct entry {
      const char* name;
      F f;
      int params;  // 0 none, 1 alpha, 2 alpha and beta
      float alpha, beta;
    };
    static constexpr entry table[] = {{"relu", F::relu, 0, 0, 0},
                                      {"tanh", F::tanh, 0, 0, 0},
                                      {"sigmoid", F::sigmoid, 0, 0, 0},
                                      {"affine", F::affine, 2, 1.0f, 0.0f},
                                      {"leakyrelu", F::leaky_relu, 1, 0.01f, 0},
                                      {"thresholdedrelu", F::thresholded_relu, 1, 1.0f, 0},
                                      {"scaledtanh", F::scaled_tanh, 2, 1.0f, 1.0f},
                                      {"hardsigmoid", F::hard_sigmoid, 2, 0.2f, 0.5f},
                                      {"elu", F::elu, 1, 1.0f, 0},
                                      {"softsign", F::softsign, 0, 0, 0},
                                      {"softplus", F::softplus, 0, 0, 0}};
    const entry* e = nullptr;
    for (const auto& t : table)
      if (l == t.name) e = &t;
    if (!e) return status(errc::unsupported, "unknown recurrent activation '" + n + "'");
    activation a{e->f, e->alpha, e->beta};
    if (e->params >= 1 && ai < alphas.size()) a.alpha = alphas[ai++];
    if (e->params >= 2 && bi < betas.size()) a.beta = betas[bi++];
    out.push_back(a);
  }
  if (out.size() == static_cast<std::size_t>(per_dir))
    for (int d = 1; d < dirs; ++d)
      for (int i = 0; i < per_dir; ++i) out.push_back(out[static_cast<std::size_t>(i)]);
  return out;
}

enum class cell { rnn, gru, lstm };

struct config {
  cell kind = cell::rnn;
  std::string direction;
  std::int64_t layout = 0;
  std::optional<std::int64_t> hidden_size;
  std::optional<float> clip;
  std::vector<activation> acts;  // per direction: acts[d * per_dir + i]
  bool linear_before_reset = false, input_forget = false;
};

/// A float32 copy of `t` (float32 or float16).
inline std::vector<float> as_floats(const tensor& t) {
  std::vector<float> v(static_cast<std::size_t>(t.size()));
  onyx::widen(t, std::span<float>(v));
  return v;
}

/// What prepare keeps: the parsed attributes, and per direction W^T and R^T
/// packed for the SGEMM when W and R are constants (empty otherwise).
struct prepared {
  config cfg;
  std::vector<packed_b> w, r;
};

/// Whether direction d's LSTM gates are the defaults (sigmoid, tanh, tanh)
/// with no clip, peepholes or coupled forget gate: then each step's gates run
/// as whole rows through the ISA logistic and tanh kernels.
inline bool plain_lstm(const config& cfg, const activation* act, bool peepholes) {
  using F = activation::fn;
  return cfg.kind == cell::lstm && !cfg.clip && !peepholes && !cfg.input_forget && act[0].f == F::sigmoid &&
         act[1].f == F::tanh && act[2].f == F::tanh;
}

/// Inputs: X, W, R, B, sequence_lens, initial_h, [initial_c, P]; outputs
/// Y, Y_h, [Y_c].
inline status run(const kernel_call& c, const prepared& prep) {
  const config& cfg = prep.cfg;
  const int G = cfg.kind == cell::rnn ? 1 : cfg.kind == cell::gru ? 3 : 4;
  const int per_dir = cfg.kind == cell::rnn ? 1 : cfg.kind == cell::gru ? 2 : 3;
  const int dirs = cfg.direction == "bidirectional" ? 2 : 1;
  const bool reverse_only = cfg.direction == "reverse";
  const tensor &x = c.input(0), &w = c.input(1), &r = c.input(2);
  const std::int64_t S = cfg.layout ? x.dim(1) : x.dim(0), Bn = cfg.layout ? x.dim(0) : x.dim(1), I = x.dim(2);
  const std::int64_t H = cfg.hidden_size ? *cfg.hidden_size : r.dim(2), GH = G * H;
  auto bad = [&](const std::string& what) { return status(errc::invalid_argument, what); };
  if (w.dim(0) != dirs || w.dim(1) != GH || w.dim(2) != I)
    return bad("W " + to_string(w.shape()) + " must be [" + std::to_string(dirs) + "," + std::to_string(GH) + "," +
               std::to_string(I) + "]");
  if (r.rank() != 3 || r.dim(0) != dirs || r.dim(1) != GH || r.dim(2) != H)
    return bad("R " + to_string(r.shape()) + " must be [" + std::to_string(dirs) + "," + std::to_string(GH) + "," +
               std::to_string(H) + "]");
  auto optional_input = [&](int i) -> const tensor* { return c.has_input(i) ? &c.input(i) : nullptr; };
  const tensor* bias = optional_input(3);
  const tensor* lens = optional_input(4);
  const tensor* h0 = optional_input(5);
  const tensor* c0 = cfg.kind == cell::lstm ? optional_input(6) : nullptr;
  const tensor* peep = cfg.kind == cell::lstm ? optional_input(7) : nullptr;
  if (bias && bias->size() != dirs * 2 * GH) return bad("B " + to_string(bias->shape()) + " must hold 2*G*H per direction");
  if (lens && lens->size() != Bn) return bad("sequence_lens must have " + std::to_string(Bn) + " values");
  for (const tensor* s : {h0, c0})
    if (s && s->size() != dirs * Bn * H) return bad("initial state " + to_string(s->shape()) + " has the wrong size");
  if (peep && peep->size() != dirs * 3 * H) return bad("P " + to_string(peep->shape()) + " must be [dirs, 3*H]");
  std::vector<std::int64_t> len(static_cast<std::size_t>(Bn), S);
  if (lens)
    for (std::int64_t b = 0; b < Bn; ++b) {
      const std::int32_t l = lens->data<std::int32_t>()[b];
      if (l < 0 || l > S)
        return status(errc::out_of_range, "sequence_lens[" + std::to_string(b) + "] = " + std::to_string(l) +
                                              " is outside [0, " + std::to_string(S) + "]");
      len[static_cast<std::size_t>(b)] = l;
    }

  // W and R packed at prepare (when constant and of this run's sizes), else widened now.
  const bool packed = prep.w.size() == static_cast<std::size_t>(dirs) && prep.w[0].rows() == I &&
                      prep.w[0].cols() == GH && prep.r[0].rows() == H && prep.w[0].isa() == isa::active().isa;
  std::vector<float> xcopy = x.type() == dtype::float32 ? std::vector<float>{} : as_floats(x);
  const float* xf = xcopy.empty() ? x.data<float>() : xcopy.data();
  const auto wf = packed ? std::vector<float>{} : as_floats(w), rf = packed ? std::vector<float>{} : as_floats(r);
  const auto bf = bias ? as_floats(*bias) : std::vector<float>(static_cast<std::size_t>(dirs * 2 * GH), 0.0f);
  const auto pf = peep ? as_floats(*peep) : std::vector<float>(static_cast<std::size_t>(dirs * 3 * H), 0.0f);
  auto state0 = [&](const tensor* s) {
    std::vector<float> v(static_cast<std::size_t>(dirs * Bn * H), 0.0f);
    if (!s) return v;
    auto raw = as_floats(*s);
    for (int d = 0; d < dirs; ++d)
      for (std::int64_t b = 0; b < Bn; ++b)  // layout 1 stores [B, dirs, H]
        std::copy_n(raw.data() + (cfg.layout ? (b * dirs + d) : (d * Bn + b)) * H, H, v.data() + (d * Bn + b) * H);
    return v;
  };
  std::vector<float> hs = state0(h0), cs = state0(c0);
  std::vector<float> y(c.has_output(0) ? static_cast<std::size_t>(S * dirs * Bn * H) : 0, 0.0f);
  auto y_at = [&](std::int64_t t, int d, std::int64_t b) {
    return y.data() + (cfg.layout ? ((b * S + t) * dirs + d) : ((t * dirs + d) * Bn + b)) * H;
  };
  auto clip = [&](float v) { return cfg.clip ? std::clamp(v, -*cfg.clip, *cfg.clip) : v; };

  std::vector<float> xw(static_cast<std::size_t>(S * Bn * GH)), hr(static_cast<std::size_t>(Bn * GH)),
      rh(static_cast<std::size_t>(Bn * H)), hrh(static_cast<std::size_t>(Bn * H)),
      gates(cfg.kind == cell::lstm ? static_cast<std::size_t>(GH + H) : 0);
  const isa::table& fns = isa::active();
  for (int d = 0; d < dirs; ++d) {
    const bool reverse = reverse_only || d == 1;
    const float* W = packed ? nullptr : wf.data() + d * GH * I;
    const float* R = packed ? nullptr : rf.data() + d * GH * H;
    const float* Wb = bf.data() + d * 2 * GH;
    const float* Rb = Wb + GH;
    const float* P = pf.data() + d * 3 * H;
    const activation* act = cfg.acts.data() + d * per_dir;
    float* h = hs.data() + d * Bn * H;
    float* cst = cs.data() + d * Bn * H;
    // XW rows follow X's layout: row (t, b) is t * B + b, or b * S + t.
    const bool plain = plain_lstm(cfg, act, peep != nullptr);
    if (packed)
      sgemm_packed(false, S * Bn, GH, I, 1.0f, xf, I, prep.w[d], 0.0f, xw.data(), GH, c.pool());
    else
      sgemm(false, true, S * Bn, GH, I, 1.0f, xf, I, W, I, 0.0f, xw.data(), GH, c.pool());
    for (std::int64_t k = 0; k < S; ++k) {
      if (packed)
        sgemm_packed(false, Bn, GH, H, 1.0f, h, H, prep.r[d], 0.0f, hr.data(), GH, c.pool());
      else
        sgemm(false, true, Bn, GH, H, 1.0f, h, H, R, H, 0.0f, hr.data(), GH, c.pool());
      if (cfg.kind == cell::gru && !cfg.linear_before_reset) {
        // (r . H) Rh^T needs r first: gates z, r of every entry, then one GEMM.
        for (std::int64_t b = 0; b < Bn; ++b) {
          const std::int64_t L = len[static_cast<std::size_t>(b)];
          if (k >= L) continue;
          const std::int64_t t = reverse ? L - 1 - k : k;
          const float* g = xw.data() + (cfg.layout ? b * S + t : t * Bn + b) * GH;
          for (std::int64_t j = 0; j < H; ++j) {
            const float rg = act[0](clip(g[H + j] + hr[b * GH + H + j] + Wb[H + j] + Rb[H + j]));
            rh[b * H + j] = rg * h[b * H + j];
          }
        }
        // R's candidate rows are read as stored (rf), also when W and R are packed.
        const float* Rc = packed ? r.data<float>() + d * GH * H : R;
        std::vector<float> rc;
        if (packed && r.type() != dtype::float32) {
          rc = as_floats(r);
          Rc = rc.data() + d * GH * H;
        }
        sgemm(false, true, Bn, H, H, 1.0f, rh.data(), H, Rc + 2 * H * H, H, 0.0f, hrh.data(), H, c.pool());
      }
      for (std::int64_t b = 0; b < Bn; ++b) {
        const std::int64_t L = len[static_cast<std::size_t>(b)];
        if (k >= L) continue;
        const std::int64_t t = reverse ? L - 1 - k : k;
        const float* g = xw.data() + (cfg.layout ? b * S + t : t * Bn + b) * GH;
        const float* q = hr.data() + b * GH;
        float* hb = h + b * H;
        float* cb = cst + b * H;
        if (plain) {  // gates i, o, f (sigmoid) then c (tanh): whole rows
          float* z = gates.data();
          for (std::int64_t j = 0; j < GH; ++j) z[j] = g[j] + q[j] + Wb[j] + Rb[j];
          fns.f32_logistic(z, z, 3 * H);
          fns.f32_tanh(z + 3 * H, z + 3 * H, H);
          for (std::int64_t j = 0; j < H; ++j) cb[j] = z[2 * H + j] * cb[j] + z[j] * z[3 * H + j];
          float* tc = z + GH;
          fns.f32_tanh(cb, tc, H);
          for (std::int64_t j = 0; j < H; ++j) hb[j] = z[H + j] * tc[j];
          if (!y.empty()) std::copy_n(hb, H, y_at(t, d, b));
          continue;
        }
        for (std::int64_t j = 0; j < H; ++j) {
          auto pre = [&](int gate) { return g[gate * H + j] + q[gate * H + j] + Wb[gate * H + j] + Rb[gate * H + j]; };
          if (cfg.kind == cell::rnn) {
            hb[j] = act[0](clip(pre(0)));
          } else if (cfg.kind == cell::gru) {
            const float z = act[0](clip(pre(0)));
            const float rg = act[0](clip(pre(1)));
            const float hh = cfg.linear_before_reset
                                 ? act[1](clip(g[2 * H + j] + Wb[2 * H + j] + rg * (q[2 * H + j] + Rb[2 * H + j])))
                                 : act[1](clip(g[2 * H + j] + Wb[2 * H + j] + hrh[b * H + j] + Rb[2 * H + j]));
            hb[j] = (1.0f - z) * hh + z * hb[j];
          } else {
            const float cprev = cb[j];
            const float i = act[0](clip(pre(0) + P[j] * cprev));
            const float f = cfg.input_forget ? 1.0f - i : act[0](clip(pre(2) + P[2 * H + j] * cprev));
            const float cc = act[1](clip(pre(3)));
            const float cn = f * cprev + i * cc;
            const float o = act[0](clip(pre(1) + P[H + j] * cn));
            cb[j] = cn;
            hb[j] = o * act[2](cn);
          }
        }
        if (!y.empty()) std::copy_n(hb, H, y_at(t, d, b));
      }
    }
  }
  if (c.has_output(0)) onyx::narrow(std::span<const float>(y), c.output(0));
  auto write_state = [&](int i, const std::vector<float>& s) {
    if (!c.has_output(i)) return;
    std::vector<float> v(s.size());
    for (int d = 0; d < dirs; ++d)
      for (std::int64_t b = 0; b < Bn; ++b)
        std::copy_n(s.data() + (d * Bn + b) * H, H, v.data() + (cfg.layout ? (b * dirs + d) : (d * Bn + b)) * H);
    onyx::narrow(std::span<const float>(v), c.output(i));
  };
  write_state(1, hs);
  if (cfg.kind == cell::lstm) write_state(2, cs);
  return ok();
}

template <class Attrs> result<config> make_config(const Attrs& a, cell kind, int per_dir) {
  config cfg;
  cfg.kind = kind;
  cfg.direction = a.direction;
  cfg.layout = a.layout;
  cfg.hidden_size = a.hidden_size;
  cfg.clip = a.clip;
  ONYX_ASSIGN(int dirs, ops::detail::recurrent_directions(a.direction));
  ONYX_ASSIGN(cfg.acts, parse_activations(a.activations, a.activation_alpha, a.activation_beta, per_dir, dirs));
  return cfg;
}


/// The config, and W^T and R^T packed per direction when both are constant.
template <class Attrs>
result<prepared> prepare_cell(const prepare_info_base& p, const Attrs& a, cell kind, int per_dir) {
  prepared s;
  ONYX_ASSIGN(s.cfg, make_config(a, kind, per_dir));
  const tensor* w = p.constant(1);
  const tensor* r = p.constant(2);
  if (!w || !r || w->rank() != 3 || r->rank() != 3 || w->dim(0) != r->dim(0) || w->dim(1) != r->dim(1)) return s;
  const auto wf = as_floats(*w), rf = as_floats(*r);
  const std::int64_t GH = w->dim(1), I = w->dim(2), H = r->dim(2);
  for (std::int64_t d = 0; d < w->dim(0); ++d) {
    s.w.push_back(pack_b(true, I, GH, wf.data() + d * GH * I, I));
    s.r.push_back(pack_b(true, H, GH, rf.data() + d * GH * H, H));
  }
  return s;
}

}  // namespace onyx::kernels::cpu::recurrent_detail

namespace onyx {

template <> struct kernel<ops::RNN, cpu> {
  static constexpr std::array types{dtypes::f32 | dtypes::f16};
  using state = kernels::cpu::recurrent_detail::prepared;
  template <ops::signature S> static result<state> prepare(const prepare_info<ops::RNN>& p) {
    namespace rd = kernels::cpu::recurrent_detail;
    ONYX_ASSIGN(state st, rd::prepare_cell(p, p.attrs(), rd::cell::rnn, 1));
    return st;
  }
  template <ops::signature S> static status run(const call<ops::RNN>& c) {
    return kernels::cpu::recurrent_detail::run(c, c.state<state>());
  }
};

template <> struct kernel<ops::GRU, cpu> {
  static constexpr std::array types{dtypes::f32 | dtypes::f16};
  using state = kernels::cpu::recurrent_detail::prepared;
  template <ops::signature S> static result<state> prepare(const prepare_info<ops::GRU>& p) {
    namespace rd = kernels::cpu::recurrent_detail;
    ONYX_ASSIGN(state st, rd::prepare_cell(p, p.attrs(), rd::cell::gru, 2));
    st.cfg.linear_before_reset = p.attrs().linear_before_reset != 0;
    return st;
  }
  template <ops::signature S> static status run(const call<ops::GRU>& c) {
    return kernels::cpu::recurrent_detail::run(c, c.state<state>());
  }
};

template <> struct kernel<ops::LSTM, cpu> {
  static constexpr std::array types{dtypes::f32 | dtypes::f16};
  using state = kernels::cpu::recurrent_detail::prepared;
  template <ops::signature S> static result<state> prepare(const prepare_info<ops::LSTM>& p) {
    namespace rd = kernels::cpu::recurrent_detail;
    ONYX_ASSIGN(state st, rd::prepare_cell(p, p.attrs(), rd::cell::lstm, 3));
    st.cfg.input_forget = p.attrs().input_forget != 0;
    return st;
  }
  template <ops::signature S> static status run(const call<ops::LSTM>& c) {
    return kernels::cpu::recurrent_detail::run(c, c.state<state>());
  }
};

}  // namespace onyx
