// How a video's Y'CbCr samples relate to RGB: reading a stream's colour
// description into VideoColour, and the conversion coefficients FFmpeg's
// command line uses for it, for the reader's conversion to RGB and the
// writer's back. Part of the gpuhist::io library.
#pragma once

extern "C" {
#include <libavutil/frame.h>
#include <libavutil/pixdesc.h>
#include <libavutil/pixfmt.h>
#include <libswscale/swscale.h>
}

#include <string>

#include "gpuhist/video_colour.hpp"

namespace gpuhist::io {

// "limited", "full" or "unspecified": the range `range` declares, or else
// full for the JPEG pixel formats (yuvj420p and the like), as libswscale
// reads them.
inline std::string range_name(AVColorRange range, AVPixelFormat format) {
  if (range == AVCOL_RANGE_JPEG) return "full";
  if (range == AVCOL_RANGE_MPEG) return "limited";
  const bool jpeg = format == AV_PIX_FMT_YUVJ420P || format == AV_PIX_FMT_YUVJ422P ||
                    format == AV_PIX_FMT_YUVJ444P || format == AV_PIX_FMT_YUVJ440P ||
                    format == AV_PIX_FMT_YUVJ411P;
  return jpeg ? "full" : "unspecified";
}

// FFmpeg's name of a value, "unspecified" for the value it names "unknown".
inline std::string or_unspecified(const char* name) {
  return name != nullptr && std::string(name) != "unknown" ? name : "unspecified";
}

inline VideoColour describe_colour(AVColorSpace matrix, AVColorPrimaries primaries,
                                   AVColorTransferCharacteristic transfer, AVColorRange range,
                                   AVPixelFormat format) {
  // RGB (or paletted) samples need no matrix, declared or not: FFmpeg names that "gbr".
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(format);
  if (matrix == AVCOL_SPC_UNSPECIFIED && d != nullptr &&
      (d->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL)) != 0) {
    matrix = AVCOL_SPC_RGB;
  }
  return {or_unspecified(av_color_space_name(matrix)),
          or_unspecified(av_color_primaries_name(primaries)),
          or_unspecified(av_color_transfer_name(transfer)), range_name(range, format)};
}

inline VideoColour describe_colour(const AVFrame& f) {
  return describe_colour(f.colorspace, f.color_primaries, f.color_trc, f.color_range,
                         static_cast<AVPixelFormat>(f.format));
}

// The matrix FFmpeg's command line converts with (its scale filter's
// in_color_matrix=auto): the stream's own, Rec. 601 (BT.470BG) for streams
// that declare none or one libswscale has no coefficients for.
inline AVColorSpace conversion_matrix(AVColorSpace declared) {
  const int m = static_cast<int>(declared);
  return m < 1 || m > 10 || declared == AVCOL_SPC_YCGCO ? AVCOL_SPC_BT470BG : declared;
}

// What a written video declares, from its source's description, and the
// matrix its frames are converted with (VideoEncoding::colour).
struct WrittenColour {
  AVColorSpace matrix = AVCOL_SPC_UNSPECIFIED;
  AVColorPrimaries primaries = AVCOL_PRI_UNSPECIFIED;
  AVColorTransferCharacteristic transfer = AVCOL_TRC_UNSPECIFIED;
  AVColorRange range = AVCOL_RANGE_UNSPECIFIED;
  AVColorSpace conversion = AVCOL_SPC_BT470BG;
};

// The value FFmpeg names `name` exactly, by `from_name` and `to_name`; -1
// for a name it does not know and for its "reserved" values.
template <class FromName, class ToName>
int named_value(const std::string& name, FromName from_name, ToName to_name) {
  if (name == "reserved") return -1;
  const int value = from_name(name.c_str());
  if (value < 0) return -1;
  const char* back = to_name(value);
  return back != nullptr && name == back ? value : -1;
}

// The matrix is declared only where the frames are converted with it (a
// stream declaring one libswscale lacks was read with Rec. 601's, and is
// written so, undeclared); names FFmpeg does not know, and its reserved
// values, are left unspecified. An RGB source ("gbr") has no Y'CbCr of its
// own to keep: it is written with Rec. 709's matrix in limited range, both
// declared, so that players show the colours it had at every size (left
// undeclared, Rec. 601's conversion is read as Rec. 709 by players at HD).
inline WrittenColour written_colour(const VideoColour& source) {
  WrittenColour w;
  if (source.matrix == "gbr") {
    w.matrix = w.conversion = AVCOL_SPC_BT709;
    w.range = AVCOL_RANGE_MPEG;
  }
  const int matrix = named_value(source.matrix, av_color_space_from_name, [](int v) {
    return av_color_space_name(static_cast<AVColorSpace>(v));
  });
  if (matrix >= 0 && source.matrix != "gbr") {
    w.conversion = conversion_matrix(static_cast<AVColorSpace>(matrix));
    if (w.conversion == matrix) w.matrix = w.conversion;
  }
  const int primaries = named_value(source.primaries, av_color_primaries_from_name, [](int v) {
    return av_color_primaries_name(static_cast<AVColorPrimaries>(v));
  });
  if (primaries >= 0) w.primaries = static_cast<AVColorPrimaries>(primaries);
  const int transfer = named_value(source.transfer, av_color_transfer_from_name, [](int v) {
    return av_color_transfer_name(static_cast<AVColorTransferCharacteristic>(v));
  });
  if (transfer >= 0) w.transfer = static_cast<AVColorTransferCharacteristic>(transfer);
  // Written in limited range whatever the source's, and said so (a source that
  // declares none too: a player then has no range to guess).
  w.range = AVCOL_RANGE_MPEG;
  return w;
}

// Which side of a conversion holds the Y'CbCr samples.
enum class YCbCrSide : bool { Source, Destination };

// Sets `scaler` to convert with `matrix` (conversion_matrix's rule) and, on
// the Y'CbCr side, full range (1), limited (0) or the scaler's own choice for
// the pixel format (-1); the RGB side keeps the scaler's own. Returns
// libswscale's status (negative where it cannot).
inline int set_conversion(SwsContext* scaler, AVColorSpace matrix, int ycbcr_full, YCbCrSide side) {
  int* inv_table = nullptr;
  int* table = nullptr;
  int src_full = 0, dst_full = 0, brightness = 0, contrast = 0, saturation = 0;
  if (sws_getColorspaceDetails(scaler, &inv_table, &src_full, &table, &dst_full, &brightness,
                               &contrast, &saturation) < 0) {
    return -1;
  }
  const int* coefficients = sws_getCoefficients(conversion_matrix(matrix));
  if (ycbcr_full >= 0) (side == YCbCrSide::Source ? src_full : dst_full) = ycbcr_full;
  return sws_setColorspaceDetails(scaler, coefficients, src_full, coefficients, dst_full,
                                  brightness, contrast, saturation);
}

}  // namespace gpuhist::io
