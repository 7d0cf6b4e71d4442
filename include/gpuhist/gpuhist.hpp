// gpuhist: exact image histograms on the CPU and on Vulkan GPUs.
#pragma once

#include "gpuhist/adjust.hpp"
#include "gpuhist/adjustment.hpp"
#include "gpuhist/clahe.hpp"
#include "gpuhist/compare.hpp"
#include "gpuhist/context.hpp"
#include "gpuhist/device_info.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/frame_stream.hpp"
#include "gpuhist/histogram.hpp"
#include "gpuhist/histogram_options.hpp"
#include "gpuhist/image.hpp"
#include "gpuhist/image_view.hpp"
#include "gpuhist/pixel_buffer.hpp"
#include "gpuhist/statistics.hpp"
#include "gpuhist/strategy.hpp"
#include "gpuhist/version.hpp"
