#include "gpuhist/video_file.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/cpu.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/cores.hpp"
#include "gpuhist/error.hpp"
#include "io/av_error.hpp"
#include "io/file_url.hpp"
#include "io/missing_file.hpp"
#include "io/picked_stream.hpp"
#include "io/turn_frame.hpp"
#include "io/video_colour.hpp"

namespace gpuhist {
namespace {

using io::av_message;

struct FormatCloser {
  void operator()(AVFormatContext* c) const { avformat_close_input(&c); }
};
struct CodecFreer {
  void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
};
struct FrameFreer {
  void operator()(AVFrame* f) const { av_frame_free(&f); }
};
struct PacketFreer {
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};
struct ScaleFreer {
  void operator()(SwsContext* s) const { sws_freeContext(s); }
};

std::string pixel_format_name(const AVFrame& frame) {
  const char* name = av_get_pix_fmt_name(static_cast<AVPixelFormat>(frame.format));
  return name != nullptr ? name : "unknown";
}

// The row stride av_frame_get_buffer gives a frame of `width` pixels of
// `format`: the width rounded up until a row is a multiple of the CPU's widest
// vector, so that vector stores at a row's end stay within the row's padding.
std::size_t scaled_stride(AVPixelFormat format, int width) {
  const int align = static_cast<int>(av_cpu_max_align());
  int linesizes[4] = {};
  for (int w = 1; w <= align; w += w) {
    if (av_image_fill_linesizes(linesizes, format, FFALIGN(width, w)) < 0) break;
    if (linesizes[0] % align == 0) break;
  }
  return linesizes[0] > 0 ? static_cast<std::size_t>(FFALIGN(linesizes[0], align)) : 0;
}

// Errors the demuxer and the decoder log (a file ended early, a damaged
// slice), counted per reader: their contexts' `opaque` points here.
struct Damage {
  std::atomic<std::int64_t> errors{0};
  std::mutex mutex;
  std::string first;  // the first message, as FFmpeg wrote it

  // An error counted; the first one's message kept, `line()` made for it alone.
  template <class Line>
  void count(Line&& line) {
    if (errors.fetch_add(1) != 0) return;
    std::string text = line();
    const std::lock_guard lock(mutex);
    first = std::move(text);
  }
};

bool is_context(void* object, const char* class_name) {
  if (object == nullptr) return false;
  const AVClass* cls = *static_cast<const AVClass* const*>(object);
  return cls != nullptr && cls->class_name != nullptr &&
         std::strcmp(cls->class_name, class_name) == 0;
}

void count_errors(void* object, int level, const char* format, va_list args) {
  // Errors, and the damage the decoders' error resilience conceals, which
  // it says at the info level ("concealing 272 DC, 272 AC, 272 MV errors in
  // P frame"; with frame threads the frame's own flags do not tell it).
  if (level > AV_LOG_ERROR &&
      (format == nullptr || std::strncmp(format, "concealing ", 11) != 0)) {
    return;
  }
  void* opaque = nullptr;
  if (is_context(object, "AVFormatContext")) {
    opaque = static_cast<AVFormatContext*>(object)->opaque;
  } else if (is_context(object, "AVCodecContext")) {
    opaque = static_cast<AVCodecContext*>(object)->opaque;
  }
  if (opaque == nullptr) return;
  static_cast<Damage*>(opaque)->count([&] {
    std::array<char, 512> text{};
    // FFmpeg's own format string, as FFmpeg's default callback prints it.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    std::vsnprintf(text.data(), text.size(), format, args);
#pragma GCC diagnostic pop
    std::string line = text.data();
    while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
    return line;
  });
}

}  // namespace

// Members in destruction order: scaler, frames, codec, then the container.
struct VideoReader::Impl {
  std::filesystem::path path;
  std::uint64_t max_pixels = 0;
  Damage damage;  // outlives the contexts that point to it
  std::unique_ptr<AVFormatContext, FormatCloser> format;
  std::unique_ptr<AVCodecContext, CodecFreer> codec;
  std::unique_ptr<AVPacket, PacketFreer> packet{av_packet_alloc()};
  std::unique_ptr<AVFrame, FrameFreer> decoded{av_frame_alloc()};
  std::unique_ptr<SwsContext, ScaleFreer> scaler;
  // What the scaler was made and its colour details set for.
  struct ScalerKey {
    int width = 0, height = 0, format = -1;
    AVColorSpace matrix = AVCOL_SPC_UNSPECIFIED;
    AVColorRange range = AVCOL_RANGE_UNSPECIFIED;
    bool operator==(const ScalerKey&) const = default;
  };
  ScalerKey scaler_key;
  int stream = -1;
  io::Orientation shown;   // what shows the frames upright (the turn, and any mirroring)
  bool upright = false;    // RGB frames are turned by it
  Image coded;             // a frame as coded, before it is turned
  std::string codec_name;  // the decoder's (convert() reads it on its own thread)
  bool deep = false;      // more than 8 bits per sample: RGB48
  FrameSpace space = FrameSpace::Rgb;
  bool draining = false;  // the container is exhausted; the decoder is being flushed
  bool finished = false;
  // An MP4 or MOV read from a pipe whose index came after its frames: the
  // demuxer read past them to find it, and cannot go back.
  bool index_after_frames = false;
  std::int64_t converted = 0;  // convert()'s alone
  // A frame that carries no time is shown at the time of the last one that
  // did (or 0) plus the durations since, summed exactly: frame 42 of a raw
  // 30 fps stream at 42/30 = 1.4, not at 42 additions of 1/30.
  long double anchor_time = 0.0L;
  AVRational since_anchor{0, 1};

  // Messages name /dev/stdin (what the command line opens for -) as what it is.
  [[noreturn]] void fail(const std::string& cause, Remedy remedy = Remedy::None) const {
    const std::string name = path == "/dev/stdin" ? "standard input" : path.string();
    throw Error(ErrorKind::Input, name + ": " + cause, remedy);
  }
  // The stream's frame rate as the ffmpeg command line guesses it (its "tbr").
  [[nodiscard]] AVRational guessed_rate() const {
    return av_guess_frame_rate(format.get(), format->streams[stream], nullptr);
  }
  // Frames over the limit are refused before a buffer is sized for them.
  void check_size(int width, int height) const {
    const std::uint64_t pixels = std::uint64_t(width) * std::uint64_t(height);
    if (pixels > max_pixels) {
      fail("frames of " + std::to_string(width) + "x" + std::to_string(height) + " = " +
               std::to_string(pixels) + " pixels exceed the limit of " + std::to_string(max_pixels),
           Remedy::MaxPixels);
    }
  }

  // Refuses a pixel format whose planes are not one component each.
  void check_planar(AVPixelFormat pixel_format) const {
    const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(pixel_format);
    bool planar = d != nullptr && (d->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL |
                                               AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_BITSTREAM |
                                               AV_PIX_FMT_FLAG_FLOAT | AV_PIX_FMT_FLAG_HWACCEL)) == 0;
    const int colours = d == nullptr ? 0 : (d->nb_components >= 3 ? 3 : 1);
    if (planar && d->nb_components != 1 && d->nb_components != 3 && d->nb_components != 4) {
      planar = false;
    }
    for (int c = 0; planar && c < colours; ++c) {
      const AVComponentDescriptor& comp = d->comp[c];
      const int bytes = comp.depth > 8 ? 2 : 1;
      planar = comp.plane == c && comp.offset == 0 && comp.shift == 0 && comp.step == bytes &&
               comp.depth >= 8 && comp.depth <= 16 && comp.depth == d->comp[0].depth;
    }
    if (!planar) {
      fail(
          "its planes as decoded are not planar Y'CbCr or grey of 8 to 16 bits, little-endian: "
          "the stream is " +
              std::string(d != nullptr ? d->name : "of an unknown pixel format"),
          Remedy::CountRgb);
    }
  }

  // Hands the decoded planes over as they are: the decoder's frame itself
  // for 8 and 16 bits, a copy (levels shifted up to 16 bits for the depths
  // between) otherwise or where the rows are not laid out down and aligned.
  // Nothing is written to `planes` or `buffers` unless all of it is.
  static void take_planes(const std::shared_ptr<AVFrame>& frame, std::vector<ImageView>& planes,
                          std::shared_ptr<const void>& buffers) {
    const AVFrame& f = *frame;
    const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(static_cast<AVPixelFormat>(f.format));
    const int depth = d->comp[0].depth;
    const int colours = d->nb_components >= 3 ? 3 : 1;
    const PixelFormat grey{ChannelLayout::Grey, depth > 8 ? SampleType::U16 : SampleType::U8};
    const std::size_t sample = depth > 8 ? 2 : 1;
    // Plane c's width and height: Y' at full size, Cb and Cr subsampled.
    const auto size_of = [&](int c) {
      const int w = c == 0 ? f.width : AV_CEIL_RSHIFT(f.width, d->log2_chroma_w);
      const int h = c == 0 ? f.height : AV_CEIL_RSHIFT(f.height, d->log2_chroma_h);
      return std::pair{static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(h)};
    };
    bool shared = depth == 8 || depth == 16;
    for (int c = 0; c < colours; ++c) {
      // A decoder's rows run down with a positive stride, 16-bit samples
      // aligned; anything else is copied.
      shared = shared && f.linesize[c] > 0 && f.data[c] != nullptr &&
               reinterpret_cast<std::uintptr_t>(f.data[c]) % sample == 0 &&
               static_cast<std::size_t>(f.linesize[c]) % sample == 0;
    }
    std::vector<ImageView> views;
    if (shared) {
      for (int c = 0; c < colours; ++c) {
        const auto [w, h] = size_of(c);
        views.push_back(ImageView{f.data[c], w, h, static_cast<std::size_t>(f.linesize[c]), grey});
      }
      planes = std::move(views);
      buffers = frame;
      return;
    }
    auto copies = std::make_shared<std::vector<Image>>();
    for (int c = 0; c < colours; ++c) {
      const auto [w, h] = size_of(c);
      Image& plane = copies->emplace_back(Image::allocate(w, h, grey));
      const std::size_t row_bytes = std::size_t(w) * sample;
      for (std::uint32_t y = 0; y < h; ++y) {
        const std::uint8_t* from = f.data[c] + std::ptrdiff_t(f.linesize[c]) * y;
        std::byte* to = plane.storage.data() + plane.stride * static_cast<std::size_t>(y);
        std::memcpy(to, from, row_bytes);
        if (depth > 8 && depth < 16) {
          // Rows of 16-bit samples start 2-aligned (Image::allocate).
          auto* samples = reinterpret_cast<std::uint16_t*>(to);
          const unsigned mask = (1U << depth) - 1U;
          for (std::uint32_t x = 0; x < w; ++x) {
            samples[x] = static_cast<std::uint16_t>((samples[x] & mask) << (16 - depth));
          }
        }
      }
      views.push_back(plane.view());
    }
    planes = std::move(views);
    buffers = std::move(copies);
  }

  // The pixel format and depth the stream declares.
  static void describe_planes(const AVFrame& f, VideoFrame& out) {
    const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(static_cast<AVPixelFormat>(f.format));
    out.pixel_format = d != nullptr ? d->name : "unknown";
    out.depth = d != nullptr ? static_cast<std::uint32_t>(d->comp[0].depth) : 0;
  }

  // The scaler for this frame, made anew when the frame's size or pixel format
  // changes, set to the frame's matrix and range as the ffmpeg command line's
  // scale filter sets it for every frame: the declared matrix (Rec. 601's where
  // none), the declared range, or else the pixel format's own.
  SwsContext& scaler_for(const AVFrame& f, AVPixelFormat target) {
    const ScalerKey wanted{f.width, f.height, f.format, f.colorspace, f.color_range};
    if (scaler && wanted == scaler_key) return *scaler;
    if (!scaler || wanted.width != scaler_key.width || wanted.height != scaler_key.height ||
        wanted.format != scaler_key.format) {
      scaler_key = {};
      scaler.reset(sws_getContext(f.width, f.height, static_cast<AVPixelFormat>(f.format), f.width,
                                  f.height, target, SWS_BICUBIC, nullptr, nullptr, nullptr));
      if (!scaler) fail("cannot convert frames of pixel format " + pixel_format_name(f));
    }
    const int full = f.color_range == AVCOL_RANGE_UNSPECIFIED ? -1
                     : f.color_range == AVCOL_RANGE_JPEG      ? 1
                                                              : 0;
    if (io::set_conversion(scaler.get(), f.colorspace, full, io::YCbCrSide::Source) < 0) {
      fail("cannot convert frames of pixel format " + pixel_format_name(f));
    }
    scaler_key = wanted;
    return *scaler;
  }

  // Takes the frame the decoder just delivered, with its time.
  void take_decoded(DecodedFrame& out) {
    const AVRational base = format->streams[stream]->time_base;
    const std::int64_t pts = decoded->best_effort_timestamp;
    // One rounding: 42 / 30 is 1.4, where 42 * (1 / 30.0) is 1.4000000000000001.
    // A frame without a time (a raw H.264 or H.265 stream has none) is shown
    // a frame after the one before, as the ffmpeg command line shows it.
    // (The sum in extended precision, then rounded to a double: 0.36 + 0.04
    // is 0.4, where a sum of doubles gives 0.39999999999999997.)
    if (pts != AV_NOPTS_VALUE) {
      out.time = static_cast<double>(pts) * base.num / base.den;
      anchor_time = static_cast<long double>(pts) * base.num / base.den;
      since_anchor = {0, 1};
    } else {
      out.time = static_cast<double>(anchor_time +
                                     static_cast<long double>(since_anchor.num) / since_anchor.den);
    }
    AVRational duration{0, 1};
    if (decoded->pkt_duration > 0 && decoded->pkt_duration <= std::numeric_limits<int>::max()) {
      duration = av_mul_q(AVRational{static_cast<int>(decoded->pkt_duration), 1}, base);
    }
    if (duration.num <= 0 || duration.den <= 0) {
      const AVRational rate = guessed_rate();
      duration = rate.num > 0 && rate.den > 0 ? av_inv_q(rate) : AVRational{1, 25};
    }
    since_anchor = av_add_q(since_anchor, duration);
    std::shared_ptr<AVFrame> frame(av_frame_alloc(), FrameFreer{});
    if (!frame) throw std::bad_alloc();
    av_frame_move_ref(frame.get(), decoded.get());
    out.frame = std::move(frame);
  }

  // Converts a decoded frame to RGB8 or RGB16 samples, or hands its planes over.
  void convert(DecodedFrame& in, VideoFrame& out) {
    if (!in.frame) throw std::logic_error("VideoReader::convert: no decoded frame");
    const AVFrame& f = *in.frame;
    check_size(f.width, f.height);
    out.colour = io::describe_colour(f);
    if (space == FrameSpace::YCbCr) {
      check_planar(static_cast<AVPixelFormat>(f.format));
      take_planes(in.frame, out.planes, out.buffers);
      describe_planes(f, out);
      in.frame.reset();
      stamp(in, out);
      return;
    }
    const AVPixelFormat target = deep ? AV_PIX_FMT_RGB48LE : AV_PIX_FMT_RGB24;
    // The same conversion as the ffmpeg command line: bicubic, the frame's
    // matrix and range.
    SwsContext& to_rgb = scaler_for(f, target);
    const PixelFormat rgb{ChannelLayout::RGB, deep ? SampleType::U16 : SampleType::U8};
    // A frame to be turned upright is converted as coded, then turned.
    const bool turn = upright && !shown.identity();
    Image& image = turn ? coded : out.image;
    // swscale's vector code writes whole vectors past a row's end, so rows are
    // laid out as av_frame_get_buffer lays them out (PixelBuffer pads the end).
    const std::size_t stride = scaled_stride(target, f.width);
    if (stride == 0) fail("frames " + std::to_string(f.width) + " pixels wide are too wide");
    if (image.width != static_cast<std::uint32_t>(f.width) ||
        image.height != static_cast<std::uint32_t>(f.height) || image.format != rgb ||
        image.stride != stride) {
      image = Image::allocate(static_cast<std::uint32_t>(f.width),
                              static_cast<std::uint32_t>(f.height), rgb, stride);
    }
    image.codec = codec_name;
    std::uint8_t* planes[4] = {reinterpret_cast<std::uint8_t*>(image.storage.data()), nullptr,
                               nullptr, nullptr};
    const int strides[4] = {static_cast<int>(stride), 0, 0, 0};
    const int rows = sws_scale(&to_rgb, f.data, f.linesize, 0, f.height, planes, strides);
    if (rows != f.height) fail("cannot convert a frame of pixel format " + pixel_format_name(f));
    in.frame.reset();  // its buffers go back to the decoder
    if (turn) {
      io::turn(image.view(), shown, out.image);
      out.image.codec = codec_name;
    }
    stamp(in, out);
  }

  // The frame's time, and its index among the frames converted.
  void stamp(const DecodedFrame& in, VideoFrame& out) {
    out.time = in.time;
    out.index = converted++;
  }
};

VideoReader::VideoReader(const std::filesystem::path& path, std::uint64_t max_pixels,
                         FrameSpace space, unsigned decode_threads)
    : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.path = path;
  s.max_pixels = max_pixels;
  s.space = space;
  std::error_code ec;
  // (status keeps the cause that exists() clears: a file on the way named as a folder.)
  if (!std::filesystem::exists(std::filesystem::status(path, ec))) {
    s.fail(io::missing_file_cause(ec));
  }
  if (std::filesystem::is_directory(path, ec)) s.fail("is a directory");
  if (std::filesystem::is_regular_file(path, ec) && std::filesystem::file_size(path, ec) == 0) {
    s.fail("empty file");
  }
  // Nothing is printed; errors are counted per reader.
  static const bool logging = [] {
    av_log_set_level(AV_LOG_ERROR);
    av_log_set_callback(count_errors);
    return true;
  }();
  (void)logging;
  AVFormatContext* raw = avformat_alloc_context();
  if (raw == nullptr) s.fail("out of memory");
  raw->opaque = &s.damage;
  if (const int e = io::open_file_input(&raw, path); e < 0) {
    s.fail("cannot read video: " + av_message(e));
  }
  s.format.reset(raw);
  const bool piped = raw->pb != nullptr && raw->pb->seekable == 0;
  if (piped && std::string_view(raw->iformat->name).find("mp4") != std::string_view::npos) {
    const std::int64_t read_to = avio_tell(raw->pb);
    for (unsigned i = 0; i < raw->nb_streams; ++i) {
      const AVIndexEntry* first = avformat_index_get_entry(raw->streams[i], 0);
      s.index_after_frames = s.index_after_frames || (first != nullptr && first->pos < read_to);
    }
  }
  if (const int e = avformat_find_stream_info(raw, nullptr); e < 0) {
    s.fail("cannot read video: " + av_message(e));
  }
  const AVCodec* decoder = nullptr;
  // A picture attached to an audio file (an MP3's or M4A's cover art) is no video.
  bool cover_art = false;
  for (unsigned i = 0; i < raw->nb_streams; ++i) {
    AVStream* stream = raw->streams[i];
    if (stream->codecpar->codec_type == AVMEDIA_TYPE_VIDEO &&
        (stream->disposition & AV_DISPOSITION_ATTACHED_PIC) != 0) {
      stream->discard = AVDISCARD_ALL;
      cover_art = true;
    }
  }
  // The video stream the ffmpeg command line picks (io/picked_stream.hpp).
  s.stream = io::picked_stream(*raw, AVMEDIA_TYPE_VIDEO);
  if (s.stream >= 0) decoder = avcodec_find_decoder(raw->streams[s.stream]->codecpar->codec_id);
  if (s.stream == AVERROR_STREAM_NOT_FOUND) {
    s.fail(cover_art ? "no video stream (its one picture is cover art attached to its audio)"
                     : "no video stream");
  }
  if (s.stream < 0 || decoder == nullptr) s.fail("no decoder for its video stream");
  s.codec.reset(avcodec_alloc_context3(decoder));
  if (!s.codec) s.fail("out of memory");
  s.codec->opaque = &s.damage;
  avcodec_parameters_to_context(s.codec.get(), raw->streams[s.stream]->codecpar);
  // The size the stream declares, refused before the decoder refuses it less clearly.
  if (s.codec->width > 0 && s.codec->height > 0) s.check_size(s.codec->width, s.codec->height);
  // Frame and slice threads, one per core the process may use, as `ffmpeg
  // -threads N`, up to the 16 FFmpeg itself would start at most (each frame
  // thread holds a decoder and a frame): decoding is most of a video job's
  // time. FFmpeg's own choice (0) starts one more than there are cores up to
  // 15, which measured 1-5% slower on two cores beside the counting. Frames
  // still come out in order. The caller may name the number.
  s.codec->thread_count =
      static_cast<int>(decode_threads != 0 ? std::min(decode_threads, kMostDecodeThreads)
                                           : std::min(core_count(), 16U));
  s.codec->thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE;
  // Frames over the limit are refused by the decoder too, before its threads
  // hold several of them (convert() names the limit). The decoder counts a
  // frame's width rounded up to its stride alignment (MPEG-2, MPEG-4 and FFV1:
  // 720x480 counts as 768x480), so its limit leaves room for 64 more columns
  // of 65536 rows: a frame within the limit is not taken for damage.
  constexpr std::uint64_t kAlignmentRoom = 64ULL * 65536;
  const std::uint64_t decoder_limit =
      max_pixels > std::numeric_limits<std::int64_t>::max() - kAlignmentRoom
          ? std::numeric_limits<std::int64_t>::max()
          : max_pixels + kAlignmentRoom;
  s.codec->max_pixels = static_cast<std::int64_t>(decoder_limit);
  if (const int e = avcodec_open2(s.codec.get(), decoder, nullptr); e < 0) {
    s.fail("cannot open the " + std::string(decoder->name) + " decoder: " + av_message(e));
  }
  s.codec_name = decoder->name;
  std::size_t matrix_bytes = 0;
  const std::uint8_t* matrix =
      av_stream_get_side_data(raw->streams[s.stream], AV_PKT_DATA_DISPLAYMATRIX, &matrix_bytes);
  if (matrix != nullptr && matrix_bytes >= 9 * sizeof(std::int32_t)) {
    std::int32_t values[9];
    std::memcpy(values, matrix, sizeof values);
    s.shown = io::upright_orientation(values);
  }
  if (s.codec->width <= 0 || s.codec->height <= 0) {
    // What FFmpeg took for a stream of pictures without a size: not a video
    // (text named .jpg probes as a JPEG stream), or a damaged one.
    s.fail("not a video, or a damaged one: its " + std::string(decoder->name) +
           " stream has no picture size");
  }
  s.check_size(s.codec->width, s.codec->height);
  const AVPixFmtDescriptor* desc = av_pix_fmt_desc_get(s.codec->pix_fmt);
  s.deep = desc != nullptr && desc->comp[0].depth > 8;
  if (space == FrameSpace::YCbCr && s.codec->pix_fmt != AV_PIX_FMT_NONE) {
    s.check_planar(s.codec->pix_fmt);
  }
}

VideoReader::VideoReader(VideoReader&&) noexcept = default;
VideoReader& VideoReader::operator=(VideoReader&&) noexcept = default;
VideoReader::~VideoReader() = default;

std::uint32_t VideoReader::width() const noexcept {
  return static_cast<std::uint32_t>(turned_across() ? impl_->codec->height : impl_->codec->width);
}
std::uint32_t VideoReader::height() const noexcept {
  return static_cast<std::uint32_t>(turned_across() ? impl_->codec->width : impl_->codec->height);
}
int VideoReader::rotation() const noexcept { return io::turn_and_mirror(impl_->shown).clockwise; }

SampleType VideoReader::rgb_sample() const noexcept {
  return impl_->deep ? SampleType::U16 : SampleType::U8;
}

bool VideoReader::mirrored() const noexcept { return io::turn_and_mirror(impl_->shown).mirrored; }
void VideoReader::set_upright(bool upright) { impl_->upright = upright; }
bool VideoReader::turned_across() const noexcept {
  return impl_->upright && impl_->space == FrameSpace::Rgb && impl_->shown.transpose;
}
double VideoReader::frame_rate() const noexcept {
  const AVRational r = impl_->format->streams[impl_->stream]->avg_frame_rate;
  return r.den != 0 ? av_q2d(r) : 0.0;
}
double VideoReader::base_rate() const noexcept {
  const AVRational r = impl_->guessed_rate();
  return r.num > 0 && r.den > 0 ? av_q2d(r) : 0.0;
}
bool VideoReader::has_audio() const noexcept {
  const AVFormatContext& f = *impl_->format;
  for (unsigned i = 0; i < f.nb_streams; ++i) {
    if (f.streams[i]->codecpar->codec_type == AVMEDIA_TYPE_AUDIO) return true;
  }
  return false;
}
PixelAspect VideoReader::pixel_aspect() const {
  const AVRational a = av_guess_sample_aspect_ratio(impl_->format.get(),
                                                    impl_->format->streams[impl_->stream], nullptr);
  if (a.num <= 0 || a.den <= 0) return {};
  const auto num = static_cast<std::uint32_t>(a.num), den = static_cast<std::uint32_t>(a.den);
  return turned_across() ? PixelAspect{den, num} : PixelAspect{num, den};
}
double VideoReader::start_time() const noexcept {
  const std::int64_t start = impl_->format->start_time;
  return start == AV_NOPTS_VALUE ? 0.0 : static_cast<double>(start) / AV_TIME_BASE;
}
std::int64_t VideoReader::frame_estimate() const noexcept {
  return impl_->format->streams[impl_->stream]->nb_frames;
}
std::string VideoReader::codec() const { return impl_->codec_name; }

VideoColour VideoReader::colour() const {
  const AVCodecContext& c = *impl_->codec;
  return io::describe_colour(c.colorspace, c.color_primaries, c.color_trc, c.color_range,
                             c.pix_fmt);
}

std::int64_t VideoReader::errors() const noexcept { return impl_->damage.errors.load(); }

std::string VideoReader::error_hint() const {
  if (!impl_->index_after_frames) return {};
  return "an MP4 or MOV file read from a pipe needs its index before its frames (ffmpeg "
         "-movflags +faststart writes it so)";
}

std::string VideoReader::first_error() const {
  const std::lock_guard lock(impl_->damage.mutex);
  return impl_->damage.first;
}

bool VideoReader::next(VideoFrame& frame,
                       const std::function<void(const std::string&)>& on_damage) {
  DecodedFrame decoded;
  if (!decode(decoded, on_damage)) return false;
  convert(decoded, frame);
  return true;
}

void VideoReader::convert(DecodedFrame& decoded, VideoFrame& frame) {
  impl_->convert(decoded, frame);
}

bool VideoReader::decode(DecodedFrame& frame,
                         const std::function<void(const std::string&)>& on_damage) {
  Impl& s = *impl_;
  while (!s.finished) {
    const int got = avcodec_receive_frame(s.codec.get(), s.decoded.get());
    if (got == 0) {
      // Damage the decoder concealed and flagged (a frame decoded on one
      // thread: with frame threads the flags are lost, and H.264's error
      // resilience says it at the info level, counted by count_errors), as
      // the ffmpeg command line reads the flags ("corrupt decoded frame").
      const bool damaged =
          s.decoded->decode_error_flags != 0 || (s.decoded->flags & AV_FRAME_FLAG_CORRUPT) != 0;
      s.take_decoded(frame);
      if (damaged) {
        char at[32];
        std::snprintf(at, sizeof at, "%.3f", frame.time);
        s.damage.count([&] {
          return std::string("a damaged frame decoded with its damage concealed, at ") + at + " s";
        });
      }
      return true;
    }
    if (got == AVERROR_EOF) {
      s.finished = true;
      break;
    }
    if (got != AVERROR(EAGAIN)) {
      if (on_damage) on_damage("damaged frame skipped: " + av_message(got));
      continue;
    }
    if (s.draining) {
      s.finished = true;
      break;
    }
    // The decoder wants input: the next packet of the video stream, or the end.
    const int read = av_read_frame(s.format.get(), s.packet.get());
    if (read < 0) {
      if (read != AVERROR_EOF && on_damage) on_damage("read error: " + av_message(read));
      s.draining = true;
      avcodec_send_packet(s.codec.get(), nullptr);
      continue;
    }
    if (s.packet->stream_index == s.stream) {
      const int sent = avcodec_send_packet(s.codec.get(), s.packet.get());
      if (sent < 0 && sent != AVERROR(EAGAIN) && on_damage) {
        on_damage("damaged packet skipped: " + av_message(sent));
      }
    }
    av_packet_unref(s.packet.get());
  }
  return false;
}

}  // namespace gpuhist
