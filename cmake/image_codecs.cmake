# cmake/image_codecs.cmake: the optional ImageDecoder component.
#
# ONYX_IMAGE_DECODER (default: ON where libjpeg, libpng, libopenjp2, libtiff
# and libwebp with their headers are found, OFF in cross builds) builds
# kernels/cpu/image_codecs.cpp into onyx_image_codecs, the only target that
# links those libraries, and defines the macro ONYX_IMAGE_DECODER for every
# onyx target (through onyx_headers), which puts the manifest's image group
# (ops::ImageDecoder) into all_ops. OFF: no codec library is searched for or
# linked, the group's op_list is empty and the op is reported as unsupported.
# The codec libraries are linked --as-needed, so a program that never
# instantiates ImageDecoder's kernel (a trimmed build) does not depend on them.
set(onyx_image_found TRUE)
foreach(lib jpeg png16 openjp2 tiff webp)
  find_library(ONYX_IMAGE_LIB_${lib} ${lib})
  if(NOT ONYX_IMAGE_LIB_${lib})
    set(onyx_image_found FALSE)
  endif()
endforeach()
find_path(ONYX_OPENJPEG_INCLUDE openjpeg.h PATH_SUFFIXES openjpeg-2.5 openjpeg-2.4 openjpeg-2.3)
foreach(header jpeglib.h png.h tiffio.h webp/decode.h)
  string(MAKE_C_IDENTIFIER ${header} id)
  find_path(ONYX_IMAGE_INCLUDE_${id} ${header})
  if(NOT ONYX_IMAGE_INCLUDE_${id})
    set(onyx_image_found FALSE)
  endif()
endforeach()
if(NOT ONYX_OPENJPEG_INCLUDE)
  set(onyx_image_found FALSE)
endif()
set(onyx_image_default ${onyx_image_found})
if(CMAKE_CROSSCOMPILING)
  set(onyx_image_default OFF)
endif()
option(ONYX_IMAGE_DECODER "ImageDecoder: decode BMP, JPEG, JPEG 2000, PNG, PNM, TIFF and WebP (needs libjpeg-dev, \
libpng-dev, libopenjp2-7-dev, libtiff-dev, libwebp-dev)" ${onyx_image_default})
if(ONYX_IMAGE_DECODER AND NOT onyx_image_found)
  message(FATAL_ERROR "ONYX_IMAGE_DECODER needs libjpeg, libpng, libopenjp2, libtiff and libwebp with their headers: "
                      "install the Debian packages libjpeg-dev libpng-dev libopenjp2-7-dev libtiff-dev libwebp-dev "
                      "(tools/install-deps.sh does), or configure with -DONYX_IMAGE_DECODER=OFF")
endif()
if(ONYX_IMAGE_DECODER)
  add_library(onyx_image_codecs STATIC kernels/cpu/image_codecs.cpp)
  target_include_directories(onyx_image_codecs PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include
                                                       ${ONYX_OPENJPEG_INCLUDE})
  target_link_libraries(onyx_image_codecs PRIVATE "-Wl,--push-state,--as-needed" jpeg png16 openjp2 tiff webp
                                                  "-Wl,--pop-state")
  set_target_properties(onyx_image_codecs PROPERTIES POSITION_INDEPENDENT_CODE ON EXPORT_NAME image_codecs)
  target_link_libraries(onyx_headers INTERFACE onyx_image_codecs)
  target_compile_definitions(onyx_headers INTERFACE ONYX_IMAGE_DECODER=1)
  message(STATUS "onyx: ImageDecoder on (ONYX_IMAGE_DECODER)")
else()
  message(STATUS "onyx: ImageDecoder off (ONYX_IMAGE_DECODER=OFF): the op is not registered")
endif()
