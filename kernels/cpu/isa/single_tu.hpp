// kernels/cpu/isa/single_tu.hpp: the micro-kernel layer compiled into the
// one translation unit that includes it, for header-only programs built
// with a single compiler command and no prebuilt library:
//
//   g++ -std=c++20 -O2 -march=native -I PREFIX/include app.cpp -pthread
//
// where app.cpp includes this header once. The prebuilt onyx_isa compiles
// each ISA level in its own TU with its own flags and picks one by CPUID;
// a single TU has one set of flags, so it holds scalar and the highest level
// those flags enable (-march decides), and dispatch never picks another.
// The program then runs only on CPUs with the flags it was built for, as
// any program built with -march does. examples/04_header_only.cpp uses it.
#pragma once

#define ONYX_ISA_SINGLE_TU 1
#if defined(__x86_64__) && defined(__AVX512F__) && defined(__AVX512DQ__) && defined(__AVX512BW__) && \
    defined(__AVX512VL__) && defined(__FMA__)
#define ONYX_ISA_HAS_AVX512 1
#include "kernels/cpu/isa/f32_kernels_avx512.cpp"
#include "kernels/cpu/isa/q8_kernels_avx2.cpp"
#define ONYX_ISA_HAS_Q8_AVX2 1
#if defined(__AVX512VBMI__)
#define ONYX_ISA_HAS_AVX512VBMI 1
#include "kernels/cpu/isa/q8_kernels_avx512vbmi.cpp"
#endif
#if defined(__AVX512VNNI__)
#define ONYX_ISA_HAS_AVX512VNNI 1
#include "kernels/cpu/isa/q8_kernels_avx512vnni.cpp"
#endif
#if defined(__AVXVNNI__)
#define ONYX_ISA_HAS_AVX2VNNI 1
#include "kernels/cpu/isa/q8_kernels_avx2vnni.cpp"
#endif
#elif defined(__x86_64__) && defined(__AVX2__) && defined(__FMA__)
#define ONYX_ISA_HAS_AVX2 1
#include "kernels/cpu/isa/f32_kernels_avx2.cpp"
#include "kernels/cpu/isa/q8_kernels_avx2.cpp"
#define ONYX_ISA_HAS_Q8_AVX2 1
#if defined(__AVXVNNI__)
#define ONYX_ISA_HAS_AVX2VNNI 1
#include "kernels/cpu/isa/q8_kernels_avx2vnni.cpp"
#endif
#elif defined(__x86_64__) && defined(__SSE4_1__)
#define ONYX_ISA_HAS_SSE 1
#include "kernels/cpu/isa/f32_kernels_sse.cpp"
#elif defined(__aarch64__)
#define ONYX_ISA_HAS_NEON 1
#include "kernels/cpu/isa/f32_kernels_neon.cpp"
#endif
#ifndef ONYX_ISA_HAS_SSE
#define ONYX_ISA_HAS_SSE 0
#endif
#ifndef ONYX_ISA_HAS_AVX2
#define ONYX_ISA_HAS_AVX2 0
#endif
#ifndef ONYX_ISA_HAS_AVX512
#define ONYX_ISA_HAS_AVX512 0
#endif
#ifndef ONYX_ISA_HAS_NEON
#define ONYX_ISA_HAS_NEON 0
#endif
#ifndef ONYX_ISA_HAS_AVX512VNNI
#define ONYX_ISA_HAS_AVX512VNNI 0
#endif
#ifndef ONYX_ISA_HAS_AVX512VBMI
#define ONYX_ISA_HAS_AVX512VBMI 0
#endif
#ifndef ONYX_ISA_HAS_Q8_AVX2
#define ONYX_ISA_HAS_Q8_AVX2 0
#endif
#ifndef ONYX_ISA_HAS_AVX2VNNI
#define ONYX_ISA_HAS_AVX2VNNI 0
#endif
#include "kernels/cpu/isa/f32_kernels_scalar.cpp"
#include "kernels/cpu/isa/q8_kernels_scalar.cpp"
#include "kernels/cpu/isa/dispatch.cpp"
#include "kernels/cpu/isa/gemm.cpp"
#include "kernels/cpu/isa/qgemm.cpp"
