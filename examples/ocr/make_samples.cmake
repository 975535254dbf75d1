# examples/ocr/make_samples.cmake: the sample images onyx-ocr and the ocr.*
# tests read, rendered with ImageMagick from Debian fonts.
#
#   cmake -DCONVERT=/usr/bin/convert -DOUT_DIR=<dir> -P make_samples.cmake
#
# The texts here are what the ocr.read.* tests expect (ocr_test.cpp), so the
# two lists change together. Text is 48 points: at 32 to 36 the recognizer
# drops spaces between English words and the direction classifier misreads
# some long lines, as PaddleOCR's Chinese models are known to on small Latin
# text; "PP-OCR" is read "PP-OcR" at every size tried.
cmake_minimum_required(VERSION 3.25)
set(latin /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf)
set(cjk /usr/share/fonts/truetype/wqy/wqy-zenhei.ttc)
foreach(font IN ITEMS "${latin}" "${cjk}")
  if(NOT EXISTS "${font}")
    message(FATAL_ERROR "make_samples.cmake: no font ${font} (tools/install-deps.sh installs it)")
  endif()
endforeach()
file(MAKE_DIRECTORY "${OUT_DIR}")

# render(NAME FONT SIZE TEXT [extra convert arguments applied after drawing])
function(render name font size text)
  execute_process(
    COMMAND "${CONVERT}" -size ${size} xc:white -font "${font}" -pointsize 48 -fill black
            -gravity center -annotate +0+0 "${text}" -background white ${ARGN} -strip "${OUT_DIR}/${name}.png"
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "make_samples.cmake: ${CONVERT} failed on ${name}.png: ${err}")
  endif()
endfunction()

render(line "${latin}" 960x130 "Reading text from an image with onyx")
render(paragraph "${latin}" 1200x400
       "The quick brown fox jumps over the lazy dog\\nPack my box with five dozen liquor jugs\\nONNX models run on the CPU in 2025")
render(rotated_90 "${latin}" 850x130 "Turned a quarter to the right" -rotate 90)
render(rotated_270 "${latin}" 850x130 "Turned a quarter to the left" -rotate -90)
render(rotated_15 "${latin}" 850x130 "Tilted by fifteen degrees" -rotate -15)
render(upside_down "${latin}" 850x130 "This line is upside down" -rotate 180)
render(chinese "${cjk}" 850x130 "欢迎使用文字识别")
