// Anchors: linking, unlinking and splicing edges on both ends at once.
#include "ge/graph/anchor.h"

#include "ge/graph/node.h"

namespace ge {

namespace {
const char* KindName(Anchor::Kind kind) {
  switch (kind) {
    case Anchor::Kind::kInData:
      return "in-data";
    case Anchor::Kind::kOutData:
      return "out-data";
    case Anchor::Kind::kInControl:
      return "in-control";
    case Anchor::Kind::kOutControl:
      return "out-control";
  }
  return "?";
}

template <typename T>
std::vector<std::shared_ptr<T>> PeersOfKind(const Anchor& anchor, Anchor::Kind kind) {
  std::vector<std::shared_ptr<T>> out;
  for (const auto& peer : anchor.GetPeerAnchors()) {
    if (peer->GetKind() == kind) out.push_back(std::static_pointer_cast<T>(peer));
  }
  return out;
}
}  // namespace

Anchor::Anchor(const NodePtr& owner, int idx, Kind kind)
    : owner_(owner), owner_raw_(owner.get()), idx_(idx), kind_(kind) {}

Anchor::~Anchor() = default;

std::vector<AnchorPtr> Anchor::GetPeerAnchors() const {
  std::vector<AnchorPtr> out;
  out.reserve(peers_.size());
  for (const auto& peer : peers_) {
    if (auto strong = peer.weak.lock()) out.push_back(std::move(strong));
  }
  return out;
}

std::vector<Anchor*> Anchor::GetPeerAnchorsPtr() const {
  std::vector<Anchor*> out;
  out.reserve(peers_.size());
  for (const auto& peer : peers_) {
    if (peer.alive()) out.push_back(peer.raw);
  }
  return out;
}

size_t Anchor::GetPeerAnchorsSize() const {
  size_t count = 0;
  for (const auto& peer : peers_) count += peer.alive() ? 1 : 0;
  return count;
}

AnchorPtr Anchor::GetFirstPeerAnchor() const {
  for (const auto& peer : peers_) {
    if (auto strong = peer.weak.lock()) return strong;
  }
  return nullptr;
}

size_t Anchor::FindPeer(const Anchor* raw) const {
  for (size_t i = 0; i < peers_.size(); ++i) {
    if (peers_[i].raw == raw && peers_[i].alive()) return i;
  }
  return kNpos;
}

bool Anchor::IsLinkedWith(const Anchor& peer) const { return FindPeer(&peer) != kNpos; }

void Anchor::AddPeer(Anchor* raw, const AnchorPtr& strong) { peers_.push_back({raw, strong}); }

void Anchor::ErasePeerAt(size_t pos) { peers_.erase(peers_.begin() + static_cast<ptrdiff_t>(pos)); }

bool Anchor::KindsLinkable(Kind src, Kind dst) {
  return (src == Kind::kOutData || src == Kind::kOutControl) &&
         (dst == Kind::kInData || dst == Kind::kInControl);
}

Status Anchor::Link(const AnchorPtr& src, const AnchorPtr& dst) {
  if (src == nullptr || dst == nullptr) {
    return ParamInvalid("cannot link a null anchor (" +
                        (src ? src->DebugString() : std::string("null")) + " -> " +
                        (dst ? dst->DebugString() : std::string("null")) + ")");
  }
  if (!KindsLinkable(src->kind_, dst->kind_)) {
    return ParamInvalid("cannot link " + std::string(KindName(src->kind_)) + " anchor " +
                        src->DebugString() + " to " + KindName(dst->kind_) + " anchor " +
                        dst->DebugString() + ": edges go from an out anchor to an in anchor");
  }
  if (src->IsLinkedWith(*dst)) {
    return ParamInvalid("edge " + src->DebugString() + " -> " + dst->DebugString() +
                        " already exists (duplicate edges are refused)");
  }
  if (dst->kind_ == Kind::kInData && dst->GetPeerAnchorsSize() != 0) {
    return ParamInvalid("input " + dst->DebugString() + " already has a producer (" +
                        dst->GetFirstPeerAnchor()->DebugString() + "); cannot also link " +
                        src->DebugString());
  }
  src->AddPeer(dst.get(), dst);
  dst->AddPeer(src.get(), src);
  return Status::Ok();
}

Status Anchor::Unlink(const AnchorPtr& peer) {
  if (peer == nullptr) return ParamInvalid("cannot unlink " + DebugString() + " from null");
  const size_t mine = FindPeer(peer.get());
  const size_t theirs = peer->FindPeer(this);
  if (mine == kNpos || theirs == kNpos) {
    return ParamInvalid("cannot unlink " + DebugString() + " and " + peer->DebugString() +
                        ": they are not linked");
  }
  ErasePeerAt(mine);
  peer->ErasePeerAt(theirs);
  return Status::Ok();
}

void Anchor::UnlinkAll() noexcept {
  for (const auto& peer : peers_) {
    if (!peer.alive()) continue;
    const size_t theirs = peer.raw->FindPeer(this);
    if (theirs != kNpos) peer.raw->ErasePeerAt(theirs);
  }
  peers_.clear();
}

Status Anchor::ReplacePeer(const AnchorPtr& old_peer, const AnchorPtr& new_peer) {
  if (old_peer == nullptr || new_peer == nullptr) {
    return ParamInvalid("ReplacePeer on " + DebugString() + " needs two anchors");
  }
  const size_t mine = FindPeer(old_peer.get());
  if (mine == kNpos) {
    return ParamInvalid("cannot replace peer " + old_peer->DebugString() + " of " + DebugString() +
                        ": they are not linked");
  }
  const AnchorPtr self = shared_from_this();
  const bool self_is_src = !IsInAnchor();
  const AnchorPtr& src = self_is_src ? self : new_peer;
  const AnchorPtr& dst = self_is_src ? new_peer : self;
  if (!KindsLinkable(src->kind_, dst->kind_)) {
    return ParamInvalid("cannot replace peer of " + DebugString() + " with " +
                        new_peer->DebugString() + ": incompatible anchor kinds");
  }
  if (new_peer->IsLinkedWith(*this)) {
    return ParamInvalid("cannot replace peer of " + DebugString() + ": already linked with " +
                        new_peer->DebugString());
  }
  if (new_peer->kind_ == Kind::kInData && new_peer->GetPeerAnchorsSize() != 0) {
    return ParamInvalid("cannot replace peer of " + DebugString() + " with " +
                        new_peer->DebugString() + ": that input already has a producer");
  }
  const size_t theirs = old_peer->FindPeer(this);
  if (theirs != kNpos) old_peer->ErasePeerAt(theirs);
  peers_[mine] = {new_peer.get(), new_peer};
  new_peer->AddPeer(this, self);
  return Status::Ok();
}

Status Anchor::Insert(const AnchorPtr& old_peer, const AnchorPtr& first_peer,
                      const AnchorPtr& second_peer) {
  if (old_peer == nullptr || first_peer == nullptr || second_peer == nullptr) {
    return ParamInvalid("Insert on " + DebugString() + " needs three anchors");
  }
  const size_t mine = FindPeer(old_peer.get());
  const size_t theirs = old_peer->FindPeer(this);
  if (mine == kNpos || theirs == kNpos) {
    return ParamInvalid("cannot insert into " + DebugString() + " -> " + old_peer->DebugString() +
                        ": they are not linked");
  }
  // The new pieces must have the kinds of the ends they replace.
  if (first_peer->kind_ != old_peer->kind_ || second_peer->kind_ != kind_) {
    return ParamInvalid("cannot insert " + first_peer->DebugString() + "/" +
                        second_peer->DebugString() + " into edge " + DebugString() + " - " +
                        old_peer->DebugString() + ": anchor kinds do not match");
  }
  for (const AnchorPtr& piece : {first_peer, second_peer}) {
    if (piece->kind_ == Kind::kInData && piece->GetPeerAnchorsSize() != 0) {
      return ParamInvalid("cannot insert into edge " + DebugString() + " - " +
                          old_peer->DebugString() + ": input " + piece->DebugString() +
                          " already has a producer");
    }
  }
  if (first_peer->IsLinkedWith(*this) || second_peer->IsLinkedWith(*old_peer)) {
    return ParamInvalid("cannot insert into edge " + DebugString() + " - " +
                        old_peer->DebugString() + ": the new edge already exists");
  }
  const AnchorPtr self = shared_from_this();
  peers_[mine] = {first_peer.get(), first_peer};
  first_peer->AddPeer(this, self);
  old_peer->peers_[theirs] = {second_peer.get(), second_peer};
  second_peer->AddPeer(old_peer.get(), old_peer);
  return Status::Ok();
}

std::string Anchor::DebugString() const {
  std::string node = owner_raw_ != nullptr && !owner_.expired() ? owner_raw_->GetName() : "<dead>";
  switch (kind_) {
    case Kind::kInData:
      return node + ":in:" + std::to_string(idx_);
    case Kind::kOutData:
      return node + ":out:" + std::to_string(idx_);
    case Kind::kInControl:
      return node + ":ctrl_in";
    case Kind::kOutControl:
      return node + ":ctrl_out";
  }
  return node;
}

// ---- typed anchors ----

OutDataAnchorPtr InDataAnchor::GetPeerOutAnchor() const {
  AnchorPtr peer = GetFirstPeerAnchor();
  if (peer == nullptr || peer->GetKind() != Kind::kOutData) return nullptr;
  return std::static_pointer_cast<OutDataAnchor>(peer);
}

OutDataAnchor* InDataAnchor::GetPeerOutAnchorBarePtr() const {
  for (Anchor* peer : GetPeerAnchorsPtr()) {
    if (peer->GetKind() == Kind::kOutData) return static_cast<OutDataAnchor*>(peer);
  }
  return nullptr;
}

OutControlAnchorPtr InDataAnchor::GetPeerOutControlAnchor() const {
  AnchorPtr peer = GetFirstPeerAnchor();
  if (peer == nullptr || peer->GetKind() != Kind::kOutControl) return nullptr;
  return std::static_pointer_cast<OutControlAnchor>(peer);
}

Status InDataAnchor::LinkFrom(const OutDataAnchorPtr& src) { return Link(src, shared_from_this()); }

std::vector<InDataAnchorPtr> OutDataAnchor::GetPeerInDataAnchors() const {
  return PeersOfKind<InDataAnchor>(*this, Kind::kInData);
}

std::vector<InDataAnchor*> OutDataAnchor::GetPeerInDataAnchorsPtr() const {
  std::vector<InDataAnchor*> out;
  for (Anchor* peer : GetPeerAnchorsPtr()) {
    if (peer->GetKind() == Kind::kInData) out.push_back(static_cast<InDataAnchor*>(peer));
  }
  return out;
}

std::vector<InControlAnchorPtr> OutDataAnchor::GetPeerInControlAnchors() const {
  return PeersOfKind<InControlAnchor>(*this, Kind::kInControl);
}

uint32_t OutDataAnchor::GetPeerInDataNodesSize() const {
  uint32_t count = 0;
  for (Anchor* peer : GetPeerAnchorsPtr()) count += peer->GetKind() == Kind::kInData ? 1 : 0;
  return count;
}

Status OutDataAnchor::LinkTo(const InDataAnchorPtr& dst) { return Link(shared_from_this(), dst); }
Status OutDataAnchor::LinkTo(const InControlAnchorPtr& dst) {
  return Link(shared_from_this(), dst);
}

std::vector<OutControlAnchorPtr> InControlAnchor::GetPeerOutControlAnchors() const {
  return PeersOfKind<OutControlAnchor>(*this, Kind::kOutControl);
}

std::vector<OutDataAnchorPtr> InControlAnchor::GetPeerOutDataAnchors() const {
  return PeersOfKind<OutDataAnchor>(*this, Kind::kOutData);
}

Status InControlAnchor::LinkFrom(const OutControlAnchorPtr& src) {
  return Link(src, shared_from_this());
}

std::vector<InControlAnchorPtr> OutControlAnchor::GetPeerInControlAnchors() const {
  return PeersOfKind<InControlAnchor>(*this, Kind::kInControl);
}

std::vector<InDataAnchorPtr> OutControlAnchor::GetPeerInDataAnchors() const {
  return PeersOfKind<InDataAnchor>(*this, Kind::kInData);
}

Status OutControlAnchor::LinkTo(const InControlAnchorPtr& dst) {
  return Link(shared_from_this(), dst);
}
Status OutControlAnchor::LinkTo(const InDataAnchorPtr& dst) {
  return Link(shared_from_this(), dst);
}

}  // namespace ge
