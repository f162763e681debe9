// The engine's Winograd weight transform: see winograd_weights.h.
//
// oneDNN's Winograd layouts hold, for every tile position (uh, uw) of an alpha x alpha tile,
// input channel ic and output channel oc, the value U = G g G^T of the (oc, ic) kernel g. They
// differ in how (uh, uw, ic, oc) map to memory; in the four of them a block of output channels
// sits at one stride (one run in three of them), so the transform works on such a block at a
// time:
//
//   for each block of output channels, each input channel:
//     gather the block's 3x3 kernels            tile[9][block]
//     rows:    mid[kh][j] = sum_kw G[j][kw] * tile[kh][kw]     (vectors of `block` lanes)
//     columns: out[i][j]  = sum_kh G[i][kh] * mid[kh][j]
//     store out[i][j] at the layout's place of (i, j, ic, block)
#include "winograd_weights.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "dnnl_util.h"

namespace ge::host_cpu {
namespace {

constexpr int64_t kTaps = 3;  // the kernel's height and width

// The transform matrices oneDNN's kernels expect: F(2x2, 3x3) for the layouts with 4x4 tiles,
// and F(4x4, 3x3) with the row scaling of oneDNN's AVX-512 kernel for the one with 6x6 tiles.
constexpr float kG4[4][kTaps] = {{1.0f, 0.0f, 0.0f},  //
                                 {0.5f, 0.5f, 0.5f},
                                 {0.5f, -0.5f, 0.5f},
                                 {0.0f, 0.0f, 1.0f}};
constexpr float kG6[6][kTaps] = {{1.13777777777778f, 0.0f, 0.0f},
                                 {-0.688403361344538f, -0.430252100840336f, -0.26890756302521f},
                                 {-0.688403361344538f, 0.430252100840336f, -0.26890756302521f},
                                 {0.119514472455649f, 0.179271708683473f, 0.26890756302521f},
                                 {0.119514472455649f, -0.179271708683473f, 0.26890756302521f},
                                 {0.0f, 0.0f, 1.0f}};

/// One Winograd layout's fields, checked, with the filter's own channel counts.
struct Geometry {
  dnnl_wino_memory_format_t format = dnnl_wino_undef;
  int64_t alpha = 0;
  int64_t ic = 0, oc = 0;                // padded to the blocks
  int64_t filter_ic = 0, filter_oc = 0;  // the filter's
  int64_t ic_block = 0, oc_block = 0, ic2_block = 1, oc2_block = 1;
  int64_t nb_ic = 0, nb_oc = 0;
  const float* g = nullptr;  // alpha x 3

  /// Where (uh, uw, input channel icp, first output channel of block ob) lies in the layout.
  int64_t Offset(int64_t uh, int64_t uw, int64_t icp, int64_t ob) const;
  /// The distance between consecutive output channels of a block.
  int64_t OcStride() const { return format == dnnl_wino_wei_aaOIoi ? ic_block : 1; }
};

int64_t Geometry::Offset(int64_t uh, int64_t uw, int64_t icp, int64_t ob) const {
  const int64_t position = uh * alpha + uw;
  const int64_t ib = icp / ic_block, i = icp % ic_block;
  switch (format) {
    case dnnl_wino_wei_aaOIoi:  // [a][a][OC/b][IC/b][o][i]
      return position * ic * oc + ob * oc_block * ic + ib * oc_block * ic_block + i;
    case dnnl_wino_wei_aaOio:  // [a][a][OC/b][IC][o]
      return position * ic * oc + ob * ic * oc_block + icp * oc_block;
    case dnnl_wino_wei_aaOBiOo: {  // [a][a][OC/(b*b2)][IC/b][i][b2][o]
      const int64_t chunk = ob / oc2_block, ob2 = ob % oc2_block;
      return (((position * (nb_oc / oc2_block) + chunk) * nb_ic + ib) * ic_block + i) * oc2_block *
                 oc_block +
             ob2 * oc_block;
    }
    case dnnl_wino_wei_OBaaIBOIio: {  // [OC/(b*b2)][a][a][IC/(b*b2)][b2o][b2i][i][o]
      const int64_t occ = ob / oc2_block, ob2 = ob % oc2_block;
      const int64_t icc = ib / ic2_block, ib2 = ib % ic2_block;
      return ((((((occ * alpha + uh) * alpha + uw) * (nb_ic / ic2_block) + icc) * oc2_block + ob2) *
                   ic2_block +
               ib2) *
                  ic_block +
              i) *
             oc_block;
    }
    default:
      return 0;  // GeometryOf admits no other layout
  }
}

/// The geometry of writing `plain` into `wino`, or nullopt when the transform does not handle
/// them.
std::optional<Geometry> GeometryOf(const dnnl::memory::desc& plain,
                                   const dnnl::memory::desc& wino) {
  using dt = dnnl::memory::data_type;
  const dnnl_memory_desc_t& w = wino.data;
  if (plain.data.ndims != 4 || plain.data_type() != dt::f32 ||
      w.format_kind != dnnl_format_kind_wino || wino.data_type() != dt::f32 || w.ndims != 4) {
    return std::nullopt;
  }
  const dnnl::memory::dims dims = plain.dims();
  if (dims[2] != kTaps || dims[3] != kTaps || wino.dims() != dims ||
      plain != dnnl::memory::desc(dims, dt::f32, dnnl::memory::format_tag::abcd)) {
    return std::nullopt;  // not a dense OIHW 3x3 filter
  }
  const dnnl_wino_desc_t& d = w.format_desc.wino_desc;
  Geometry geo;
  geo.format = d.wino_format;
  geo.alpha = d.alpha;
  geo.ic = d.ic;
  geo.oc = d.oc;
  geo.filter_oc = dims[0];
  geo.filter_ic = dims[1];
  geo.ic_block = d.ic_block;
  geo.oc_block = d.oc_block;
  switch (d.wino_format) {
    case dnnl_wino_wei_aaOIoi:
    case dnnl_wino_wei_aaOio:
      geo.g = &kG4[0][0];
      if (geo.alpha != 4) return std::nullopt;
      break;
    case dnnl_wino_wei_aaOBiOo:
      geo.g = &kG4[0][0];
      geo.oc2_block = d.oc2_block;
      if (geo.alpha != 4) return std::nullopt;
      break;
    case dnnl_wino_wei_OBaaIBOIio:
      geo.g = &kG6[0][0];
      geo.ic2_block = d.ic2_block;
      geo.oc2_block = d.oc2_block;
      if (geo.alpha != 6) return std::nullopt;
      break;
    default:
      return std::nullopt;
  }
  if (d.r != kTaps || geo.ic_block <= 0 || geo.oc_block <= 0 || geo.ic2_block <= 0 ||
      geo.oc2_block <= 0 || geo.ic % geo.ic_block != 0 || geo.oc % geo.oc_block != 0 ||
      geo.ic < geo.filter_ic || geo.oc < geo.filter_oc) {
    return std::nullopt;
  }
  geo.nb_ic = geo.ic / geo.ic_block;
  geo.nb_oc = geo.oc / geo.oc_block;
  const auto bytes = static_cast<size_t>(geo.alpha * geo.alpha * geo.ic * geo.oc) * sizeof(float);
  if (geo.nb_ic % geo.ic2_block != 0 || geo.nb_oc % geo.oc2_block != 0 || d.size != bytes ||
      wino.get_size() != bytes) {
    return std::nullopt;
  }
  return geo;
}

void Transform(const Geometry& geo, const void* src, float* dst) {
  const int64_t a = geo.alpha, block = geo.oc_block, stride = geo.OcStride();
  std::vector<float> tile(static_cast<size_t>(kTaps * kTaps * block));
  std::vector<float> mid(static_cast<size_t>(kTaps * a * block));
  std::vector<float> out(static_cast<size_t>(a * a * block));
  const int64_t kernel = kTaps * kTaps;
  const auto* bytes = static_cast<const uint8_t*>(src);  // read by memcpy: any alignment
  for (int64_t ob = 0; ob < geo.nb_oc; ++ob) {
    for (int64_t icp = 0; icp < geo.ic; ++icp) {
      for (int64_t o = 0; o < block; ++o) {
        const int64_t oc = ob * block + o;
        float k[kTaps * kTaps] = {};
        if (oc < geo.filter_oc && icp < geo.filter_ic) {
          std::memcpy(k, bytes + (oc * geo.filter_ic + icp) * kernel * sizeof(float), sizeof(k));
        }
        for (int64_t t = 0; t < kernel; ++t) tile[t * block + o] = k[t];
      }
      for (int64_t kh = 0; kh < kTaps; ++kh) {
        for (int64_t j = 0; j < a; ++j) {
          const float* gj = geo.g + j * kTaps;
          float* m = &mid[(kh * a + j) * block];
          const float* row = &tile[kh * kTaps * block];
#pragma omp simd
          for (int64_t o = 0; o < block; ++o) {
            float sum = 0.0f;
            for (int64_t kw = 0; kw < kTaps; ++kw) sum += row[kw * block + o] * gj[kw];
            m[o] = sum;
          }
        }
      }
      for (int64_t i = 0; i < a; ++i) {
        const float* gi = geo.g + i * kTaps;
        for (int64_t j = 0; j < a; ++j) {
          float* u = &out[(i * a + j) * block];
#pragma omp simd
          for (int64_t o = 0; o < block; ++o) {
            float sum = 0.0f;
            for (int64_t kh = 0; kh < kTaps; ++kh) sum += gi[kh] * mid[(kh * a + j) * block + o];
            u[o] = sum;
          }
          float* to = dst + geo.Offset(i, j, icp, ob);
          if (stride == 1) {
            std::memcpy(to, u, static_cast<size_t>(block) * sizeof(float));
          } else {
            for (int64_t o = 0; o < block; ++o) to[o * stride] = u[o];
          }
        }
      }
    }
  }
}

/// True when this transform and oneDNN's reorder agree on the smallest filter of `wino`'s layout
/// (one block of each kind of channels).
bool AgreesWithOneDnn(const Geometry& geo, const dnnl::memory::desc& wino) {
  const int64_t oc = geo.oc_block * geo.oc2_block, ic = geo.ic_block * geo.ic2_block;
  dnnl_memory_desc_t small = wino.data;
  small.dims[0] = small.padded_dims[0] = oc;
  small.dims[1] = small.padded_dims[1] = ic;
  dnnl_wino_desc_t& d = small.format_desc.wino_desc;
  d.oc = static_cast<int>(oc);  // a block or two of each: small
  d.ic = static_cast<int>(ic);
  d.size = static_cast<size_t>(geo.alpha * geo.alpha * oc * ic) * sizeof(float);
  const dnnl::memory::desc to(small);
  const dnnl::memory::desc from({oc, ic, kTaps, kTaps}, dnnl::memory::data_type::f32,
                                dnnl::memory::format_tag::abcd);
  const std::optional<Geometry> small_geo = GeometryOf(from, to);
  if (!small_geo) return false;
  std::vector<float> filter(static_cast<size_t>(oc * ic * kTaps * kTaps));
  for (size_t n = 0; n < filter.size(); ++n) filter[n] = std::sin(0.37f * static_cast<float>(n));
  const size_t count = to.get_size() / sizeof(float);
  std::vector<float> theirs(count, 0.0f), ours(count, -1.0f);
  try {
    const dnnl::engine& eng = DnnlEngine();
    dnnl::memory src(from, eng, filter.data()), dst(to, eng, theirs.data());
    dnnl::stream stream(eng);
    dnnl::reorder(src, dst).execute(stream, src, dst);
    stream.wait();
  } catch (const dnnl::error&) {
    return false;  // oneDNN takes no such layout any more
  }
  Transform(*small_geo, filter.data(), ours.data());
  for (size_t n = 0; n < count; ++n) {
    if (std::fabs(ours[n] - theirs[n]) > 1e-5f * (1.0f + std::fabs(theirs[n]))) return false;
  }
  return true;
}

/// AgreesWithOneDnn, once per layout kind and tile size in the process.
bool Checked(const Geometry& geo, const dnnl::memory::desc& wino) {
  static std::mutex mutex;
  static std::map<std::pair<int, int64_t>, bool> agreed;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_pair(static_cast<int>(geo.format), geo.alpha);
  auto it = agreed.find(key);
  if (it == agreed.end()) it = agreed.emplace(key, AgreesWithOneDnn(geo, wino)).first;
  return it->second;
}

}  // namespace

bool TransformWinogradWeights(const dnnl::memory::desc& plain, const dnnl::memory::desc& wino,
                              const void* src, float* dst) {
  const std::optional<Geometry> geo = GeometryOf(plain, wino);
  if (!geo || !Checked(*geo, wino)) return false;
  Transform(*geo, src, dst);
  return true;
}

}  // namespace ge::host_cpu
