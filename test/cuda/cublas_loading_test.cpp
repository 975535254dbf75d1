// test/cuda/cublas_loading_test.cpp: cuBLAS is loaded when the CUDA backend
// first needs it, never at program start (kernels/cuda/runtime.cu). Needs no
// GPU: it runs wherever the backend is built (ctest cuda.loading).
//
// A program linked with onyx_cuda that runs on the CPU must not map
// libcublas (0.5 GB, ~60 MiB of it touched by the dynamic linker); the first
// load must find every entry point the backend calls.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "../unit/temp_path.hpp"
#include "kernels/cuda/launch.hpp"
#include "onyx/graph/loader.hpp"
#include "onyx/graph/model_builder.hpp"
#include "onyx/session.hpp"

namespace {

bool mapped(const std::string& library) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find(library) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("cuBLAS is mapped at its first use, not at program start") {
  using namespace onyx;
  // A CPU run of a CUDA-enabled program (onyx::session in a binary that links onyx_cuda).
  graph::model_builder b{17};
  auto x = b.input("x", dtype::float32, {2, 3});
  b.output(b.node("Relu", {x}));
  auto path = test::temp_path("onyx_cublas_loading.onnx");
  REQUIRE(b.save(path).ok());
  session s(path, {.threads = 1});
  auto y = s.run({{"x", tensor::from(std::vector<float>{-1, 2, -3, 4, -5, 6}, {2, 3})}});
  CHECK(y[0].as_tensor().data<float>()[1] == 2.0f);
  CHECK_FALSE(mapped("libcublas"));

  const status loaded = kernels::cuda::load_cublas();
  INFO(loaded.message());
  REQUIRE(loaded.ok());  // the library is there and has every entry point the backend calls
  CHECK(mapped("libcublas"));
  CHECK(kernels::cuda::load_cublas().ok());  // once: a second call finds it loaded
}
