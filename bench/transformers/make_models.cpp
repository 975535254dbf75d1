// bench/transformers/make_models.cpp: the transformer and recurrent benchmark
// models of "CPU speed, part 2", written as PyTorch's exporter writes them.
//
//   make_transformer_models OUT_DIR [RESNET50.onnx]
//
// writes OUT_DIR/<name>/model.onnx and OUT_DIR/<name>/test_data_set_0/input_<i>.pb
// (the inputs bench/compare_ort.sh feeds both runtimes), random weights (fixed
// seed, N(0, 0.02) as BERT initializes them):
//
//   bert_l6_h384_op14     6 layers, hidden 384, 12 heads, FFN 1536, seq 128
//   bert_l12_h768_op14    12 layers, hidden 768, 12 heads, FFN 3072, seq 128
//   bert_l12_h768_op17    the same with LayerNormalization (opset 17)
//   bert_l12_h768_op23    the same with LayerNormalization and Attention (opset 23)
//   gpt2_l12_h768_past256 a GPT-2-small decoder stack, one token against a
//                         256-token key/value cache (past_* inputs, present_* outputs)
//   lstm_vad              a small voice-activity model on a 512-sample frame
//                         (STFT as a strided Conv, conv encoder, LSTM 64, sigmoid head)
//   dispatch_chain_400    400 tiny nodes (Add, Mul by constants, Relu, Neg) on a
//                         [1, 16] float tensor: latency / 400 is one runtime's
//                         cost of dispatching a node (issue 8, item 3)
//   resnet50_batch        with RESNET50.onnx given: that model with a symbolic
//                         batch (bench/transformers/scaling.sh)
//
// Faithful to torch.onnx.export (opset 14) of Hugging Face's BertModel in eval
// mode, not to what onyx fuses: LayerNorm decomposed into ReduceMean / Sub /
// Pow / ReduceMean / Add / Sqrt / Div / Mul / Add; GELU as x * 0.5 * (1 + erf(x
// / sqrt 2)) spelled Div, Erf, Add, Mul, Mul; each Linear as MatMul then
// Add(bias, product); heads split by Reshape to a shape made of Shape / Gather
// / Unsqueeze / Concat and Transpose (key straight to [0,2,3,1]); the scale as
// Div by 8; the additive mask (1 - mask) * float32-min built with Unsqueeze /
// Cast / Sub / Mul; the pooler as Gather / Gemm / Tanh. GPT-2 follows
// GPT2Model with use_cache: Conv1D as Reshape / Gemm / Reshape, Split into
// q, k, v, Concat onto the past, the causal mask as Slice of a bool buffer and
// Where, GELU in its tanh form with Pow(x, 3).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "onyx/graph/model_builder.hpp"
#include "onyx/graph/tensor_proto.hpp"

namespace {

using onyx::dtype;
using onyx::extents;
using onyx::tensor;
using onyx::graph::model_builder;
using ints = std::vector<std::int64_t>;
using str = std::string;

std::mt19937 rng(20261124);

tensor randn(extents shape, float stddev = 0.02f) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  std::normal_distribution<float> dist(0.0f, stddev);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = dist(rng);
  return tensor::from(v, shape);
}

tensor filled(extents shape, float value) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return tensor::from(std::vector<float>(static_cast<std::size_t>(n), value), shape);
}

tensor i64(const ints& v) { return tensor::from(v, {static_cast<std::int64_t>(v.size())}); }

/// A builder with the helpers every model shares.
struct exporter {
  model_builder& b;
  int count = 0;

  str name(const str& base) { return base + "_" + std::to_string(count++); }
  str weight(const str& base, const tensor& t) { return b.initializer(name(base), t); }
  str scalar(float v) { return b.constant(tensor::scalar(v)); }
  str ints_const(const ints& v) { return b.constant(i64(v)); }
  str node(const char* op, std::vector<str> in, const model_builder::attributes& a = {}) { return b.node(op, in, a); }

  /// x @ W + bias as torch exports nn.Linear on a 3-D input.
  str linear(const str& x, std::int64_t in, std::int64_t out) {
    const str w = weight("weight", randn({in, out}));
    const str bias = weight("bias", randn({out}));
    return node("Add", {bias, node("MatMul", {x, w})});
  }
  /// nn.LayerNorm over the last axis, decomposed (opset < 17) or one op.
  str layer_norm(const str& x, std::int64_t hidden, float eps, bool op17) {
    const str gamma = weight("ln_weight", filled({hidden}, 1.0f));
    const str beta = weight("ln_bias", randn({hidden}));
    if (op17) return node("LayerNormalization", {x, gamma, beta}, {{"axis", -1}, {"epsilon", eps}});
    const str mean = node("ReduceMean", {x}, {{"axes", ints{-1}}, {"keepdims", 1}});
    const str d = node("Sub", {x, mean});
    const str var = node("ReduceMean", {node("Pow", {d, scalar(2.0f)})}, {{"axes", ints{-1}}, {"keepdims", 1}});
    const str norm = node("Div", {d, node("Sqrt", {node("Add", {var, scalar(eps)})})});
    return node("Add", {node("Mul", {norm, gamma}), beta});
  }
  /// GELU, erf form: x * 0.5 * (1 + erf(x / sqrt 2)), as torch writes it.
  str gelu_erf(const str& x) {
    const str e = node("Erf", {node("Div", {x, scalar(1.4142135381698608f)})});
    return node("Mul", {node("Mul", {x, node("Add", {e, scalar(1.0f)})}), scalar(0.5f)});
  }
  /// GELU, tanh form (GPT-2's gelu_new): 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
  str gelu_tanh(const str& x) {
    const str cube = node("Mul", {scalar(0.044715f), node("Pow", {x, scalar(3.0f)})});
    const str inner = node("Mul", {scalar(0.7978845834732056f), node("Add", {x, cube})});
    return node("Mul", {node("Mul", {scalar(0.5f), x}), node("Add", {scalar(1.0f), node("Tanh", {inner})})});
  }
  /// Dim `i` of `x`'s shape as a 1-element int64 tensor (Shape, Gather, Unsqueeze).
  str dim(const str& x, std::int64_t i) {
    const str g = node("Gather", {node("Shape", {x}), b.constant(tensor::scalar<std::int64_t>(i))}, {{"axis", 0}});
    return node("Unsqueeze", {g, ints_const({0})});
  }
  /// [B, S, hidden] -> [B, heads, S, head] (perm 0,2,1,3) or [B, heads, head, S] (0,2,3,1).
  str split_heads(const str& x, std::int64_t heads, std::int64_t head, const ints& perm) {
    const str shape = node("Concat", {dim(x, 0), dim(x, 1), ints_const({heads}), ints_const({head})}, {{"axis", 0}});
    return node("Transpose", {node("Reshape", {x, shape})}, {{"perm", perm}});
  }
  /// [B, heads, S, head] -> [B, S, hidden].
  str merge_heads(const str& ctx, std::int64_t hidden) {
    const str t = node("Transpose", {ctx}, {{"perm", ints{0, 2, 1, 3}}});
    const str shape = node("Concat", {dim(t, 0), dim(t, 1), ints_const({hidden})}, {{"axis", 0}});
    return node("Reshape", {t, shape});
  }
};

struct bert_config {
  std::int64_t layers, hidden, heads, ffn, vocab = 30522, max_pos = 512;
  int opset;  // 14: decomposed LayerNorm; 17: LayerNormalization; 23: and Attention
};

void save(model_builder& b, const std::filesystem::path& dir, const std::vector<tensor>& inputs) {
  std::filesystem::create_directories(dir / "test_data_set_0");
  if (auto st = b.save(dir / "model.onnx"); !st.ok()) {
    std::fprintf(stderr, "%s\n", st.message().c_str());
    std::exit(1);
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const auto path = dir / "test_data_set_0" / ("input_" + std::to_string(i) + ".pb");
    if (auto st = onyx::graph::write_proto_file(path, onyx::graph::tensor_to_proto(inputs[i], "")); !st.ok()) {
      std::fprintf(stderr, "%s\n", st.message().c_str());
      std::exit(1);
    }
  }
  std::printf("wrote %s\n", (dir / "model.onnx").c_str());
}

/// Input ids in [1000, vocab), mask all ones but the last `pad` positions.
std::vector<tensor> bert_inputs(std::int64_t seq, std::int64_t vocab, std::int64_t pad) {
  std::uniform_int_distribution<std::int64_t> id(1000, vocab - 1);
  std::vector<std::int64_t> ids(seq), mask(seq, 1), types(seq, 0);
  for (auto& x : ids) x = id(rng);
  for (std::int64_t s = seq - pad; s < seq; ++s) mask[s] = 0, ids[s] = 0;
  for (std::int64_t s = seq / 2; s < seq; ++s) types[s] = 1;
  return {tensor::from(ids, {1, seq}), tensor::from(mask, {1, seq}), tensor::from(types, {1, seq})};
}

void make_bert(const std::filesystem::path& out, const char* name, const bert_config& c) {
  model_builder b{c.opset};
  exporter e{b};
  const std::int64_t head = c.hidden / c.heads;
  const bool ln_op = c.opset >= 17, attention_op = c.opset >= 23;
  const str ids = b.input("input_ids", dtype::int64, {"batch", "sequence"});
  const str mask = b.input("attention_mask", dtype::int64, {"batch", "sequence"});
  const str types = b.input("token_type_ids", dtype::int64, {"batch", "sequence"});

  // Embeddings: word + position (a slice of the position_ids buffer) + token type.
  std::vector<std::int64_t> pos(c.max_pos);
  for (std::int64_t i = 0; i < c.max_pos; ++i) pos[i] = i;
  const str pos_buffer = e.weight("position_ids", tensor::from(pos, {1, c.max_pos}));
  const str positions = e.node("Slice", {pos_buffer, e.ints_const({0}), e.dim(ids, 1), e.ints_const({1})});
  str x = e.node("Add", {e.node("Gather", {e.weight("word_embeddings", randn({c.vocab, c.hidden})), ids}),
                         e.node("Gather", {e.weight("token_type_embeddings", randn({2, c.hidden})), types})});
  x = e.node("Add", {x, e.node("Gather", {e.weight("position_embeddings", randn({c.max_pos, c.hidden})), positions})});
  x = e.layer_norm(x, c.hidden, 1e-12f, ln_op);

  // Extended attention mask: (1 - mask[:, None, None, :]) * float32 min.
  const str m4 = e.node("Unsqueeze", {e.node("Unsqueeze", {mask, e.ints_const({1})}), e.ints_const({2})});
  const str mf = e.node("Cast", {m4}, {{"to", dtype::float32}});
  const str additive = e.node("Mul", {e.node("Sub", {e.scalar(1.0f), mf}), e.scalar(-3.4028234663852886e38f)});

  for (std::int64_t l = 0; l < c.layers; ++l) {
    const str q = e.linear(x, c.hidden, c.hidden), k = e.linear(x, c.hidden, c.hidden),
              v = e.linear(x, c.hidden, c.hidden);
    str ctx;
    if (attention_op) {
      // The SDPA path expands the mask to [B, 1, S, S] (ORT's Attention
      // requires the query length in the mask's shape).
      const str full = e.node("Concat", {e.dim(mask, 0), e.ints_const({1}), e.dim(mask, 1), e.dim(mask, 1)}, {{"axis", 0}});
      ctx = e.node("Attention", {q, k, v, e.node("Expand", {additive, full})},
                   {{"q_num_heads", c.heads}, {"kv_num_heads", c.heads}});
    } else {
      const str qh = e.split_heads(q, c.heads, head, {0, 2, 1, 3});
      const str kt = e.split_heads(k, c.heads, head, {0, 2, 3, 1});
      const str vh = e.split_heads(v, c.heads, head, {0, 2, 1, 3});
      str scores = e.node("Div", {e.node("MatMul", {qh, kt}), e.scalar(std::sqrt(static_cast<float>(head)))});
      scores = e.node("Add", {scores, additive});
      const str probs = e.node("Softmax", {scores}, {{"axis", -1}});
      ctx = e.merge_heads(e.node("MatMul", {probs, vh}), c.hidden);
    }
    const str attn = e.linear(ctx, c.hidden, c.hidden);
    x = e.layer_norm(e.node("Add", {attn, x}), c.hidden, 1e-12f, ln_op);
    const str up = e.gelu_erf(e.linear(x, c.hidden, c.ffn));
    const str down = e.linear(up, c.ffn, c.hidden);
    x = e.layer_norm(e.node("Add", {down, x}), c.hidden, 1e-12f, ln_op);
  }
  b.output(x, dtype::float32, {"batch", "sequence", c.hidden});
  const str first = e.node("Gather", {x, b.constant(tensor::scalar<std::int64_t>(0))}, {{"axis", 1}});
  const str pooled = e.node("Tanh", {e.node("Gemm", {first, e.weight("pooler_weight", randn({c.hidden, c.hidden})),
                                                      e.weight("pooler_bias", randn({c.hidden}))},
                                             {{"transB", 1}})});
  b.output(pooled, dtype::float32, {"batch", c.hidden});
  save(b, out / name, bert_inputs(128, c.vocab, 16));
}

/// GPT-2 small's decoder stack, one new token against a cache of `past` tokens.
void make_gpt2(const std::filesystem::path& out, const char* name, std::int64_t layers, std::int64_t past) {
  const std::int64_t hidden = 768, heads = 12, head = 64, vocab = 50257, n_pos = 1024;
  model_builder b{14};
  exporter e{b};
  const str ids = b.input("input_ids", dtype::int64, {"batch", "sequence"});
  const str pos_ids = b.input("position_ids", dtype::int64, {"batch", "sequence"});
  const str mask = b.input("attention_mask", dtype::int64, {"batch", "total_sequence"});
  std::vector<str> past_k, past_v;
  for (std::int64_t l = 0; l < layers; ++l) {
    past_k.push_back(b.input("past_key_values." + std::to_string(l) + ".key", dtype::float32,
                             {"batch", heads, "past_sequence", head}));
    past_v.push_back(b.input("past_key_values." + std::to_string(l) + ".value", dtype::float32,
                             {"batch", heads, "past_sequence", head}));
  }
  str x = e.node("Add", {e.node("Gather", {e.weight("wte", randn({vocab, hidden})), ids}),
                         e.node("Gather", {e.weight("wpe", randn({n_pos, hidden})), pos_ids})});

  // The causal buffer (lower triangle of ones, bool) and the additive padding mask.
  std::vector<std::uint8_t> tri(static_cast<std::size_t>(n_pos * n_pos));
  for (std::int64_t i = 0; i < n_pos; ++i)
    for (std::int64_t j = 0; j <= i; ++j) tri[i * n_pos + j] = 1;
  const str causal = b.initializer("causal_bias", tensor::from(std::span<const bool>(reinterpret_cast<const bool*>(tri.data()), tri.size()), {1, 1, n_pos, n_pos}));
  const str m4 = e.node("Unsqueeze", {e.node("Unsqueeze", {mask, e.ints_const({1})}), e.ints_const({2})});
  const str additive = e.node(
      "Mul", {e.node("Sub", {e.scalar(1.0f), e.node("Cast", {m4}, {{"to", dtype::float32}})}), e.scalar(-3.4028234663852886e38f)});
  const str f32_min = e.scalar(-3.4028234663852886e38f);

  // Conv1D: x.view(-1, nx) @ W + b as Gemm, then the view back.
  auto conv1d = [&](const str& in, std::int64_t nx, std::int64_t nf) {
    const str flat = e.node("Reshape", {in, e.ints_const({-1, nx})});
    const str y = e.node("Gemm", {flat, e.weight("c_weight", randn({nx, nf})), e.weight("c_bias", randn({nf}))});
    const str shape = e.node("Concat", {e.dim(in, 0), e.dim(in, 1), e.ints_const({nf})}, {{"axis", 0}});
    return e.node("Reshape", {y, shape});
  };

  for (std::int64_t l = 0; l < layers; ++l) {
    const str h = e.layer_norm(x, hidden, 1e-5f, false);
    const auto qkv = b.node("Split", {conv1d(h, hidden, 3 * hidden), e.ints_const({hidden, hidden, hidden})},
                            {{"axis", 2}}, 3);
    const str q = e.split_heads(qkv[0], heads, head, {0, 2, 1, 3});
    const str k = e.node("Concat", {past_k[l], e.split_heads(qkv[1], heads, head, {0, 2, 1, 3})}, {{"axis", -2}});
    const str v = e.node("Concat", {past_v[l], e.split_heads(qkv[2], heads, head, {0, 2, 1, 3})}, {{"axis", -2}});
    b.output(k, dtype::float32, {"batch", heads, "total_sequence", head});
    b.output(v, dtype::float32, {"batch", heads, "total_sequence", head});
    str w = e.node("MatMul", {q, e.node("Transpose", {k}, {{"perm", ints{0, 1, 3, 2}}})});
    w = e.node("Div", {w, e.scalar(8.0f)});
    // causal_mask = bias[:, :, key_length - query_length : key_length, :key_length]
    const str q_len = e.dim(q, 2), k_len = e.dim(k, 2);
    const str cm = e.node("Slice", {e.node("Slice", {causal, e.node("Sub", {k_len, q_len}), k_len, e.ints_const({2})}),
                                    e.ints_const({0}), k_len, e.ints_const({3})});
    w = e.node("Where", {cm, w, f32_min});
    w = e.node("Add", {w, additive});
    const str probs = e.node("Softmax", {w}, {{"axis", -1}});
    const str ctx = e.merge_heads(e.node("MatMul", {probs, v}), hidden);
    x = e.node("Add", {conv1d(ctx, hidden, hidden), x});
    const str h2 = e.layer_norm(x, hidden, 1e-5f, false);
    x = e.node("Add", {conv1d(e.gelu_tanh(conv1d(h2, hidden, 4 * hidden)), 4 * hidden, hidden), x});
  }
  x = e.layer_norm(x, hidden, 1e-5f, false);
  b.output(x, dtype::float32, {"batch", "sequence", hidden});

  std::vector<tensor> inputs{tensor::from(ints{4242}, {1, 1}), tensor::from(ints{past}, {1, 1}),
                             tensor::from(ints(static_cast<std::size_t>(past + 1), 1), {1, past + 1})};
  for (std::int64_t l = 0; l < 2 * layers; ++l) inputs.push_back(randn({1, heads, past, head}, 1.0f));
  save(b, out / name, inputs);
}

/// A voice-activity model in the shape of Silero's: a 512-sample frame, an STFT
/// as a strided Conv, magnitude, four Conv+Relu, an LSTM carried in (h, c),
/// a 1x1 Conv and Sigmoid averaged over time.
void make_vad(const std::filesystem::path& out, const char* name) {
  model_builder b{14};
  exporter e{b};
  const std::int64_t bins = 129, hidden = 64;
  const str frame = b.input("input", dtype::float32, {1, 512});
  const str h0 = b.input("h", dtype::float32, {1, 1, hidden});
  const str c0 = b.input("c", dtype::float32, {1, 1, hidden});
  const str padded = e.node("Pad", {e.node("Unsqueeze", {frame, e.ints_const({1})}), e.ints_const({0, 0, 64, 0, 0, 64})},
                            {{"mode", "reflect"}});
  const str spec = e.node("Conv", {padded, e.weight("stft", randn({2 * bins, 1, 256}, 0.05f))},
                          {{"strides", ints{128}}});
  const str re = e.node("Slice", {spec, e.ints_const({0}), e.ints_const({bins}), e.ints_const({1})});
  const str im = e.node("Slice", {spec, e.ints_const({bins}), e.ints_const({2 * bins}), e.ints_const({1})});
  str x = e.node("Sqrt", {e.node("Add", {e.node("Mul", {re, re}), e.node("Mul", {im, im})})});
  std::int64_t in = bins;
  for (std::int64_t outc : {128, 64, 64, 64}) {
    x = e.node("Relu", {e.node("Conv", {x, e.weight("enc_w", randn({outc, in, 3}, 0.1f)), e.weight("enc_b", randn({outc}))},
                               {{"pads", ints{1, 1}}, {"kernel_shape", ints{3}}})});
    in = outc;
  }
  // [1, 64, T] -> [T, 1, 64] for the LSTM; weights in ONNX's iofc gate order.
  const str seq = e.node("Transpose", {x}, {{"perm", ints{2, 0, 1}}});
  const auto lstm = b.node("LSTM",
                           {seq, e.weight("lstm_W", randn({1, 4 * hidden, hidden}, 0.1f)),
                            e.weight("lstm_R", randn({1, 4 * hidden, hidden}, 0.1f)),
                            e.weight("lstm_B", randn({1, 8 * hidden}, 0.1f)), "", h0, c0},
                           {{"hidden_size", hidden}}, 3);
  const str y = e.node("Relu", {e.node("Squeeze", {lstm[0], e.ints_const({1})})});  // [T, 1, 64]
  const str yt = e.node("Transpose", {y}, {{"perm", ints{1, 2, 0}}});                 // [1, 64, T]
  const str logit = e.node("Conv", {yt, e.weight("dec_w", randn({1, hidden, 1}, 0.1f)), e.weight("dec_b", randn({1}))});
  const str prob = e.node("ReduceMean", {e.node("Sigmoid", {logit})}, {{"axes", ints{2}}, {"keepdims", 0}});
  b.output(prob, dtype::float32, {1, 1});
  b.output(lstm[1], dtype::float32, {1, 1, hidden});
  b.output(lstm[2], dtype::float32, {1, 1, hidden});
  std::vector<float> samples(512);
  for (int i = 0; i < 512; ++i) samples[i] = 0.3f * std::sin(0.07f * i) + 0.05f * std::sin(1.3f * i);
  save(b, out / name, {tensor::from(samples, {1, 512}), randn({1, 1, hidden}, 0.5f), randn({1, 1, hidden}, 0.5f)});
}

/// ResNet-50 (examples/models/resnet50.onnx, batch 1) with a symbolic batch
/// A chain of `n` tiny elementwise nodes, none of which a pass can fold or
/// fuse away (each Add and Mul takes a different constant; Relu and Neg in
/// between), so a run is n kernel dispatches on 16 floats.
void make_dispatch_chain(const std::filesystem::path& out, const std::string& name, int n) {
  model_builder b{14};
  str x = b.input("x", dtype::float32, {1, 16});
  for (int i = 0; i < n; ++i) {
    switch (i % 4) {
      case 0: x = b.node("Add", {x, b.initializer("a" + std::to_string(i), randn({1, 16}, 0.1f))}); break;
      case 1: x = b.node("Relu", {x}); break;
      case 2: x = b.node("Mul", {x, b.initializer("m" + std::to_string(i), randn({1, 16}, 1.0f))}); break;
      default: x = b.node("Neg", {x});
    }
  }
  b.output(x);
  save(b, out / name, {randn({1, 16}, 1.0f)});
}

/// for the batch-scaling plot: the input's and output's first dim become
/// "batch", and the Reshape before the classifier ([1, 2048]) flattens to
/// [-1, 2048].
void make_resnet50_batched(const std::filesystem::path& in, const std::filesystem::path& out) {
  onnx::ModelProto m;
  if (auto st = onyx::graph::read_proto_file(in, m); !st.ok()) {
    std::fprintf(stderr, "%s\n", st.message().c_str());
    std::exit(1);
  }
  auto* g = m.mutable_graph();
  auto batch = [](onnx::ValueInfoProto* v) {
    v->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_param("batch");
  };
  batch(g->mutable_input(0));
  batch(g->mutable_output(0));
  g->clear_value_info();
  for (const auto& n : g->node()) {
    if (n.op_type() != "Reshape") continue;
    for (auto& init : *g->mutable_initializer()) {
      if (init.name() != n.input(1) || init.data_type() != onnx::TensorProto::INT64 || init.raw_data().size() != 16)
        continue;
      std::int64_t shape[2];
      std::memcpy(shape, init.raw_data().data(), sizeof shape);
      shape[0] = -1;
      init.set_raw_data(std::string(reinterpret_cast<const char*>(shape), sizeof shape));
    }
  }
  std::filesystem::create_directories(out);
  if (auto st = onyx::graph::write_proto_file(out / "model.onnx", m); !st.ok()) {
    std::fprintf(stderr, "%s\n", st.message().c_str());
    std::exit(1);
  }
  std::printf("wrote %s\n", (out / "model.onnx").c_str());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: make_transformer_models OUT_DIR [RESNET50.onnx]\n");
    return 2;
  }
  const std::filesystem::path out = argv[1];
  if (argc == 3) make_resnet50_batched(argv[2], out / "resnet50_batch");
  make_bert(out, "bert_l6_h384_op14", {6, 384, 12, 1536, 30522, 512, 14});
  make_bert(out, "bert_l12_h768_op14", {12, 768, 12, 3072, 30522, 512, 14});
  make_bert(out, "bert_l12_h768_op17", {12, 768, 12, 3072, 30522, 512, 17});
  make_bert(out, "bert_l12_h768_op23", {12, 768, 12, 3072, 30522, 512, 23});
  make_gpt2(out, "gpt2_l12_h768_past256", 12, 256);
  make_vad(out, "lstm_vad");
  make_dispatch_chain(out, "dispatch_chain_400", 400);
  return 0;
}
