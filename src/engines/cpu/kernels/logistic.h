// The logistic function for Eigen arrays, accurate to a few units in the last place over every
// float. Eigen's own logistic() adds 0.5 to a rational approximation, so below about -2 its
// results are multiples of 2^-24: relative errors up to 1e-3 near -9, enough to make two
// neighbours of a peak mask (sigmoid(x) compared with a max-pool of it) tie.
#pragma once

#include <Eigen/Core>
#include <cmath>

namespace ge::host_cpu {

/// sigmoid(x) from e = exp(-|x|), which lies in (0, 1]: 1 / (1 + e) for x >= 0, e / (1 + e) below,
/// so neither tail subtracts nearly equal numbers. One exp per element.
template <typename S>
struct LogisticOp {
  S operator()(const S& x) const {
    const S e = std::exp(-std::abs(x));
    const S r = S(1) / (S(1) + e);
    return x < S(0) ? e * r : r;
  }
  template <typename Packet>
  Packet packetOp(const Packet& x) const {
    namespace ei = Eigen::internal;
    const Packet one = ei::pset1<Packet>(S(1));
    const Packet e = ei::pexp(ei::pnegate(ei::pabs(x)));
    const Packet r = ei::pdiv(one, ei::padd(one, e));
    return ei::pselect(ei::pcmp_lt(x, ei::pzero(x)), ei::pmul(e, r), r);
  }
};

/// sigmoid of every element of `x` (an Eigen array expression of float or double).
template <typename A>
auto Logistic(const A& x) {
  return x.unaryExpr(LogisticOp<typename A::Scalar>());
}

}  // namespace ge::host_cpu

namespace Eigen::internal {

template <typename S>
struct functor_traits<ge::host_cpu::LogisticOp<S>> {
  enum {
    Cost = functor_traits<scalar_exp_op<S>>::Cost + 4 * NumTraits<S>::AddCost,
    PacketAccess = packet_traits<S>::HasExp && packet_traits<S>::HasDiv &&
                   packet_traits<S>::HasAbs && packet_traits<S>::HasNegate
  };
};

}  // namespace Eigen::internal
