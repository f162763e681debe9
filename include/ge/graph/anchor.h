// Anchors: the ports of a node. An edge is the pair of peers held by two anchors, linked and
// unlinked on both ends at once; there are no edge objects.
//
// Allowed links (source → destination): out-data → in-data, out-data → in-control,
// out-control → in-control, out-control → in-data. An in-data anchor has at most one peer.
// A second identical link between the same two anchors is refused (GE does not check duplicate
// control edges; we do, so that edge counts stay meaningful and RemoveEdge is exact).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ge/graph/fwd.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"

namespace ge {

/// GE's data anchor status.
enum AnchorStatus : int32_t {
  ANCHOR_SUSPEND = 0,
  ANCHOR_CONST = 1,
  ANCHOR_DATA = 2,
  ANCHOR_RESERVED = 3,
};

class GE_API Anchor : public std::enable_shared_from_this<Anchor> {
 public:
  enum class Kind : uint8_t { kInData, kOutData, kInControl, kOutControl };
  static constexpr int kControlIdx = -1;

  virtual ~Anchor();
  Anchor(const Anchor&) = delete;
  Anchor& operator=(const Anchor&) = delete;

  Kind GetKind() const { return kind_; }
  bool IsInAnchor() const { return kind_ == Kind::kInData || kind_ == Kind::kInControl; }
  bool IsDataAnchor() const { return kind_ == Kind::kInData || kind_ == Kind::kOutData; }
  bool IsControlAnchor() const { return !IsDataAnchor(); }
  int GetIdx() const { return idx_; }
  void SetIdx(int idx) { idx_ = idx; }

  NodePtr GetOwnerNode() const { return owner_.lock(); }
  /// Fast path without a refcount: valid while the owner node is alive.
  Node* GetOwnerNodeBarePtr() const { return owner_raw_; }

  /// Live peers, in link order.
  std::vector<AnchorPtr> GetPeerAnchors() const;
  /// Live peers as bare pointers (no refcount traffic).
  std::vector<Anchor*> GetPeerAnchorsPtr() const;
  size_t GetPeerAnchorsSize() const;
  AnchorPtr GetFirstPeerAnchor() const;
  bool IsLinkedWith(const Anchor& peer) const;
  bool IsLinkedWith(const AnchorPtr& peer) const { return peer != nullptr && IsLinkedWith(*peer); }

  /// Removes the link with `peer` on both ends; fails when they are not linked.
  Status Unlink(const AnchorPtr& peer);
  /// Removes every link of this anchor, on both ends.
  void UnlinkAll() noexcept;
  /// Replaces the link this↔old_peer by this↔new_peer, keeping its position in this anchor's
  /// list. `new_peer` must be linkable (an in-data anchor must be free).
  Status ReplacePeer(const AnchorPtr& old_peer, const AnchorPtr& new_peer);
  /// Splices a node into the edge this↔old_peer: it becomes this↔first_peer and
  /// second_peer↔old_peer, each keeping the old position in the list of this and of old_peer.
  Status Insert(const AnchorPtr& old_peer, const AnchorPtr& first_peer,
                const AnchorPtr& second_peer);

  /// "node:out:0", "node:in:1", "node:ctrl_in", "node:ctrl_out".
  std::string DebugString() const;

  /// Whether a link src → dst is allowed by the kinds (not checking occupancy).
  static bool KindsLinkable(Kind src, Kind dst);
  /// Links src → dst on both ends after checking kinds, occupancy and duplicates.
  static Status Link(const AnchorPtr& src, const AnchorPtr& dst);

 protected:
  Anchor(const NodePtr& owner, int idx, Kind kind);

 private:
  struct Peer {
    Anchor* raw;
    std::weak_ptr<Anchor> weak;
    bool alive() const { return !weak.expired(); }
  };
  void AddPeer(Anchor* raw, const AnchorPtr& strong);
  size_t FindPeer(const Anchor* raw) const;  // index in peers_, or npos
  void ErasePeerAt(size_t pos);
  static constexpr size_t kNpos = static_cast<size_t>(-1);

  std::vector<Peer> peers_;
  std::weak_ptr<Node> owner_;
  Node* owner_raw_;
  int idx_;
  Kind kind_;
};

class GE_API DataAnchor : public Anchor {
 public:
  AnchorStatus GetStatus() const { return status_; }
  void SetStatus(AnchorStatus status) { status_ = status; }

 protected:
  DataAnchor(const NodePtr& owner, int idx, Kind kind) : Anchor(owner, idx, kind) {}

 private:
  AnchorStatus status_ = ANCHOR_SUSPEND;
};

class GE_API InDataAnchor final : public DataAnchor {
 public:
  InDataAnchor(const NodePtr& owner, int idx) : DataAnchor(owner, idx, Kind::kInData) {}
  /// The producing out-data anchor, or nullptr (unlinked, or fed by a control anchor).
  OutDataAnchorPtr GetPeerOutAnchor() const;
  OutDataAnchor* GetPeerOutAnchorBarePtr() const;
  /// A control anchor linked into this data input (rare), or nullptr.
  OutControlAnchorPtr GetPeerOutControlAnchor() const;
  Status LinkFrom(const OutDataAnchorPtr& src);
};

class GE_API OutDataAnchor final : public DataAnchor {
 public:
  OutDataAnchor(const NodePtr& owner, int idx) : DataAnchor(owner, idx, Kind::kOutData) {}
  std::vector<InDataAnchorPtr> GetPeerInDataAnchors() const;
  std::vector<InDataAnchor*> GetPeerInDataAnchorsPtr() const;
  std::vector<InControlAnchorPtr> GetPeerInControlAnchors() const;
  uint32_t GetPeerInDataNodesSize() const;
  Status LinkTo(const InDataAnchorPtr& dst);
  Status LinkTo(const InControlAnchorPtr& dst);
};

class GE_API ControlAnchor : public Anchor {
 protected:
  ControlAnchor(const NodePtr& owner, Kind kind) : Anchor(owner, kControlIdx, kind) {}
};

class GE_API InControlAnchor final : public ControlAnchor {
 public:
  explicit InControlAnchor(const NodePtr& owner) : ControlAnchor(owner, Kind::kInControl) {}
  std::vector<OutControlAnchorPtr> GetPeerOutControlAnchors() const;
  std::vector<OutDataAnchorPtr> GetPeerOutDataAnchors() const;
  bool IsPeerOutAnchorsEmpty() const { return GetPeerAnchorsSize() == 0; }
  Status LinkFrom(const OutControlAnchorPtr& src);
};

class GE_API OutControlAnchor final : public ControlAnchor {
 public:
  explicit OutControlAnchor(const NodePtr& owner) : ControlAnchor(owner, Kind::kOutControl) {}
  std::vector<InControlAnchorPtr> GetPeerInControlAnchors() const;
  std::vector<InDataAnchorPtr> GetPeerInDataAnchors() const;
  Status LinkTo(const InControlAnchorPtr& dst);
  Status LinkTo(const InDataAnchorPtr& dst);
};

}  // namespace ge
