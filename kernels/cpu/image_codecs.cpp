// kernels/cpu/image_codecs.cpp: onyx::image::decode_rgb over libjpeg, libpng,
// libopenjp2, libtiff and libwebp, and onyx's own BMP and PNM readers (both
// formats are uncompressed: a header, then rows). Every decoder reads from
// memory with bounds checks and reports failures through its library's error
// hook, never to stderr and never by exiting: libjpeg's and libpng's by
// longjmp out of the library (only trivially destructible locals live between
// setjmp and the library calls), openjpeg's and libtiff's through per-handle
// callbacks. Truncated files are errors, not grey-filled images: libjpeg's
// "premature end of data" warning and openjpeg's strict mode make them so.
#include "kernels/cpu/image_codecs.hpp"

#include <algorithm>
#include <cctype>
#include <csetjmp>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

#include <jerror.h>
#include <jpeglib.h>
#include <openjpeg.h>
#include <png.h>
#include <tiffio.h>
#include <webp/decode.h>

namespace onyx::image {
namespace {

status corrupt(std::string_view format, const std::string& why) {
  return status(errc::invalid_argument, "corrupt or truncated " + std::string(format) + " image: " + why);
}

/// The largest image decode_rgb makes (pixels), so a forged header cannot
/// ask for more memory than any real image needs.
constexpr std::int64_t max_pixels = std::int64_t{1} << 28;

result<rgb_image> make_image(std::string_view format, std::int64_t height, std::int64_t width) {
  if (height <= 0 || width <= 0 || height > max_pixels / width)
    return corrupt(format,
                   "image size " + std::to_string(width) + " x " + std::to_string(height) + " is empty or too large");
  rgb_image im;
  im.height = height, im.width = width;
  im.pixels.resize(static_cast<std::size_t>(height * width * 3));
  return im;
}

// --- BMP ----------------------------------------------------------------------

std::uint32_t le16(const std::uint8_t* p) { return p[0] | p[1] << 8; }
std::uint32_t le32(const std::uint8_t* p) { return le16(p) | le16(p + 2) << 16; }

/// Bits of `mask`, shifted down and scaled to 0-255 (as Pillow: v * 255 / max).
struct channel_mask {
  std::uint32_t mask = 0;
  int shift = 0;
  std::uint32_t max = 0;
  explicit channel_mask(std::uint32_t m) : mask(m) {
    if (!m) return;
    while (!((m >> shift) & 1u)) ++shift;
    max = m >> shift;
  }
  std::uint8_t operator()(std::uint32_t px) const {
    return max ? static_cast<std::uint8_t>(((px & mask) >> shift) * 255u / max) : 0;
  }
};

result<rgb_image> decode_bmp(std::span<const std::uint8_t> d) {
  const std::string_view f = "BMP";
  if (d.size() < 26) return corrupt(f, "file of " + std::to_string(d.size()) + " bytes is shorter than its headers");
  const std::uint32_t offset = le32(&d[10]), header = le32(&d[14]);
  std::int64_t width, height;
  std::uint32_t bpp, compression = 0, colors = 0;
  const bool core = header == 12;
  if (core) {
    width = le16(&d[18]), height = static_cast<std::int16_t>(le16(&d[20])), bpp = le16(&d[24]);
  } else {
    if (header < 40 || d.size() < 14 + std::size_t{40})
      return corrupt(f, "unknown header size " + std::to_string(header));
    width = static_cast<std::int32_t>(le32(&d[18])), height = static_cast<std::int32_t>(le32(&d[22]));
    bpp = le16(&d[28]), compression = le32(&d[30]), colors = le32(&d[46]);
  }
  const bool top_down = height < 0;
  if (top_down) height = -height;
  ONYX_ASSIGN(rgb_image im, make_image(f, height, width));
  // Masks: BI_RGB defaults, or BI_BITFIELDS after the header (or inside it).
  std::uint32_t masks[3] = {0, 0, 0};
  if (compression == 3 || compression == 6) {
    const std::size_t at = header >= 52 ? 14 + 40 : 14 + header;
    if (d.size() < at + 12) return corrupt(f, "the bit field masks are cut off");
    for (int c = 0; c < 3; ++c) masks[c] = le32(&d[at + 4 * c]);
  } else if (compression != 0) {
    return status(errc::unsupported,
                  "BMP compression " + std::to_string(compression) + " (RLE, JPEG or PNG inside BMP) is not supported");
  } else if (bpp == 16) {
    masks[0] = 0x7c00, masks[1] = 0x03e0, masks[2] = 0x001f;
  } else if (bpp == 32) {
    masks[0] = 0xff0000, masks[1] = 0xff00, masks[2] = 0xff;
  }
  if (bpp != 1 && bpp != 4 && bpp != 8 && bpp != 16 && bpp != 24 && bpp != 32)
    return corrupt(f, std::to_string(bpp) + " bits per pixel");
  // The palette (B, G, R[, 0] entries) follows the headers.
  std::vector<std::uint8_t> palette;
  if (bpp <= 8) {
    const std::size_t entries = colors ? colors : std::size_t{1} << bpp, entry = core ? 3 : 4;
    const std::size_t at = 14 + header + (compression == 3 && header == 40 ? 12 : 0);
    if (entries > 256 || d.size() < at + entries * entry) return corrupt(f, "the palette is cut off");
    palette.resize(256 * 3, 0);
    for (std::size_t i = 0; i < entries; ++i)
      for (int c = 0; c < 3; ++c) palette[i * 3 + c] = d[at + i * entry + 2 - c];
  }
  const std::int64_t stride = (width * bpp + 31) / 32 * 4;
  if (offset > d.size() || static_cast<std::int64_t>(d.size() - offset) < stride * height)
    return corrupt(f, "pixel data of " + std::to_string(stride * height) + " bytes at offset " +
                          std::to_string(offset) + " runs past the file's " + std::to_string(d.size()) + " bytes");
  const channel_mask mr(masks[0]), mg(masks[1]), mb(masks[2]);
  for (std::int64_t y = 0; y < height; ++y) {
    const std::uint8_t* row = d.data() + offset + (top_down ? y : height - 1 - y) * stride;
    std::uint8_t* out = im.pixels.data() + y * width * 3;
    for (std::int64_t x = 0; x < width; ++x, out += 3) {
      if (bpp <= 8) {
        const std::int64_t bit = x * bpp;
        const std::uint32_t index = (row[bit / 8] >> (8 - bpp - bit % 8)) & ((1u << bpp) - 1);
        std::memcpy(out, &palette[index * 3], 3);
      } else if (bpp == 24) {
        out[0] = row[x * 3 + 2], out[1] = row[x * 3 + 1], out[2] = row[x * 3];
      } else {
        const std::uint32_t px = bpp == 16 ? le16(row + x * 2) : le32(row + x * 4);
        out[0] = mr(px), out[1] = mg(px), out[2] = mb(px);
      }
    }
  }
  return im;
}

// --- PNM ----------------------------------------------------------------------

result<rgb_image> decode_pnm(std::span<const std::uint8_t> d) {
  const std::string_view f = "PNM";
  const char kind = static_cast<char>(d[1]);
  if (kind != '2' && kind != '3' && kind != '5' && kind != '6')
    return status(errc::unsupported, std::string("PNM variant P") + kind + " is not supported (P2, P3, P5, P6 are)");
  std::size_t at = 2;
  // A header number: whitespace and # comments before it.
  auto number = [&](std::int64_t& v) -> bool {
    for (;;) {
      while (at < d.size() && std::isspace(d[at])) ++at;
      if (at < d.size() && d[at] == '#') {
        while (at < d.size() && d[at] != '\n') ++at;
        continue;
      }
      break;
    }
    if (at >= d.size() || !std::isdigit(d[at])) return false;
    v = 0;
    for (; at < d.size() && std::isdigit(d[at]); ++at)
      if ((v = v * 10 + (d[at] - '0')) > std::numeric_limits<std::int32_t>::max()) return false;
    return true;
  };
  std::int64_t width, height, maxval;
  if (!number(width) || !number(height) || !number(maxval)) return corrupt(f, "the header is cut off or malformed");
  if (maxval < 1 || maxval > 65535) return corrupt(f, "maxval " + std::to_string(maxval) + " is not in 1-65535");
  ONYX_ASSIGN(rgb_image im, make_image(f, height, width));
  const int channels = kind == '3' || kind == '6' ? 3 : 1;
  const std::int64_t samples = height * width * channels;
  auto scale = [&](std::int64_t v) {
    v = std::min(v, maxval);
    return static_cast<std::uint8_t>(maxval == 255 ? v : v * 255 / maxval);
  };
  auto put = [&](std::int64_t i, std::uint8_t v) {
    if (channels == 3)
      im.pixels[i] = v;
    else
      im.pixels[i * 3] = im.pixels[i * 3 + 1] = im.pixels[i * 3 + 2] = v;
  };
  if (kind == '2' || kind == '3') {
    for (std::int64_t i = 0; i < samples; ++i) {
      std::int64_t v;
      if (!number(v))
        return corrupt(f, "sample " + std::to_string(i) + " of " + std::to_string(samples) + " is missing");
      put(i, scale(v));
    }
    return im;
  }
  ++at;  // the single whitespace byte after maxval
  const std::int64_t width_bytes = maxval > 255 ? 2 : 1;
  if (at > d.size() || static_cast<std::int64_t>(d.size() - at) < samples * width_bytes)
    return corrupt(f, "pixel data is cut off: " + std::to_string(samples * width_bytes) + " bytes expected, " +
                          std::to_string(at > d.size() ? 0 : d.size() - at) + " present");
  for (std::int64_t i = 0; i < samples; ++i)
    put(i, scale(width_bytes == 2 ? d[at + 2 * i] << 8 | d[at + 2 * i + 1] : d[at + i]));
  return im;
}

// --- JPEG (libjpeg) ---------------------------------------------------------------

struct jpeg_error : jpeg_error_mgr {
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX] = {};
};

void jpeg_fail(j_common_ptr cinfo) {
  auto* e = static_cast<jpeg_error*>(cinfo->err);
  e->format_message(cinfo, e->message);
  std::longjmp(e->jump, 1);
}

/// Warnings are silent, except running out of data, which is an error.
void jpeg_message(j_common_ptr cinfo, int level) {
  if (level < 0 && cinfo->err->msg_code == JWRN_JPEG_EOF) jpeg_fail(cinfo);
}

result<rgb_image> decode_jpeg(std::span<const std::uint8_t> d) {
  jpeg_decompress_struct cinfo;
  jpeg_error err;
  cinfo.err = jpeg_std_error(&err);
  err.error_exit = jpeg_fail;
  err.emit_message = jpeg_message;
  rgb_image im;  // sized before any longjmp can pass it
  if (setjmp(err.jump)) {
    jpeg_destroy_decompress(&cinfo);
    return corrupt("JPEG", err.message);
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, d.data(), static_cast<unsigned long>(d.size()));
  jpeg_read_header(&cinfo, TRUE);
  cinfo.out_color_space = JCS_RGB;  // libjpeg's defaults otherwise: islow IDCT, fancy upsampling (as Pillow)
  jpeg_calc_output_dimensions(&cinfo);
  const std::int64_t h = cinfo.output_height, w = cinfo.output_width;
  if (h <= 0 || w <= 0 || h > max_pixels / w) {
    jpeg_destroy_decompress(&cinfo);
    return corrupt("JPEG", "image size " + std::to_string(w) + " x " + std::to_string(h) + " is empty or too large");
  }
  im.height = h, im.width = w;
  im.pixels.resize(static_cast<std::size_t>(h * w * 3));
  jpeg_start_decompress(&cinfo);
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW row = im.pixels.data() + static_cast<std::size_t>(cinfo.output_scanline) * w * 3;
    jpeg_read_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  return im;
}

// --- PNG (libpng) -----------------------------------------------------------------

struct png_reader {
  std::span<const std::uint8_t> data;
  std::size_t at = 0;
  char message[256] = {};
};

void png_fail(png_structp png, png_const_charp msg) {
  auto* r = static_cast<png_reader*>(png_get_error_ptr(png));
  std::snprintf(r->message, sizeof r->message, "%s", msg);
  png_longjmp(png, 1);
}
void png_warn(png_structp, png_const_charp) {}
void png_read(png_structp png, png_bytep out, png_size_t n) {
  auto* r = static_cast<png_reader*>(png_get_io_ptr(png));
  if (r->data.size() - r->at < n) png_error(png, "the file ends early");
  std::memcpy(out, r->data.data() + r->at, n);
  r->at += n;
}

result<rgb_image> decode_png(std::span<const std::uint8_t> d) {
  png_reader reader;
  reader.data = d;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader, png_fail, png_warn);
  if (!png) return status(errc::internal, "libpng could not start");
  png_infop info = png_create_info_struct(png);
  rgb_image im;
  std::vector<png_bytep> rows;
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    return corrupt("PNG", reader.message);
  }
  png_set_read_fn(png, &reader, png_read);
  png_read_info(png, info);
  // To 8-bit RGB: palettes and low bit depths expanded, 16 bits cut to the
  // high byte (as Pillow), gray replicated, alpha dropped.
  png_set_expand(png);
  png_set_strip_16(png);
  png_set_strip_alpha(png);
  png_set_gray_to_rgb(png);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  const std::int64_t h = png_get_image_height(png, info), w = png_get_image_width(png, info);
  if (h <= 0 || w <= 0 || h > max_pixels / w || png_get_rowbytes(png, info) != static_cast<std::size_t>(w * 3))
    png_error(png, "unexpected image size or layout");
  im.height = h, im.width = w;
  im.pixels.resize(static_cast<std::size_t>(h * w * 3));
  rows.resize(static_cast<std::size_t>(h));
  for (std::int64_t y = 0; y < h; ++y) rows[y] = im.pixels.data() + y * w * 3;
  png_read_image(png, rows.data());
  png_destroy_read_struct(&png, &info, nullptr);
  return im;
}

// --- JPEG 2000 (openjpeg) ---------------------------------------------------------

struct j2k_reader {
  std::span<const std::uint8_t> data;
  std::size_t at = 0;
  std::string message;
};

OPJ_SIZE_T j2k_read(void* out, OPJ_SIZE_T n, void* user) {
  auto* r = static_cast<j2k_reader*>(user);
  if (r->at >= r->data.size()) return static_cast<OPJ_SIZE_T>(-1);
  n = std::min<OPJ_SIZE_T>(n, r->data.size() - r->at);
  std::memcpy(out, r->data.data() + r->at, n);
  r->at += n;
  return n;
}
OPJ_OFF_T j2k_skip(OPJ_OFF_T n, void* user) {
  auto* r = static_cast<j2k_reader*>(user);
  if (n < 0 || static_cast<std::size_t>(n) > r->data.size() - r->at) return -1;
  r->at += static_cast<std::size_t>(n);
  return n;
}
OPJ_BOOL j2k_seek(OPJ_OFF_T n, void* user) {
  auto* r = static_cast<j2k_reader*>(user);
  if (n < 0 || static_cast<std::size_t>(n) > r->data.size()) return OPJ_FALSE;
  r->at = static_cast<std::size_t>(n);
  return OPJ_TRUE;
}
void j2k_error(const char* msg, void* user) {
  auto* r = static_cast<j2k_reader*>(user);
  if (r->message.empty()) {
    r->message = msg;
    while (!r->message.empty() && r->message.back() == '\n') r->message.pop_back();
  }
}
void j2k_quiet(const char*, void*) {}

result<rgb_image> decode_jpeg2000(std::span<const std::uint8_t> d, bool jp2) {
  const std::string_view f = "JPEG 2000";
  j2k_reader reader;
  reader.data = d;
  opj_codec_t* codec = opj_create_decompress(jp2 ? OPJ_CODEC_JP2 : OPJ_CODEC_J2K);
  opj_stream_t* stream = opj_stream_create(OPJ_J2K_STREAM_CHUNK_SIZE, OPJ_TRUE);
  opj_image_t* image = nullptr;
  auto release = [&] {
    if (image) opj_image_destroy(image);
    if (stream) opj_stream_destroy(stream);
    if (codec) opj_destroy_codec(codec);
  };
  if (!codec || !stream) return release(), status(errc::internal, "openjpeg could not start");
  opj_stream_set_user_data(stream, &reader, nullptr);
  opj_stream_set_user_data_length(stream, d.size());
  opj_stream_set_read_function(stream, j2k_read);
  opj_stream_set_skip_function(stream, j2k_skip);
  opj_stream_set_seek_function(stream, j2k_seek);
  opj_set_error_handler(codec, j2k_error, &reader);
  opj_set_warning_handler(codec, j2k_quiet, nullptr);
  opj_set_info_handler(codec, j2k_quiet, nullptr);
  opj_dparameters_t params;
  opj_set_default_decoder_parameters(&params);
  const bool ok = opj_setup_decoder(codec, &params) && opj_decoder_set_strict_mode(codec, OPJ_TRUE) &&
                  opj_read_header(stream, codec, &image) && opj_decode(codec, stream, image) &&
                  opj_end_decompress(codec, stream);
  if (!ok) {
    const std::string why = reader.message.empty() ? "openjpeg could not decode it" : reader.message;
    return release(), corrupt(f, why);
  }
  const std::uint32_t n = image->numcomps;
  if (n == 0 || !image->comps[0].data) return release(), corrupt(f, "no image components");
  const opj_image_comp_t& c0 = image->comps[0];
  const std::int64_t w = c0.w, h = c0.h;
  const std::uint32_t colour = n >= 3 ? 3 : 1;
  for (std::uint32_t c = 0; c < colour; ++c) {
    const opj_image_comp_t& comp = image->comps[c];
    if (comp.w != c0.w || comp.h != c0.h || !comp.data || comp.prec < 1 || comp.prec > 31)
      return release(), status(errc::unsupported, "JPEG 2000 with subsampled or unusual components is not supported");
  }
  auto made = make_image(f, h, w);
  if (!made.ok()) return release(), std::move(made).error();
  rgb_image im = std::move(made).value();
  for (std::uint32_t c = 0; c < 3; ++c) {
    const opj_image_comp_t& comp = image->comps[colour == 3 ? c : 0];
    const std::int64_t offset = comp.sgnd ? std::int64_t{1} << (comp.prec - 1) : 0;
    const std::int64_t top = (std::int64_t{1} << comp.prec) - 1;
    for (std::int64_t i = 0; i < h * w; ++i) {
      std::int64_t v = std::clamp<std::int64_t>(comp.data[i] + offset, 0, top);
      if (comp.prec > 8)
        v >>= comp.prec - 8;
      else if (comp.prec < 8)
        v = v * 255 / top;
      im.pixels[i * 3 + c] = static_cast<std::uint8_t>(v);
    }
  }
  release();
  return im;
}

// --- TIFF (libtiff) ---------------------------------------------------------------

struct tiff_reader {
  std::span<const std::uint8_t> data;
  toff_t at = 0;
  std::string message;
};

tsize_t tiff_read(thandle_t h, tdata_t out, tsize_t n) {
  auto* r = static_cast<tiff_reader*>(h);
  if (r->at >= r->data.size() || n < 0) return 0;
  const tsize_t m = std::min<tsize_t>(n, static_cast<tsize_t>(r->data.size() - r->at));
  std::memcpy(out, r->data.data() + r->at, static_cast<std::size_t>(m));
  r->at += static_cast<toff_t>(m);
  return m;
}
tsize_t tiff_write(thandle_t, tdata_t, tsize_t) { return -1; }
toff_t tiff_seek(thandle_t h, toff_t off, int whence) {
  auto* r = static_cast<tiff_reader*>(h);
  const toff_t base = whence == SEEK_CUR ? r->at : whence == SEEK_END ? r->data.size() : 0;
  r->at = base + off;
  return r->at;
}
int tiff_close(thandle_t) { return 0; }
toff_t tiff_size(thandle_t h) { return static_cast<tiff_reader*>(h)->data.size(); }
int tiff_map(thandle_t, tdata_t*, toff_t*) { return 0; }
void tiff_unmap(thandle_t, tdata_t, toff_t) {}
int tiff_error(TIFF*, void* user, const char* module, const char* fmt, va_list args) {
  auto* r = static_cast<tiff_reader*>(user);
  if (r->message.empty()) {
    char buf[512];
    std::vsnprintf(buf, sizeof buf, fmt, args);
    r->message = std::string(module ? module : "libtiff") + ": " + buf;
  }
  return 1;
}
int tiff_warning(TIFF*, void*, const char*, const char*, va_list) { return 1; }

result<rgb_image> decode_tiff(std::span<const std::uint8_t> d) {
  const std::string_view f = "TIFF";
  tiff_reader reader;
  reader.data = d;
  TIFFOpenOptions* opts = TIFFOpenOptionsAlloc();
  TIFFOpenOptionsSetErrorHandlerExtR(opts, tiff_error, &reader);
  TIFFOpenOptionsSetWarningHandlerExtR(opts, tiff_warning, nullptr);
  TIFF* tif = TIFFClientOpenExt("memory", "rm", &reader, tiff_read, tiff_write, tiff_seek, tiff_close, tiff_size,
                                tiff_map, tiff_unmap, opts);
  TIFFOpenOptionsFree(opts);
  auto why = [&](const char* otherwise) { return reader.message.empty() ? std::string(otherwise) : reader.message; };
  if (!tif) return corrupt(f, why("libtiff could not open it"));
  std::uint32_t w = 0, h = 0;
  TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &w);
  TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &h);
  auto made = make_image(f, h, w);
  if (!made.ok()) return TIFFClose(tif), std::move(made).error();
  rgb_image im = std::move(made).value();
  std::vector<std::uint32_t> raster(static_cast<std::size_t>(w) * h);
  // RGBA packed as ABGR; the first image of the file, top row first.
  const int ok = TIFFReadRGBAImageOriented(tif, w, h, raster.data(), ORIENTATION_TOPLEFT, 1);
  TIFFClose(tif);
  if (!ok || !reader.message.empty()) return corrupt(f, why("libtiff could not read the pixels"));
  for (std::size_t i = 0; i < raster.size(); ++i) {
    im.pixels[i * 3] = static_cast<std::uint8_t>(TIFFGetR(raster[i]));
    im.pixels[i * 3 + 1] = static_cast<std::uint8_t>(TIFFGetG(raster[i]));
    im.pixels[i * 3 + 2] = static_cast<std::uint8_t>(TIFFGetB(raster[i]));
  }
  return im;
}

// --- WebP (libwebp) ---------------------------------------------------------------

const char* webp_status(VP8StatusCode s) {
  switch (s) {
    case VP8_STATUS_OUT_OF_MEMORY:
      return "out of memory";
    case VP8_STATUS_INVALID_PARAM:
      return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR:
      return "bitstream error";
    case VP8_STATUS_UNSUPPORTED_FEATURE:
      return "unsupported feature (e.g. animation)";
    case VP8_STATUS_SUSPENDED:
      return "suspended";
    case VP8_STATUS_USER_ABORT:
      return "aborted";
    case VP8_STATUS_NOT_ENOUGH_DATA:
      return "the data ends early";
    default:
      return "unknown error";
  }
}

result<rgb_image> decode_webp(std::span<const std::uint8_t> d) {
  const std::string_view f = "WebP";
  WebPDecoderConfig config;
  if (!WebPInitDecoderConfig(&config)) return status(errc::internal, "libwebp version mismatch");
  VP8StatusCode s = WebPGetFeatures(d.data(), d.size(), &config.input);
  if (s != VP8_STATUS_OK) return corrupt(f, webp_status(s));
  auto made = make_image(f, config.input.height, config.input.width);
  if (!made.ok()) return std::move(made).error();
  rgb_image im = std::move(made).value();
  // Decoded straight into the image (default options: fancy upsampling, as Pillow).
  config.output.colorspace = MODE_RGB;
  config.output.is_external_memory = 1;
  config.output.u.RGBA.rgba = im.pixels.data();
  config.output.u.RGBA.stride = static_cast<int>(im.width * 3);
  config.output.u.RGBA.size = im.pixels.size();
  s = WebPDecode(d.data(), d.size(), &config);
  WebPFreeDecBuffer(&config.output);
  if (s != VP8_STATUS_OK) return corrupt(f, webp_status(s));
  return im;
}

bool starts_with(std::span<const std::uint8_t> d, std::string_view magic) {
  return d.size() >= magic.size() && std::memcmp(d.data(), magic.data(), magic.size()) == 0;
}

}  // namespace

std::string_view format_of(std::span<const std::uint8_t> d) {
  using namespace std::string_view_literals;
  if (starts_with(d, "BM"sv)) return "BMP";
  if (starts_with(d, "\xff\xd8\xff"sv)) return "JPEG";
  if (starts_with(d, "\x00\x00\x00\x0cjP  \r\n\x87\n"sv)) return "JP2";
  if (starts_with(d, "\xff\x4f\xff\x51"sv)) return "J2K";
  if (starts_with(d, "\x89PNG\r\n\x1a\n"sv)) return "PNG";
  if (d.size() >= 2 && d[0] == 'P' && d[1] >= '1' && d[1] <= '7') return "PNM";
  if (starts_with(d, "II*\0"sv) || starts_with(d, "MM\0*"sv) || starts_with(d, "II+\0"sv) || starts_with(d, "MM\0+"sv))
    return "TIFF";
  if (d.size() >= 12 && starts_with(d, "RIFF"sv) && std::memcmp(d.data() + 8, "WEBP", 4) == 0) return "WebP";
  return "";
}

result<rgb_image> decode_rgb(std::span<const std::uint8_t> data) {
  const std::string_view f = format_of(data);
  if (f == "BMP") return decode_bmp(data);
  if (f == "JPEG") return decode_jpeg(data);
  if (f == "JP2" || f == "J2K") return decode_jpeg2000(data, f == "JP2");
  if (f == "PNG") return decode_png(data);
  if (f == "PNM") return decode_pnm(data);
  if (f == "TIFF") return decode_tiff(data);
  if (f == "WebP") return decode_webp(data);
  std::string head;
  for (std::size_t i = 0; i < std::min<std::size_t>(data.size(), 8); ++i) {
    char hex[4];
    std::snprintf(hex, sizeof hex, "%02x", data[i]);
    head += hex;
  }
  return status(errc::invalid_argument,
                "not an image in a supported format (BMP, JPEG, JPEG 2000, PNG, PNM, TIFF, "
                "WebP): " +
                    std::to_string(data.size()) + " bytes starting " + (head.empty() ? std::string("(empty)") : head));
}

}  // namespace onyx::image
