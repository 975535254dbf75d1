# Per-ISA micro-kernel translation units. Each file kernels/cpu/isa/*_<isa>.cpp
# is compiled with that ISA's flags; everything else stays at the baseline.
# Their symbols live in per-ISA namespaces so nothing leaks into baseline code.
file(GLOB ONYX_ISA_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/cpu/isa/*.cpp)
target_sources(onyx_isa PRIVATE ${ONYX_ISA_SOURCES})
foreach(src IN LISTS ONYX_ISA_SOURCES)
  if(src MATCHES "_avx512\\.cpp$")
    set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "-mavx512f;-mavx512dq;-mavx512bw;-mavx512vl;-mavx2;-mfma")
  elseif(src MATCHES "_avx2\\.cpp$")
    set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "-mavx2;-mfma")
  elseif(src MATCHES "_sse\\.cpp$")
    set_source_files_properties(${src} PROPERTIES COMPILE_OPTIONS "-msse4.1")
  endif()
endforeach()
