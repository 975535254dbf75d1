# Per-ISA micro-kernel translation units. Each file kernels/cpu/isa/*_<isa>.cpp
# is compiled with that ISA's flags; everything else stays at the baseline.
# Their symbols live in per-ISA namespaces so nothing leaks into baseline code.
# The levels are those of the target processor (dispatch.cpp picks among the
# same ones): x86-64 scalar, sse, avx2, avx512; aarch64 scalar, neon (Advanced
# SIMD is part of the base AArch64 ISA, so it takes no flags); others scalar.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64|i[3-6]86)$")
  set(ONYX_ISA_LEVELS scalar sse avx2 avx512)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  set(ONYX_ISA_LEVELS scalar neon)
else()
  set(ONYX_ISA_LEVELS scalar)
endif()
file(GLOB ONYX_ISA_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/cpu/isa/*.cpp)
foreach(src IN LISTS ONYX_ISA_SOURCES)
  if(src MATCHES "_(scalar|sse|avx2|avx512|neon)(vnni|vbmi)?\\.cpp$" AND NOT CMAKE_MATCH_1 IN_LIST ONYX_ISA_LEVELS)
    continue()  # another processor's level
  endif()
  target_sources(onyx_isa PRIVATE ${src})
  if(src MATCHES "_avx512vnni\\.cpp$")  # chosen at run time only where CPUID reports AVX512_VNNI
    set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "-mavx512f;-mavx512dq;-mavx512bw;-mavx512vl;-mavx512vnni;-mavx2;-mfma")
  elseif(src MATCHES "_avx2vnni\\.cpp$")  # chosen at run time only where CPUID reports AVX-VNNI
    set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "-mavx2;-mfma;-mavxvnni")
  elseif(src MATCHES "_avx512vbmi\\.cpp$")  # chosen at run time only where CPUID reports AVX512_VBMI
    set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "-mavx512f;-mavx512bw;-mavx512vbmi")
  elseif(src MATCHES "_avx512\\.cpp$")
    set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "-mavx512f;-mavx512dq;-mavx512bw;-mavx512vl;-mavx2;-mfma")
  elseif(src MATCHES "_avx2\\.cpp$")
    set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "-mavx2;-mfma")
  elseif(src MATCHES "_sse\\.cpp$")
    set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "-msse4.1")
  endif()
endforeach()
